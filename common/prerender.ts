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

const known = new Set(PRERENDERED_ROUTES);

/**
 * The prerendered HTML file for a page path, relative to the renderer build ('pages/login.html'), or null when
 * the path has none (the app's index.html then serves it). Only listed routes map to a file, so no request path
 * can name another file; one trailing slash is ignored ('/login/' is '/login').
 */
export function prerenderedPageFile(pathname: string): string | null {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (!known.has(path)) return null;
  return `${PRERENDERED_DIR}${path === '/' ? '/index' : path}.html`;
}
