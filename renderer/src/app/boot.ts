import { createClient } from '@supabase/supabase-js';
import { fetchAppConfig } from '../api/app-config';
import { createApiClient } from '../api/http';
import type { Bridge } from '../bridge';
import type { EntryLocation } from './entry-location';
import type { Services } from './services';

let booting: Promise<Services> | undefined;

/**
 * Reads the app config from the server and creates the one supabase-js client. Runs once (React may mount
 * twice in development, and two clients would both consume the URL fragment); a failure can be retried.
 */
export function bootServices(bridge: Bridge, entry: EntryLocation): Promise<Services> {
  booting ??= (async () => {
    const serverOrigin = await bridge.serverOrigin();
    const config = await fetchAppConfig(serverOrigin);
    const supabase = createClient(config.supabaseUrl, config.supabaseAnonKey, {
      auth: {
        storage: bridge.authStorage,
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: true,
        flowType: 'implicit',
      },
    });
    const api = createApiClient(serverOrigin, async () => {
      const { data } = await supabase.auth.getSession();
      return data.session?.access_token ?? null;
    });
    const publicOrigin = bridge.kind === 'desktop' ? serverOrigin : window.location.origin;
    return { bridge, config, serverOrigin, publicOrigin, supabase, api, entry };
  })();
  booting.catch(() => (booting = undefined));
  return booting;
}
