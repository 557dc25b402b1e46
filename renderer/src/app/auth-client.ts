import type { GoTrueClient } from '@supabase/auth-js';
import type { AppConfig } from '../api/app-config';
import type { Bridge } from '../bridge';
import { AUTH_STORAGE_KEY } from '@common/auth';
import { fragmentParams, type EntryLocation } from './entry-location';

export { AUTH_STORAGE_KEY };

/**
 * The sign-in client, shaped as supabase-js's client (`client.auth`) with only its auth part, which is all the app
 * uses: auth-js, the part supabase-js creates for `client.auth`, is 23 KB of gzip JavaScript where supabase-js
 * with its database, storage, functions and realtime clients is 55 KB (and every signed-in page loads it first).
 */
export interface SupabaseClient {
  readonly auth: GoTrueClient;
}

/**
 * The one sign-in client, loaded on first need: the public pages (the landing page above all) render without its
 * JavaScript; sign-in, sign-up, password reset, the dashboard, or a stored session load it.
 */
export interface AuthClient {
  /** The client once loaded, else null. */
  readonly current: SupabaseClient | null;
  /** Loads and creates the client (once) and returns it. */
  load(): Promise<SupabaseClient>;
  /** Resolves with the client whenever something first loads it. */
  readonly loaded: Promise<SupabaseClient>;
}

export function createAuthClient(config: AppConfig, bridge: Bridge): AuthClient {
  let current: SupabaseClient | null = null;
  let loading: Promise<SupabaseClient> | undefined;
  let announce!: (client: SupabaseClient) => void;
  const loaded = new Promise<SupabaseClient>((resolve) => (announce = resolve));
  const load = () => {
    loading ??= import('@supabase/auth-js').then(({ AuthClient }) => {
      // As supabase-js's createClient(url, anonKey, { auth }) makes its `auth`: the auth server under /auth/v1, the
      // anon key as apikey and as the bearer until a session exists.
      const auth = new AuthClient({
        url: new URL('auth/v1', config.supabaseUrl.replace(/\/?$/, '/')).href,
        headers: { Authorization: `Bearer ${config.supabaseAnonKey}`, apikey: config.supabaseAnonKey },
        storage: bridge.authStorage,
        storageKey: AUTH_STORAGE_KEY,
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: true,
        flowType: 'implicit',
      });
      current = { auth };
      announce(current);
      return current;
    });
    // A failed chunk load (offline, an upgrade replaced the files) may be retried.
    loading.catch(() => (loading = undefined));
    return loading;
  };
  return {
    get current() {
      return current;
    },
    load,
    loaded,
  };
}

/** Fetches and evaluates the sign-in client ahead of `load()` (which then finds it ready); a failure is `load()`'s to report. */
export function preloadAuthClient(): Promise<unknown> {
  return import('@supabase/auth-js').catch(() => undefined);
}

const AUTH_PATHS = ['/login', '/signup', '/reset-password', '/dashboard'];

/**
 * Whether the client is needed at once: a session is stored, the page was opened from a sign-in or recovery link
 * (its fragment or `?code=` must be read before anything else), or the page itself signs in or needs a session.
 */
export async function needsAuthAtStart(entry: EntryLocation, bridge: Bridge): Promise<boolean> {
  const fragment = fragmentParams(entry.hash);
  if (fragment.has('access_token') || fragment.has('error') || fragment.has('error_description')) return true;
  if (new URLSearchParams(entry.search).has('code')) return true;
  if (AUTH_PATHS.some((path) => entry.pathname === path || entry.pathname.startsWith(`${path}/`))) return true;
  try {
    return (await bridge.authStorage.getItem(AUTH_STORAGE_KEY)) !== null;
  } catch {
    return true; // an unreadable store: let supabase-js decide
  }
}
