import { z } from 'zod';

/** How often a running app looks for an update after the check at start. */
export const UPDATE_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** The part of electron-updater's `autoUpdater` used here, so the schedule is tested without Electron. */
export interface Updater {
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  /** Checks, downloads in the background, and shows the OS's notification when the update is ready. */
  checkForUpdatesAndNotify(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Where updates come from: a URL from the environment, or the publish config built into the app (app-update.yml). */
export type UpdateFeed = { kind: 'url'; url: string } | { kind: 'built-in' };

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An update feed URL: https (http only on this machine, for testing a feed), no credentials, no fragment. */
export const updateUrlSchema = z
  .string()
  .max(2048)
  .url()
  .refine((raw) => {
    // zod runs refinements even after url() failed.
    if (!URL.canParse(raw)) return false;
    const url = new URL(raw);
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
    return secure && url.username === '' && url.password === '' && url.hash === '';
  }, 'an https URL without credentials');

/**
 * The feed to use, or null (updates off): VIBEEVAL_UPDATE_URL when set and valid, else the built-in publish config
 * when the package has one. A bad VIBEEVAL_UPDATE_URL turns updates off rather than falling back silently.
 */
export function updateFeed(env: Record<string, string | undefined>, hasBuiltInFeed: boolean, log: (message: string) => void): UpdateFeed | null {
  const raw = env.VIBEEVAL_UPDATE_URL?.trim();
  if (raw) {
    const parsed = updateUrlSchema.safeParse(raw);
    if (parsed.success) return { kind: 'url', url: parsed.data };
    log('vibeeval: VIBEEVAL_UPDATE_URL is not an https URL without credentials; automatic updates are off');
    return null;
  }
  return hasBuiltInFeed ? { kind: 'built-in' } : null;
}

export interface AutoUpdateOptions {
  /** app.isPackaged: a development run never updates itself. */
  packaged: boolean;
  env: Record<string, string | undefined>;
  /** Whether the package carries a publish config (resources/app-update.yml, written by electron-builder). */
  hasBuiltInFeed: boolean;
  /** electron-updater's autoUpdater, loaded only when updates are on. */
  loadUpdater: () => Promise<Updater>;
  /** Where errors go: the log, never a dialog. */
  log: (message: string) => void;
  intervalMs?: number;
}

export interface AutoUpdates {
  readonly enabled: boolean;
  stop(): void;
}

const OFF: AutoUpdates = { enabled: false, stop() {} };

/** Starts checking for updates (now, then every `intervalMs`) when the app is packaged and a feed is configured. */
export function startAutoUpdates(options: AutoUpdateOptions): AutoUpdates {
  if (!options.packaged) return OFF;
  const feed = updateFeed(options.env, options.hasBuiltInFeed, options.log);
  if (!feed) return OFF;

  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const failed = (error: unknown) => options.log(`vibeeval: update check failed: ${error instanceof Error ? error.message : String(error)}`);
  const check = (updater: Updater) => {
    if (stopped) return;
    updater.checkForUpdatesAndNotify().catch(failed);
  };

  options
    .loadUpdater()
    .then((updater) => {
      if (stopped) return;
      // Download and signature errors arrive as events, not only as the check's rejection.
      updater.on('error', failed);
      if (feed.kind === 'url') updater.setFeedURL({ provider: 'generic', url: feed.url });
      check(updater);
      timer = setInterval(() => check(updater), options.intervalMs ?? UPDATE_INTERVAL_MS);
      // A pending check never keeps the app alive.
      timer.unref?.();
    })
    .catch(failed);

  return {
    enabled: true,
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}
