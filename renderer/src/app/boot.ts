import { fetchAppConfig } from '../api/app-config';
import { createApiClient } from '../api/http';
import type { Bridge } from '../bridge';
import { createAuthClient, needsAuthAtStart } from './auth-client';
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
    const serverOrigin = await bridge.serverOrigin();
    const config = await fetchAppConfig(serverOrigin);
    const auth = createAuthClient(config, bridge);
    if (await needsAuthAtStart(entry, bridge)) await auth.load();
    const api = createApiClient(serverOrigin, async () => {
      // No client yet means nobody has signed in on this page: public calls go without a token.
      if (!auth.current) return null;
      const { data } = await auth.current.auth.getSession();
      return data.session?.access_token ?? null;
    });
    const publicOrigin = bridge.kind === 'desktop' ? serverOrigin : window.location.origin;
    return { bridge, config, serverOrigin, publicOrigin, auth, api, entry };
  })();
  booting.catch(() => (booting = undefined));
  return booting;
}
