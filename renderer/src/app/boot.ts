import { fetchAppConfig } from '../api/app-config';
import { createApiClient } from '../api/http';
import { browserStorage, createWorkspaceStore } from '../api/workspace-store';
import type { Bridge } from '../bridge';
import { createAuthClient, needsAuthAtStart, preloadAuthClient } from './auth-client';
import type { EntryLocation } from './entry-location';
import type { Services } from './services';

let booting: Promise<Services> | undefined;

/**
 * Reads the app config from the server and prepares the one supabase-js client, loading it now only when the
 * first page needs it. Runs once (React may mount twice in development, and two clients would both consume
 * the URL fragment); a failure can be retried.
 */
export function bootServices(bridge: Bridge, entry: EntryLocation): Promise<Services> {
  booting ??= (async () => {
    // A page that needs the sign-in client loads its module while the app config is asked for.
    const needsAuth = needsAuthAtStart(entry, bridge);
    void needsAuth.then((needed) => needed && preloadAuthClient());
    const serverOrigin = await bridge.serverOrigin();
    const config = await fetchAppConfig(serverOrigin);
    const auth = createAuthClient(config, bridge);
    if (await needsAuth) await auth.load();
    const session = async () => {
      // No client yet means nobody has signed in on this page: public calls go without a token.
      if (!auth.current) return null;
      const { data } = await auth.current.auth.getSession();
      return data.session;
    };
    const workspace = createWorkspaceStore(browserStorage());
    const api = createApiClient(serverOrigin, async () => (await session())?.access_token ?? null, {
      // Read with the session's user, so the token and the workspace always belong to the same account.
      current: async () => {
        const user = (await session())?.user;
        return user ? workspace.currentFor(user.id) : null;
      },
      gone: (id) => workspace.lose(id),
    });
    const publicOrigin = bridge.kind === 'desktop' ? serverOrigin : window.location.origin;
    return { bridge, config, serverOrigin, publicOrigin, auth, api, workspace, entry };
  })();
  booting.catch(() => (booting = undefined));
  return booting;
}
