import { z } from 'zod';

/**
 * Non-secret settings only (tokens live in the vault). Each field falls back to its default on its own,
 * so a corrupt or outdated file never crashes the app and never loses the fields that are still valid.
 */
const boundsSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400).max(16384),
  height: z.number().int().min(300).max(16384),
});
export type WindowBounds = z.infer<typeof boundsSchema>;

const teamUrlSchema = z
  .string()
  .max(2048)
  .url()
  .refine((raw) => {
    const url = new URL(raw);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
  }, 'http(s) URL without credentials');

export const serverChoiceSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('embedded') }),
  z.object({ mode: z.literal('team'), url: teamUrlSchema }),
]);
export type ServerChoice = z.infer<typeof serverChoiceSchema>;

export const settingsSchema = z.object({
  windowBounds: boundsSchema.nullable().catch(null),
  server: serverChoiceSchema.catch({ mode: 'embedded' }),
  desktopNotifications: z.boolean().catch(true),
});
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = { windowBounds: null, server: { mode: 'embedded' }, desktopNotifications: true };

/** Reads stored settings, replacing every invalid or missing field with its default. */
export function migrateSettings(stored: unknown): Settings {
  const record = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
  const result = settingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...record });
  return result.success ? result.data : { ...DEFAULT_SETTINGS };
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Saved bounds when they still show on a display (the work area most overlapping them), clamped to fit it;
 * null (let the window use its defaults) when no display shows any of them, e.g. a monitor was unplugged.
 */
export function restoreBounds(saved: WindowBounds | null, workAreas: readonly Rect[]): Rect | null {
  if (!saved) return null;
  let best: Rect | null = null;
  let bestArea = 0;
  for (const area of workAreas) {
    const shared = overlap(saved, area);
    if (shared > bestArea) [best, bestArea] = [area, shared];
  }
  if (!best) return null;
  const width = Math.min(saved.width, best.width);
  const height = Math.min(saved.height, best.height);
  const x = Math.min(Math.max(saved.x, best.x), best.x + best.width - width);
  const y = Math.min(Math.max(saved.y, best.y), best.y + best.height - height);
  return { x, y, width, height };
}

export type FetchLike = (url: string, init: { signal: AbortSignal; redirect: 'error' }) => Promise<{ ok: boolean }>;

/** Whether `raw` is a valid team server URL answering GET <url>/health with 2xx within `timeoutMs`. */
export async function checkTeamServer(raw: string, fetchImpl: FetchLike = fetch, timeoutMs = 5000): Promise<boolean> {
  const parsed = teamUrlSchema.safeParse(raw);
  if (!parsed.success) return false;
  const health = new URL('health', parsed.data.endsWith('/') ? parsed.data : `${parsed.data}/`);
  try {
    const response = await fetchImpl(health.href, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    return response.ok;
  } catch {
    return false;
  }
}

/** The part of electron-store used here: the whole stored object. */
export interface SettingsBackend {
  store: Record<string, unknown>;
}

/** Typed settings over a store; a team server is saved only after its health check passes. */
export function createSettings(backend: SettingsBackend, fetchImpl: FetchLike = fetch) {
  const read = (): Settings => migrateSettings(backend.store);
  const write = (settings: Settings): void => {
    backend.store = { ...settings };
  };
  return {
    get: read,
    setWindowBounds(bounds: unknown): void {
      const parsed = boundsSchema.safeParse(bounds);
      if (parsed.success) write({ ...read(), windowBounds: parsed.data });
    },
    setDesktopNotifications(enabled: boolean): void {
      write({ ...read(), desktopNotifications: z.boolean().parse(enabled) });
    },
    async setServer(choice: unknown): Promise<boolean> {
      const parsed = serverChoiceSchema.safeParse(choice);
      if (!parsed.success) return false;
      if (parsed.data.mode === 'team' && !(await checkTeamServer(parsed.data.url, fetchImpl))) return false;
      write({ ...read(), server: parsed.data });
      return true;
    },
  };
}
