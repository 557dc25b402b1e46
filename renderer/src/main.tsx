import { prerenderedRoute } from '@common/prerender';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createAppQueryClient, type Booted } from './app/app';
import { bootServices } from './app/boot';
import { captureEntryLocation, type EntryLocation } from './app/entry-location';
import { signedInFirstRender } from './app/first-render';
import { createHydratingRouter } from './app/router';
import { createBridge, type Bridge } from './bridge';

// First thing, before any supabase-js client exists: it strips a recovery link's fragment once read.
const entry = captureEntryLocation();
const bridge = createBridge();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Root element not found');

/**
 * A page the build prerendered (its HTML is on screen already) boots first, loads its route, then takes over the
 * HTML: hydrated when the address is exactly the prerendered one, rendered afresh in one step when a query or a
 * fragment may change what the page shows (?tab=..., a recovery link's #access_token=...) or on a dashboard page
 * opened signed in (app/first-render.ts). Any other page shows the boot screen at once.
 */
async function start(root: HTMLElement, bridge: Bridge, entry: EntryLocation) {
  const prerendered = root.dataset.prerendered;
  const samePage = prerendered !== undefined && prerendered === prerenderedRoute(entry.pathname);
  // A project's page is the shell of every project's page ('/dashboard/projects/:id'): rendered afresh, never hydrated.
  const exactPage = prerendered === entry.pathname.replace(/(.)\/$/, '$1');
  if (!samePage) {
    createRoot(root).render(
      <StrictMode>
        <App bridge={bridge} entry={entry} />
      </StrictMode>,
    );
    return;
  }
  let booted: Booted;
  try {
    // The page's modules load while the services boot (the app config is a round trip to the server); a signed-in
    // dashboard page also reads its session and asks for its first data meanwhile.
    const services = bootServices(bridge, entry);
    const queryClient = services.then(createAppQueryClient);
    const modules = createHydratingRouter(services.then((s) => s.auth));
    const signedIn = signedInFirstRender(services, queryClient, entry.pathname, modules);
    const [ready, router, session] = await Promise.all([services, modules, signedIn]);
    booted = { services: ready, router, queryClient: await queryClient, session: session ?? undefined };
  } catch {
    // The boot screen shows why and offers a retry.
    createRoot(root).render(
      <StrictMode>
        <App bridge={bridge} entry={entry} />
      </StrictMode>,
    );
    return;
  }
  const app = (
    <StrictMode>
      <App bridge={bridge} entry={entry} booted={booted} />
    </StrictMode>
  );
  // Signed in, the page is rendered afresh, with its data when it came in time: the prerendered shell is the
  // signed-out one, its skeletons and empty account would be replaced at once anyway.
  if (exactPage && entry.search === '' && entry.hash === '' && !booted.session) hydrateRoot(root, app);
  else createRoot(root).render(app);
}

void start(rootElement, bridge, entry);
