import { z } from 'zod';
import { APP_ORIGIN } from './app-origin';
import { serverChoiceSchema, teamServerUrlSchema, type ServerChoice, type SetServerResult } from '../common/desktop-settings';

/**
 * Non-secret settings only (tokens live in the vault). Each field falls back to its default on its own,
 * so a corrupt or outdated file never crashes the app and never loses the fields that are still valid.
 * The main window's position is kept by windows.ts in its own `window-state` file, its one place.
 */
export const settingsSchema = z.object({
  server: serverChoiceSchema.catch({ mode: 'embedded' }),
  desktopNotifications: z.boolean().catch(true),
  /** The user was told the keychain could not be used (once per install). */
  keychainNoticeShown: z.boolean().catch(false),
});
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = { server: { mode: 'embedded' }, desktopNotifications: true, keychainNoticeShown: false };

/** Reads stored settings, replacing every invalid or missing field with its default; unknown keys are dropped. */
export function migrateSettings(stored: unknown): Settings {
  const record = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
  const result = settingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...record });
  return result.success ? result.data : { ...DEFAULT_SETTINGS };
}

/** What GET /health of a vibeeval server answers (server/app.ts), up or with its database down. */
const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ kind: z.string(), state: z.enum(['up', 'down']) }),
});

export interface HealthResponse {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}
export type FetchLike = (url: string, init: { signal: AbortSignal; redirect: 'error'; headers: Record<string, string> }) => Promise<HealthResponse>;

export type TeamServerCheck = { ok: true } | { ok: false; reason: 'invalid-url' | 'unreachable' | 'timeout' | 'not-vibeeval' | 'database-down' | 'origin-refused' };

/**
 * Whether `raw` is a team server address whose GET /health answers as a running vibeeval server within
 * `timeoutMs`, and lets the app's pages (origin app://vibeeval) call it: the renderer talks to the server
 * from that origin, and a server without VIBEEVAL_CORS_ORIGINS=app://vibeeval would refuse every call.
 */
export async function checkTeamServer(raw: string, fetchImpl: FetchLike = fetch, timeoutMs = 5000): Promise<TeamServerCheck> {
  const parsed = teamServerUrlSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'invalid-url' };
  const signal = AbortSignal.timeout(timeoutMs);
  let body: unknown;
  let status: number;
  let allowedOrigin: string | null;
  try {
    // No redirects: the address saved must be the one that answered.
    const response = await fetchImpl(new URL('/health', parsed.data).href, { signal, redirect: 'error', headers: { origin: APP_ORIGIN } });
    status = response.status;
    allowedOrigin = response.headers.get('access-control-allow-origin');
    body = await response.json().catch(() => null);
  } catch {
    return { ok: false, reason: signal.aborted ? 'timeout' : 'unreachable' };
  }
  const health = healthSchema.safeParse(body);
  if (!health.success) return { ok: false, reason: 'not-vibeeval' };
  if (status !== 200 || health.data.status !== 'ok') return { ok: false, reason: 'database-down' };
  if (allowedOrigin !== APP_ORIGIN && allowedOrigin !== '*') return { ok: false, reason: 'origin-refused' };
  return { ok: true };
}

const CHECK_MESSAGES: Record<Exclude<TeamServerCheck, { ok: true }>['reason'], string> = {
  'invalid-url': 'Enter an http(s) address without a path, e.g. https://vibeeval.example.com',
  unreachable: 'The team server could not be reached. Check the address and your network.',
  timeout: 'The team server did not answer in time. Check the address and try again.',
  'not-vibeeval': 'That address answers, but not as a vibeeval server.',
  'database-down': 'The team server answers, but its database is down. Try again later.',
  'origin-refused': 'The team server does not accept the desktop app yet: start it with VIBEEVAL_CORS_ORIGINS=app://vibeeval.',
};

/** What the user reads when a team server is refused. */
export function teamServerCheckMessage(check: TeamServerCheck): string | null {
  return check.ok ? null : CHECK_MESSAGES[check.reason];
}

/** The part of electron-store used here: the whole stored object. */
export interface SettingsBackend {
  store: Record<string, unknown>;
}

export type SettingsService = ReturnType<typeof createSettings>;

/** Typed settings over a store; a team server is saved only after its health check passes. */
export function createSettings(backend: SettingsBackend, fetchImpl: FetchLike = fetch) {
  const read = (): Settings => migrateSettings(backend.store);
  const write = (settings: Settings): void => {
    backend.store = { ...settingsSchema.parse(settings) };
  };
  return {
    get: read,
    setDesktopNotifications(enabled: boolean): void {
      write({ ...read(), desktopNotifications: z.boolean().parse(enabled) });
    },
    setKeychainNoticeShown(): void {
      write({ ...read(), keychainNoticeShown: true });
    },
    /** Saves the server for the next start; a team server only when its check passes. */
    async setServer(choice: unknown): Promise<SetServerResult> {
      const parsed = serverChoiceSchema.safeParse(choice);
      if (!parsed.success) return { ok: false, message: CHECK_MESSAGES['invalid-url'] };
      const server: ServerChoice = parsed.data.mode === 'team' ? { mode: 'team', url: new URL(parsed.data.url).origin } : parsed.data;
      if (server.mode === 'team') {
        const check = await checkTeamServer(server.url, fetchImpl);
        const message = teamServerCheckMessage(check);
        if (message) return { ok: false, message };
      }
      write({ ...read(), server });
      return { ok: true, restartRequired: true };
    },
  };
}

/** The origin the app should use at start: the saved team server's, or null for the embedded server. */
export function teamServerOrigin(settings: Settings): string | null {
  return settings.server.mode === 'team' ? new URL(settings.server.url).origin : null;
}
