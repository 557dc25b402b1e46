/**
 * The routes the build renders to HTML ahead of time, so their first screen paints from the HTML alone, before
 * any JavaScript runs: every public page, and the dashboard's pages as their shell (layout, title, skeletons).
 * The renderer hydrates that HTML; the server and the desktop app's app:// protocol serve it for these paths.
 */
export const PUBLIC_PRERENDERED_ROUTES = [
  '/',
  '/login',
  '/signup',
  '/reset-password',
  '/terms',
  '/privacy',
  '/press',
  '/affiliate',
  '/use-cases',
  '/updates',
  '/updates/vibe-coding-apps',
  '/updates/vibe-friendly-testing',
  '/updates/vibe-competitors-comparison',
  '/vibe-loop',
] as const;

/** Dashboard pages with a fixed path: prerendered signed out, i.e. the shell their data later fills. */
export const DASHBOARD_PRERENDERED_ROUTES = [
  '/dashboard/projects',
  '/dashboard/scans',
  '/dashboard/reports',
  '/dashboard/events',
  '/dashboard/preferences',
  '/dashboard/members',
  '/dashboard/webhook',
  '/dashboard/continuous-testing',
  '/dashboard/billing',
  '/dashboard/api',
  '/dashboard/support',
] as const;

export const PRERENDERED_ROUTES: readonly string[] = [...PUBLIC_PRERENDERED_ROUTES, ...DASHBOARD_PRERENDERED_ROUTES];

/** Folder of the renderer build (out/renderer) that holds the prerendered pages. */
export const PRERENDERED_DIR = 'pages';

/**
 * A project's page: prerendered once, at a sample id, as the shell of every project's page (layout and loading
 * state), and served for any project id; the start script paints the project's top into it from its early answer.
 */
export const PROJECT_PAGE_ROUTE = '/dashboard/projects/:id';
export const PROJECT_PAGE_SAMPLE = '/dashboard/projects/00000000-0000-4000-8000-00000000a11d';
const PROJECT_PAGE = /^\/dashboard\/projects\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every page the build writes: its route (the page's data-prerendered) and the path it is rendered at. */
export const PRERENDERED_PAGES: readonly { route: string; renderAt: string }[] = [
  ...PRERENDERED_ROUTES.map((route) => ({ route, renderAt: route })),
  { route: PROJECT_PAGE_ROUTE, renderAt: PROJECT_PAGE_SAMPLE },
];

const known = new Set(PRERENDERED_ROUTES);

/** The prerendered route that serves `pathname` ('/login', '/dashboard/projects/:id'), or null; one trailing slash is ignored. */
export function prerenderedRoute(pathname: string): string | null {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (known.has(path)) return path;
  return PROJECT_PAGE.test(path) ? PROJECT_PAGE_ROUTE : null;
}

/**
 * The prerendered HTML file for a page path, relative to the renderer build ('pages/login.html'), or null when
 * the path has none (the app's index.html then serves it). Only listed routes (and a project's page, by its id's
 * form) map to a file, so no request path can name another file; one trailing slash is ignored ('/login/' is '/login').
 */
export function prerenderedPageFile(pathname: string): string | null {
  const route = prerenderedRoute(pathname);
  if (!route) return null;
  if (route === PROJECT_PAGE_ROUTE) return `${PRERENDERED_DIR}/dashboard/project.html`;
  return `${PRERENDERED_DIR}${route === '/' ? '/index' : route}.html`;
}
