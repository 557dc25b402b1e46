import { z } from 'zod';
import { AUTH_STORAGE_KEY } from '../common/auth';
import { WORKSPACE_HEADER } from '../common/workspaces';
import type { Vault } from './vault';

/** The vault key under which the renderer's supabase-js keeps its session JSON. */
export const SESSION_KEY = AUTH_STORAGE_KEY;
/** Refresh (with no window open) when the access token has less than this left. */
export const REFRESH_MARGIN_MS = 120_000;
const REFRESH_TIMEOUT_MS = 10_000;

/** The fields main needs of the stored session; the rest (token_type, user's other fields, ...) is kept as is. */
const storedSessionSchema = z
  .object({
    access_token: z.string().min(1).max(16_384),
    refresh_token: z.string().min(1).max(4_096),
    /** Seconds since the epoch, as supabase-js stores it. */
    expires_at: z.number().int().positive(),
    user: z.object({ id: z.string().min(1).max(200) }).passthrough(),
  })
  .passthrough();
type StoredSession = z.infer<typeof storedSessionSchema>;

/** The token endpoint's answer: the same shape as the stored session. */
const refreshedSessionSchema = storedSessionSchema;

/** GET /app-config: where auth lives, the server itself or a hosted Supabase project (as the renderer reads it). */
const appConfigSchema = z.object({
  supabaseUrl: z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'an http(s) URL'),
  supabaseAnonKey: z.string().max(4_096),
});
interface AuthTarget {
  url: string;
  apikey: string;
}

/** The signed-in user and a bearer token for the API. */
export interface ActiveSession {
  userId: string;
  accessToken: string;
  /** The workspace the app shows (the renderer says which); null or absent = the user's personal workspace. */
  workspaceId?: string | null;
}

/** The headers of an API call as this session: the bearer token, and the workspace it acts in when one is chosen. */
export function apiHeaders(session: ActiveSession): Record<string, string> {
  return { authorization: `Bearer ${session.accessToken}`, ...(session.workspaceId ? { [WORKSPACE_HEADER]: session.workspaceId } : {}) };
}

/** The part of the vault the session source uses. */
export interface SessionVault {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
}

export interface SessionSourceOptions {
  vault: SessionVault;
  /** The server's origin, for the token endpoint. */
  origin: string;
  /** Whether the main window exists: its renderer then owns refreshing. */
  hasWindow: () => boolean;
  /** The workspace the renderer shows (vibeeval:workspace:select); absent or null = the personal one. */
  workspace?: () => string | null;
  fetch?: typeof fetch;
  now?: () => number;
  log?: (message: string) => void;
}

export interface SessionSource {
  /** The session to use now (refreshed first when that is main's job), or null when signed out. */
  current(): Promise<ActiveSession | null>;
  /** What the last read found; false before any read. */
  readonly signedIn: boolean;
  /** Resolves once no read (and so no refresh) is under way; never rejects. */
  settled(): Promise<void>;
}

/** The refresh token was refused: the session is over, and retrying cannot help. */
class SessionEndedError extends Error {}

function parseStored(raw: string | null): StoredSession | null {
  if (raw === null) return null;
  try {
    const parsed = storedSessionSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function fetchAuthTarget(options: SessionSourceOptions): Promise<AuthTarget> {
  const response = await (options.fetch ?? fetch)(`${options.origin}/app-config`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS),
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`the app configuration answered ${response.status}`);
  const config = appConfigSchema.parse(await response.json());
  return { url: config.supabaseUrl.replace(/\/+$/, ''), apikey: config.supabaseAnonKey || 'local' };
}

async function refreshSession(options: SessionSourceOptions, target: AuthTarget, stored: StoredSession): Promise<StoredSession> {
  const fetchImpl = options.fetch ?? fetch;
  const response = await fetchImpl(`${target.url}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    // The anon key is public (Supabase's, or any value for our own auth); the refresh token decides.
    headers: { 'content-type': 'application/json', apikey: target.apikey },
    body: JSON.stringify({ refresh_token: stored.refresh_token }),
    signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS),
    redirect: 'error',
  });
  if (response.status === 400 || response.status === 401 || response.status === 403) throw new SessionEndedError();
  if (!response.ok) throw new Error(`session refresh answered ${response.status}`);
  const refreshed = refreshedSessionSchema.parse(await response.json());
  // The same JSON shape supabase-js wrote: its fields, updated with the new tokens and expiry.
  return { ...stored, ...refreshed };
}

/**
 * The signed-in session, read from the vault each time it is needed. While the main window exists its renderer
 * refreshes the tokens (supabase-js, which keeps the vault current) and main only reads: refreshing here too would
 * spend the refresh token under the renderer's feet (each one works once; a reused one ends the session). With no
 * window (macOS keeps the app running), main refreshes a token close to expiry itself and writes the result back.
 */
export function createSessionSource(options: SessionSourceOptions): SessionSource {
  const now = options.now ?? Date.now;
  let signedIn = false;
  let inFlight: Promise<ActiveSession | null> | null = null;
  let target: Promise<AuthTarget> | null = null;
  const authTarget = () => {
    target ??= fetchAuthTarget(options).catch((error: unknown) => {
      target = null; // asked again next time
      throw error;
    });
    return target;
  };

  const read = async (): Promise<ActiveSession | null> => {
    let stored = parseStored(await options.vault.getItem(SESSION_KEY));
    if (stored && !options.hasWindow() && stored.expires_at * 1000 - now() < REFRESH_MARGIN_MS) {
      try {
        stored = await refreshSession(options, await authTarget(), stored);
        await options.vault.setItem(SESSION_KEY, JSON.stringify(stored));
      } catch (error) {
        if (!(error instanceof SessionEndedError)) throw error;
        options.log?.('the stored session could not be refreshed; notifications wait for the next sign-in');
        stored = null;
      }
    }
    signedIn = stored !== null;
    if (!stored) return null;
    return { userId: stored.user.id, accessToken: stored.access_token, ...(options.workspace ? { workspaceId: options.workspace() } : {}) };
  };

  return {
    current() {
      // One read at a time: two refreshes with one refresh token would end the session.
      inFlight ??= read().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    settled() {
      return (inFlight ?? Promise.resolve(null)).then(
        () => undefined,
        () => undefined,
      );
    },
    get signedIn() {
      return signedIn;
    },
  };
}

export interface SessionWatch {
  /** After each write or removal of the session (sign-in, token refresh, sign-out in the renderer). */
  changed: () => void;
  /** Awaited before the renderer reads the session: a refresh main has under way lands first. */
  beforeRead: () => Promise<void> | undefined;
}

/**
 * Wraps the vault the renderer uses (through IPC) so that the live stream follows its sign-in and sign-out, and so
 * that the renderer never reads a session whose refresh token main is spending at that moment (the window opened
 * again while main refreshed): it would spend it a second time, and the server would end the session.
 */
export function watchSessionWrites(vault: Vault, watch: SessionWatch): Vault {
  return {
    async getItem(key: string) {
      if (key === SESSION_KEY) await watch.beforeRead();
      return vault.getItem(key);
    },
    async setItem(key: string, value: string) {
      await vault.setItem(key, value);
      if (key === SESSION_KEY) watch.changed();
    },
    async removeItem(key: string) {
      await vault.removeItem(key);
      if (key === SESSION_KEY) watch.changed();
    },
  };
}
