import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect } from 'react';
import { matchRoutes, type createBrowserRouter } from 'react-router-dom';
import { askFirstData } from './first-render';
import type { Services } from './services';

/**
 * Gets a page ready before the app goes there: its route modules loaded (the dashboard's layout and page are two
 * waves of about 50 small modules), and with `data`, its first data asked for. Signing in takes a round trip of
 * 100 ms or more (the password's hash is slow on purpose): the sign-in page loads the dashboard's modules while the
 * visitor types, and asks for the project list as soon as the session is there, instead of after the dashboard's
 * modules have run.
 */
export interface RouteWarmup {
  prepare: (pathname: string, options?: { data?: boolean }) => void;
}

const RouteWarmupContext = createContext<RouteWarmup>({ prepare: () => undefined });
export const RouteWarmupProvider = RouteWarmupContext.Provider;

export function useRouteWarmup(): RouteWarmup {
  return useContext(RouteWarmupContext);
}

/** Once the page is idle after it shows: the modules of `pathname`, for where the visitor goes next. */
export function usePrepareWhenIdle(pathname: string): void {
  const { prepare } = useRouteWarmup();
  useEffect(() => {
    const run = () => prepare(pathname);
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = window.setTimeout(run, 200);
      return () => window.clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(handle);
  }, [pathname, prepare]);
}

type Router = ReturnType<typeof createBrowserRouter>;

export function createRouteWarmup(router: Router, queryClient: QueryClient, services: Services): RouteWarmup {
  const loaded = new Set<string>();
  return {
    prepare(pathname, { data = false } = {}) {
      if (!loaded.has(pathname)) {
        loaded.add(pathname);
        // The router calls the same lazy functions when it gets there: their modules are in the module map by then.
        for (const { route } of matchRoutes(router.routes, pathname) ?? []) {
          if (typeof route.lazy === 'function') void Promise.resolve(route.lazy()).catch(() => loaded.delete(pathname));
        }
      }
      if (data) void askFirstData(pathname, queryClient, services).catch(() => undefined);
    },
  };
}
