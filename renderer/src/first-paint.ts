// The first data of a signed-in dashboard page, painted before the app runs: the build bundles this file on its own
// (no React, a few KB) ahead of renderer/start-after-paint.js, which hands it each early answer it asks for: the
// project list's cards, and a project's page's top, drawn from the templates the build put in the prerendered page
// (features/projects/first-paint), so the user's data shows as soon as the server answers, while the app's modules
// still load; the app's first render then draws the same over it.
import { NEXT_CURSOR_HEADER } from '@common/page-header';
import { PROJECT_PAGE_ROUTE, prerenderedRoute } from '@common/prerender';
import { paintProjectList, paintProjectPage, readProject, readProjectList } from './features/projects/first-paint/paint';
import { projectTitle } from './ui/project-title';
import { TEMPLATES_ELEMENT_ID } from './features/projects/first-paint/template-project';

declare global {
  interface Window {
    /**
     * Given an early answer of the start script (renderer/start-after-paint.js): a promise settled once it is
     * painted (or found not paintable), or null when this page paints nothing for `path`.
     */
    __vibeevalFirstPaint?: { answer(path: string, response: Promise<Response | null>): Promise<unknown> | null };
  }
}

/** The page's templates, when the build put them in. */
function templates(): DocumentFragment | null {
  const element = document.getElementById(TEMPLATES_ELEMENT_ID);
  return element instanceof HTMLTemplateElement ? element.content : null;
}

/** An element of the prerendered page `route`, when this is that page as the build rendered it. */
const onPrerendered = (route: string, selector: string) => document.querySelector(`#root[data-prerendered="${route}"] ${selector}`);

/** Once the page is parsed: the start script runs from <head>. */
const parsed = () =>
  document.readyState === 'loading' ? new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true })) : Promise.resolve();

/** The answer's body and whether the server has more pages, once the page is parsed; null for a failed request. */
async function read(response: Promise<Response | null>): Promise<{ body: unknown; more: boolean } | null> {
  const [answer] = await Promise.all([response, parsed()]);
  if (!answer?.ok) return null;
  // A copy: the app reads the answer itself (api/first-data.ts).
  return { body: await answer.clone().json(), more: answer.headers.has(NEXT_CURSOR_HEADER) };
}

async function paintProjects(response: Promise<Response | null>): Promise<void> {
  const answer = await read(response);
  const parts = templates();
  const grid = onPrerendered('/dashboard/projects', '[data-testid="project-grid"]');
  const projects = answer && readProjectList(answer.body);
  // Once the app has drawn the page, the prerendered grid is gone: nothing to paint.
  if (projects && parts && grid) paintProjectList(parts, grid, projects, answer.more);
}

async function paintProject(id: string, response: Promise<Response | null>): Promise<void> {
  const answer = await read(response);
  const parts = templates();
  const loading = onPrerendered(PROJECT_PAGE_ROUTE, '[data-testid="project-loading"]');
  const project = answer && readProject(answer.body, id);
  if (project && parts && loading && paintProjectPage(parts, loading, project)) document.title = `${projectTitle(project)} | vibeeval`;
}

const PROJECT_PATH = /^\/project\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

window.__vibeevalFirstPaint = {
  answer(path, response) {
    const route = prerenderedRoute(window.location.pathname);
    if (path === '/projects' && route === '/dashboard/projects') return paintProjects(response).catch(() => undefined);
    const project = PROJECT_PATH.exec(path);
    if (project && route === PROJECT_PAGE_ROUTE) return paintProject(project[1]!, response).catch(() => undefined);
    return null;
  },
};
