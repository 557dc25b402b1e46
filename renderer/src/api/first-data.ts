// A signed-in visit of /dashboard/projects (or of a project's page) asks for the app config and the page's first
// data before the app's modules run (renderer/start-after-paint.js), so the answers are on their way while they
// load. The app's first GET of each takes it instead of asking again: once, and only in the same workspace.

/** What the start script leaves in `globalThis.__vibeevalFirstAnswers`, per URL asked. */
interface FirstAnswer {
  /** The workspace header it was asked with; undefined for a request made in none (the app config). */
  workspace: string | undefined;
  /** When it was asked (Date.now()). */
  at: number;
  /** The answer; null when the request failed. */
  response: Promise<Response | null>;
}

const GLOBAL_KEY = '__vibeevalFirstAnswers';

/**
 * Past this, the list may have changed since it was asked for (the page was left open before the dashboard
 * mounted): the app asks again.
 */
const MAX_AGE_MS = 30_000;

/**
 * The answer the start script got for GET `url` in `workspace`, taken (a second call answers null); null when
 * there is none, it was asked in another workspace, or too long ago.
 */
export function takeFirstAnswer(url: string, workspace: string | undefined, now = Date.now()): Promise<Response | null> | null {
  const answers = (globalThis as Record<string, unknown>)[GLOBAL_KEY] as Record<string, FirstAnswer | undefined> | undefined;
  const answer = answers?.[url];
  if (!answers || !answer) return null;
  delete answers[url];
  if (answer.workspace !== workspace || now - answer.at > MAX_AGE_MS) return null;
  return answer.response;
}
