// The first data of a signed-in dashboard page, painted before the app runs: the build bundles this file on its own
// (no React, a few KB) ahead of renderer/start-after-paint.js, which hands it each early answer it asks for. Today
// the project list: its cards are drawn from the templates the build put in the prerendered page
// (features/projects/first-paint), so the user's projects show as soon as the server answers, while the app's
// modules still load; the app's first render then draws the same cards over them.
import { NEXT_CURSOR_HEADER } from '@common/page-header';
import { paintProjectList, readProjectList } from './features/projects/first-paint/paint';
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

/** The prerendered page's project grid and the templates, when this page has them. */
function projectListPage(): { grid: Element; templates: DocumentFragment } | null {
  const templates = document.getElementById(TEMPLATES_ELEMENT_ID);
  const grid = document.querySelector('#root[data-prerendered="/dashboard/projects"] [data-testid="project-grid"]');
  return templates instanceof HTMLTemplateElement && grid ? { grid, templates: templates.content } : null;
}

/** Once the page is parsed: the start script runs from <head>. */
const parsed = () =>
  document.readyState === 'loading' ? new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true })) : Promise.resolve();

async function paintProjects(response: Promise<Response | null>): Promise<void> {
  const [answer] = await Promise.all([response, parsed()]);
  const page = projectListPage();
  if (!page || !answer?.ok) return;
  // A copy: the app reads the answer itself (api/first-data.ts).
  const body: unknown = await answer.clone().json();
  const projects = readProjectList(body);
  // Once the app has drawn the page, the prerendered grid is gone: nothing to paint.
  if (!projects || !page.grid.isConnected) return;
  paintProjectList(page.templates, page.grid, projects, answer.headers.has(NEXT_CURSOR_HEADER));
}

window.__vibeevalFirstPaint = {
  answer(path, response) {
    if (path !== '/projects' || !/^\/dashboard\/projects\/?$/.test(window.location.pathname)) return null;
    return paintProjects(response).catch(() => undefined);
  },
};
