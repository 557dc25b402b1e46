import type { Session } from '@supabase/auth-js';
import type { QueryClient } from '@tanstack/react-query';
import type { Services } from './services';

/**
 * How long a signed-in dashboard page waits, once its modules are ready, for its session and its first data before
 * it renders without them (the session: its signed-out shell hydrated; the data: its skeletons, filled when the
 * answer comes). The start script asks for the data before the modules load (renderer/start-after-paint.js), so it
 * is usually there before they are; meanwhile the prerendered shell is on screen and keeps the visitor's input.
 */
export const FIRST_DATA_WAIT_MS = 1000;

/** Asks for the first data of the dashboard page at `pathname` in `queryClient`, as the page itself would. */
export async function askFirstData(pathname: string, queryClient: QueryClient, services: Services): Promise<void> {
  if (/^\/dashboard\/projects\/?$/.test(pathname)) {
    const { projectsQuery } = await import('../features/projects/hooks/use-projects');
    await queryClient.prefetchInfiniteQuery(projectsQuery(services.api));
    return;
  }
  const project = /^\/dashboard\/projects\/([^/]+)\/?$/.exec(pathname);
  if (!project) return;
  const { projectQuery } = await import('../features/projects/hooks/use-project');
  await queryClient.prefetchQuery(projectQuery(services.api, decodeURIComponent(project[1]!)));
}

/**
 * On a dashboard page opened with a stored session: the session, once the page's first data is in `queryClient`
 * (or `waitMs` after `modulesReady` at the latest), so the page renders once with both instead of hydrating its
 * signed-out shell and rendering twice more (the session, then the data). Null when nobody is signed in, or the
 * session could not be read by then.
 */
export async function signedInFirstRender(
  services: Promise<Services>,
  queryClient: Promise<QueryClient>,
  pathname: string,
  modulesReady: Promise<unknown>,
  waitMs = FIRST_DATA_WAIT_MS,
): Promise<Session | null> {
  if (!pathname.startsWith('/dashboard/')) return null;
  let session: Session | null = null;
  let decided = false;
  const ready = (async () => {
    const [booted, client] = await Promise.all([services, queryClient]);
    const auth = booted.auth.current;
    if (!auth) return;
    const { data } = await auth.auth.getSession();
    // Too late, the page is hydrated signed out with this cache: nothing may land in it while React hydrates.
    if (decided) return;
    session = data.session;
    if (session) await askFirstData(pathname, client, booted);
  })().catch(() => undefined);
  const late = modulesReady.then(() => new Promise<void>((resolve) => setTimeout(resolve, waitMs)));
  await Promise.race([ready, late.catch(() => undefined)]);
  decided = true;
  return session;
}
