/**
 * The build's static renderer (run in Node by scripts/build-plugins.ts, never shipped to browsers): renders one
 * route of the app to HTML with its Chakra/emotion styles extracted, as the page's first render in a browser
 * will be, so the browser can paint it before any script and React can hydrate it.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
// eslint-disable-next-line no-restricted-imports -- emotion's SSR package, not our server/ folder; this module runs only in the build
import createEmotionServer from '@emotion/server/create-instance';
import { ChakraProvider } from '@chakra-ui/react';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app';
import type { AppConfig } from './api/app-config';
import { createApiClient } from './api/http';
import { createWorkspaceStore } from './api/workspace-store';
import type { AuthClient, SupabaseClient } from './app/auth-client';
import { PrerenderHeadContext, type PrerenderHead } from './app/hydration';
import { PROJECT_PAGE_SAMPLE } from '@common/prerender';
import { createPrerenderRouter } from './app/router';
import type { Services } from './app/services';
import type { Bridge } from './bridge';
import { FirstPaintTemplates } from './features/projects/first-paint/templates';
import { system } from './ui/theme';

export interface PrerenderedPage {
  /** The markup of #root. */
  html: string;
  /** <style data-emotion> elements for the <head>: every rule the markup uses, in insertion order. */
  styles: string;
  /** The page's document title. */
  title: string;
  /** Parts the page's start script paints its first data with, in a <template> for after #root (may be empty). */
  templates: string;
}

/**
 * The services a page sees while prerendered: nobody is signed in and nothing is called. Pages only read the
 * sign-in client and the API in handlers and effects, which never run here; a use would be a bug, so it throws.
 */
function prerenderServices(pathname: string): Services {
  const unavailable = (what: string) => () => {
    throw new Error(`${what} is not available while prerendering ${pathname}`);
  };
  const bridge: Bridge = {
    kind: 'web',
    serverOrigin: unavailable('The server origin'),
    authStorage: { getItem: () => null, setItem: unavailable('Storage'), removeItem: unavailable('Storage') },
    openExternal: unavailable('openExternal'),
    openReport: unavailable('openReport'),
    startGoogleSignIn: unavailable('startGoogleSignIn'),
    subscribe: () => () => undefined,
    liveBrowser: null,
    takeNotices: async () => [],
    desktopSettings: null,
    showWorkspace: async () => undefined,
  };
  const clientUsed = unavailable('The sign-in client');
  // Not a thenable: route modules await the client's loading (withAuth in router.tsx).
  const client = new Proxy({}, { get: (_target, key) => (key === 'then' ? undefined : clientUsed()) }) as SupabaseClient;
  const auth: AuthClient = { current: client, load: async () => client, loaded: new Promise<SupabaseClient>(() => {}) };
  const config: AppConfig = { supabaseUrl: 'http://prerender.invalid', supabaseAnonKey: '', version: '', mode: 'local' };
  const api = createApiClient('', unavailable('The API'));
  return { bridge, config, serverOrigin: '', publicOrigin: '', auth, api, workspace: createWorkspaceStore(null), entry: { pathname, search: '', hash: '' } };
}

/** Renders the app at `pathname` as a browser's first render of it would, signed out. */
export async function renderPage(pathname: string): Promise<PrerenderedPage> {
  const services = prerenderServices(pathname);
  const router = await createPrerenderRouter(services.auth, pathname);
  // The key browsers' default cache uses, so the client's emotion finds these rules and does not insert them again.
  const cache = createCache({ key: 'css' });
  const emotion = createEmotionServer(cache);
  let title = 'vibeeval';
  const head: PrerenderHead = {
    setTitle: (value) => {
      title = value;
    },
  };
  const html = renderToString(
    <StrictMode>
      <PrerenderHeadContext.Provider value={head}>
        <CacheProvider value={cache}>
          <App bridge={services.bridge} entry={services.entry} booted={{ services, router }} />
        </CacheProvider>
      </PrerenderHeadContext.Provider>
    </StrictMode>,
  );
  // The parts the start script clones to show a signed-in user's projects, or project, before the app runs
  // (features/projects/first-paint): rendered in the same cache, so their rules are in the page's styles.
  const firstPaint = pathname === '/dashboard/projects' ? 'list' : pathname === PROJECT_PAGE_SAMPLE ? 'project' : null;
  const templates = firstPaint
    ? renderToString(
        <CacheProvider value={cache}>
          <ChakraProvider value={system}>
            <FirstPaintTemplates page={firstPaint} />
          </ChakraProvider>
        </CacheProvider>,
      )
    : '';
  const styles = emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(html + templates));
  return { html, styles, title, templates };
}
