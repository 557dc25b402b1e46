import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { Session } from '@supabase/auth-js';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { createQueryClient } from '../api/query-client';
import type { Bridge } from '../bridge';
import { AuthProvider } from './auth-context';
import { WorkspaceProvider } from '../features/workspaces/workspace-context';
import { system } from '../ui/theme';
import { notify, Toaster } from '../ui/toaster';
import { replayInputBeforeApp } from './before-app';
import { BootGate } from './boot-gate';
import { listenToDesktopEvents } from './desktop-events';
import type { EntryLocation } from './entry-location';
import { ServicesProvider, type Services } from './services';
import { createRouteWarmup, RouteWarmupProvider } from './route-warmup';
import { createAppRouter } from './router';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * What a prerendered page has ready before it hydrates: the services and a router whose first page is loaded; a
 * signed-in dashboard page may also have its session and, in `queryClient`, its first data (app/first-render.ts).
 */
export interface Booted {
  services: Services;
  router: AppRouter;
  queryClient?: QueryClient;
  session?: Session;
}

/**
 * The app's query client: a 401 means the session is gone, so it is dropped and the route guard sends the user to
 * /login; a failure raises the toast its query or mutation names (api/query-client.ts).
 */
export function createAppQueryClient(services: Services): QueryClient {
  return createQueryClient(() => void services.auth.current?.auth.signOut({ scope: 'local' }), notify.error);
}

function ReadyApp({ services, booted }: { services: Services; booted?: Booted }) {
  const [queryClient] = useState(() => booted?.queryClient ?? createAppQueryClient(services));
  const [router] = useState(() => booted?.router ?? createAppRouter(services.auth));
  const navigate = useCallback((path: string) => router.navigate(path), [router]);
  const warmup = useMemo(() => createRouteWarmup(router, queryClient, services), [router, queryClient, services]);
  // Says the page now runs (hydrated, or rendered): tests and the paint benchmark wait for it. A prerendered page
  // then gets what the visitor did before (typed text, a click on 'Sign In').
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
    replayInputBeforeApp();
  }, []);
  // The desktop app's main process opens pages (notification clicks, links), sends menu commands and notices.
  useEffect(() => listenToDesktopEvents(services.bridge, { navigate: (path, state) => void router.navigate(path, { state }) }), [services.bridge, router]);
  return (
    <ServicesProvider value={services}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider initialSession={booted?.session}>
          <WorkspaceProvider navigate={navigate}>
            <RouteWarmupProvider value={warmup}>
              <RouterProvider router={router} />
            </RouteWarmupProvider>
          </WorkspaceProvider>
        </AuthProvider>
      </QueryClientProvider>
    </ServicesProvider>
  );
}

/**
 * The whole renderer: theme and toasts first (the boot screen uses them), then the app once booted. With
 * `booted` (a prerendered page, or the prerender itself) the first render is already the page.
 */
export function App({ bridge, entry, booted }: { bridge: Bridge; entry: EntryLocation; booted?: Booted }) {
  return (
    <ChakraProvider value={system}>
      <BootGate bridge={bridge} entry={entry} booted={booted?.services}>
        {(services) => <ReadyApp services={services} booted={booted} />}
      </BootGate>
      <Toaster />
    </ChakraProvider>
  );
}
