import { Navigate, Outlet, ScrollRestoration, createBrowserRouter, createHashRouter, createMemoryRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { RequireAuth } from '../features/auth/require-auth';
import { PublicLayout } from '../features/marketing/public-layout';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { PageSpinner } from '../ui/page-spinner';
import type { AuthClient } from './auth-client';
import { RouteError } from './route-error';

function Root() {
  return (
    <>
      {/* Scrolls to the top on navigation, and to the #anchor when there is one (/#pricing). */}
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

/**
 * Every route of the spec. Each page loads on demand; the sign-in screens and the dashboard also load the
 * supabase-js client first (the public pages never need it), so the first load of the landing page stays small.
 */
export function appRoutes(auth: AuthClient | Promise<AuthClient>): RouteObject[] {
  /** A route module that needs the sign-in client, loaded together with it (the client once the app has booted). */
  const withAuth = <T,>(page: () => Promise<T>) => Promise.all([page(), Promise.resolve(auth).then((client) => client.load())]).then(([module]) => module);
  return [
    {
      path: '/',
      element: <Root />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <PageSpinner />,
      children: [
        {
          element: <PublicLayout />,
          children: [
            { index: true, lazy: () => import('../features/marketing/landing-page').then((m) => ({ Component: m.LandingPage })) },
            { path: 'terms', lazy: () => import('../features/legal/terms-page').then((m) => ({ Component: m.TermsPage })) },
            { path: 'privacy', lazy: () => import('../features/legal/privacy-page').then((m) => ({ Component: m.PrivacyPage })) },
            { path: 'press', lazy: () => import('../features/marketing/press-page').then((m) => ({ Component: m.PressPage })) },
            {
              path: 'affiliate',
              lazy: () => import('../features/marketing/affiliate-page').then((m) => ({ Component: m.AffiliatePage })),
            },
            {
              path: 'use-cases',
              lazy: () => import('../features/marketing/use-cases-page').then((m) => ({ Component: m.UseCasesPage })),
            },
            { path: 'updates', lazy: () => import('../features/updates/updates-page').then((m) => ({ Component: m.UpdatesPage })) },
            {
              path: 'updates/vibe-coding-apps',
              lazy: () => import('../features/updates/vibe-coding-apps-page').then((m) => ({ Component: m.VibeCodingAppsPage })),
            },
            {
              path: 'updates/vibe-friendly-testing',
              lazy: () => import('../features/updates/vibe-friendly-testing-page').then((m) => ({ Component: m.VibeFriendlyTestingPage })),
            },
            {
              path: 'updates/vibe-competitors-comparison',
              lazy: () =>
                import('../features/updates/vibe-competitors-comparison-page').then((m) => ({
                  Component: m.VibeCompetitorsComparisonPage,
                })),
            },
            { path: 'vibe-loop', lazy: () => import('../features/vibe-loop/vibe-loop-page').then((m) => ({ Component: m.VibeLoopPage })) },
            { path: 'login', lazy: () => withAuth(() => import('../features/auth/login-page')).then((m) => ({ Component: m.LoginPage })) },
            { path: 'signup', lazy: () => withAuth(() => import('../features/auth/signup-page')).then((m) => ({ Component: m.SignupPage })) },
            {
              path: 'reset-password',
              lazy: () => withAuth(() => import('../features/auth/reset-password-page')).then((m) => ({ Component: m.ResetPasswordPage })),
            },
            // An invitation link from the mail: signed in it can be accepted; signed out it leads to sign-in and back.
            { path: 'invite', lazy: () => withAuth(() => import('../features/workspaces/invite-page')).then((m) => ({ Component: m.InvitePage })) },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
        {
          path: 'dashboard',
          element: <RequireAuth />,
          children: [
            {
              lazy: () => withAuth(() => import('../features/dashboard/dashboard-layout')).then((m) => ({ Component: m.DashboardLayout })),
              children: [
                { index: true, element: <Navigate to="/dashboard/projects" replace /> },
                {
                  path: 'projects',
                  lazy: () => import('../features/projects/projects-page').then((m) => ({ Component: m.ProjectsPage })),
                },
                {
                  path: 'projects/:id',
                  lazy: () => import('../features/projects/project-detail-page').then((m) => ({ Component: m.ProjectDetailPage })),
                },
                { path: 'scans', lazy: () => import('../features/scenarios/scenarios-page').then((m) => ({ Component: m.ScenariosPage })) },
                { path: 'reports', lazy: () => import('../features/reports/reports-page').then((m) => ({ Component: m.ReportsPage })) },
                { path: 'events', lazy: () => import('../features/events/events-page').then((m) => ({ Component: m.EventsPage })) },
                {
                  path: 'preferences',
                  lazy: () => import('../features/preferences/preferences-page').then((m) => ({ Component: m.PreferencesPage })),
                },
                { path: 'members', lazy: () => import('../features/workspaces/members-page').then((m) => ({ Component: m.MembersPage })) },
                { path: 'webhook', lazy: () => import('../features/webhooks/webhook-page').then((m) => ({ Component: m.WebhookPage })) },
                {
                  path: 'continuous-testing',
                  lazy: () =>
                    import('../features/continuous-testing/continuous-testing-page').then((m) => ({
                      Component: m.ContinuousTestingPage,
                    })),
                },
                { path: 'billing', lazy: () => import('../features/billing/billing-page').then((m) => ({ Component: m.BillingPage })) },
                { path: 'api', lazy: () => import('../features/api-keys/api-page').then((m) => ({ Component: m.ApiPage })) },
                { path: 'support', lazy: () => import('../features/support/support-page').then((m) => ({ Component: m.SupportPage })) },
              ],
            },
          ],
        },
      ],
    },
  ];
}

/**
 * A browser router; a hash router when the page was loaded from a file (an Electron build that loads
 * index.html from disk), where path-based URLs cannot work.
 */
export function createAppRouter(auth: AuthClient) {
  const routes = appRoutes(auth);
  return window.location.protocol === 'file:' ? createHashRouter(routes) : createBrowserRouter(routes);
}

/**
 * Loads the lazy route modules that `pathname` matches and puts them in place, so a router created on these
 * routes renders the page at once instead of its loading fallback: what hydrating a prerendered page needs.
 */
export async function loadRoutesFor(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

/**
 * The browser router for a prerendered page, its page already loaded so it hydrates the HTML as it is. `auth` may
 * still be booting: the page's modules load meanwhile, and a page that signs in waits for the client too.
 */
export async function createHydratingRouter(auth: AuthClient | Promise<AuthClient>) {
  const routes = appRoutes(auth);
  await loadRoutesFor(routes, window.location.pathname);
  return createBrowserRouter(routes);
}

/** The router the build renders a page with: in memory, at `pathname`, its page loaded. */
export async function createPrerenderRouter(auth: AuthClient, pathname: string) {
  const routes = appRoutes(auth);
  await loadRoutesFor(routes, pathname);
  return createMemoryRouter(routes, { initialEntries: [pathname] });
}
