import { z } from 'zod';
import { browserUrlSchema } from './live-browser';
import { desktopSettingsSchema, serverChoiceSchema, setServerResultSchema } from './desktop-settings';

/**
 * The IPC contract between the Electron main process and the preload bridge: one entry per channel,
 * with the zod schemas of its request and response. Channels are namespaced `vibeeval:<domain>:<verb>`.
 * Main parses every request with `request`; the preload parses every response with `response`.
 */

const vaultKey = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:-]+$/, 'vault keys are letters, digits and . _ : -');

export const appInfoSchema = z.object({
  /** Origin of the embedded server (API, auth and reports), e.g. http://127.0.0.1:53211 */
  serverOrigin: z.string().url(),
  version: z.string(),
  platform: z.enum(['darwin', 'win32', 'linux', 'other']),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** Longest report preview URL accepted: the signed report link, percent-encoded, inside the preview's query. */
export const MAX_REPORT_URL_LENGTH = 8192;

/**
 * A report preview URL: absolute http(s). Main also requires the embedded server's origin (only it knows
 * that origin); this schema keeps everything else from crossing the bridge at all.
 */
const reportPreviewUrl = z
  .string()
  .max(MAX_REPORT_URL_LENGTH)
  .refine((value) => {
    try {
      const { protocol, hostname } = new URL(value);
      return (protocol === 'http:' || protocol === 'https:') && hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** A rectangle of the page, in whole CSS pixels (may start above or left of the viewport when scrolled). */
export const browserBoundsSchema = z.object({
  x: z.number().int().min(-100_000).max(100_000),
  y: z.number().int().min(-100_000).max(100_000),
  width: z.number().int().min(0).max(100_000),
  height: z.number().int().min(0).max(100_000),
});
export type BrowserBounds = z.infer<typeof browserBoundsSchema>;

/** The live browser's page, as main reports it after each navigation, title change, load start or stop, and failure. */
export const browserStateSchema = z.object({
  url: z.string().max(8192),
  title: z.string().max(1000),
  loading: z.boolean(),
  canGoBack: z.boolean(),
  canGoForward: z.boolean(),
  /** Why the last load failed, worded for the user (e.g. the site cannot be reached). */
  error: z.string().max(1000).optional(),
});
export type BrowserState = z.infer<typeof browserStateSchema>;

/** A one-time message for the user (e.g. the keychain could not be used and secrets are kept another way). */
export const noticeSchema = z.object({
  kind: z.enum(['keychain-fallback']),
  title: z.string().min(1).max(200),
  message: z.string().min(1).max(1000),
});
export type Notice = z.infer<typeof noticeSchema>;

/** Most notices main keeps for the renderer at once (there is one kind today). */
export const MAX_QUEUED_NOTICES = 10;

export const ipcContract = {
  'vibeeval:app:get-info': { request: z.tuple([]), response: appInfoSchema },
  'vibeeval:vault:get-item': { request: z.tuple([vaultKey]), response: z.string().nullable() },
  'vibeeval:vault:set-item': {
    request: z.tuple([vaultKey, z.string().max(64 * 1024)]),
    response: z.void(),
  },
  'vibeeval:vault:remove-item': { request: z.tuple([vaultKey]), response: z.void() },
  'vibeeval:shell:open-external': {
    request: z.tuple([z.string().max(2048)]),
    response: z.boolean(),
  },
  /**
   * Starts sign-in with Google in the system browser; the outcome arrives later as 'vibeeval:event:auth'.
   * False when it could not be started (the reason arrives as an error event).
   */
  'vibeeval:auth:start-google': { request: z.tuple([]), response: z.boolean() },
  /** Opens a report preview (the server's /report-preview page) in its own window; false when refused. */
  'vibeeval:reports:open': { request: z.tuple([reportPreviewUrl]), response: z.boolean() },
  /** The live browser (Live Browser Demo): shows `url` in a native view over `bounds`; false when refused. */
  'vibeeval:browser:show': { request: z.tuple([z.object({ url: browserUrlSchema, bounds: browserBoundsSchema })]), response: z.boolean() },
  /** Loads another address in the live browser; false when refused or when no view is shown. */
  'vibeeval:browser:navigate': { request: z.tuple([z.object({ url: browserUrlSchema })]), response: z.boolean() },
  'vibeeval:browser:back': { request: z.tuple([]), response: z.void() },
  'vibeeval:browser:forward': { request: z.tuple([]), response: z.void() },
  'vibeeval:browser:reload': { request: z.tuple([]), response: z.void() },
  /** Where the view is drawn, in CSS pixels of the page; main clamps it to the window. */
  'vibeeval:browser:set-bounds': { request: z.tuple([browserBoundsSchema]), response: z.void() },
  /** Closes the live browser: the view and everything its page held are gone. */
  'vibeeval:browser:hide': { request: z.tuple([]), response: z.void() },
  /** Restarts the app (a new server choice applies at start). */
  'vibeeval:app:relaunch': { request: z.tuple([]), response: z.void() },
  /** Notices main queued before the renderer listened (e.g. during boot); the queue is emptied. */
  'vibeeval:app:take-notices': { request: z.tuple([]), response: z.array(noticeSchema).max(MAX_QUEUED_NOTICES) },
  'vibeeval:settings:get': { request: z.tuple([]), response: desktopSettingsSchema },
  'vibeeval:settings:set-notifications': { request: z.tuple([z.boolean()]), response: z.void() },
  /** Saves the server to use at the next start; a team server only once its /health answers as vibeeval's. */
  'vibeeval:settings:set-server': { request: z.tuple([serverChoiceSchema]), response: setServerResultSchema },
  /**
   * The workspace the app shows now (null = the personal one): main's live stream behind desktop notifications, its
   * catch-up and its texts act in it, as the pages' API calls do (X-Vibeeval-Workspace).
   */
  'vibeeval:workspace:select': { request: z.tuple([z.string().uuid().nullable()]), response: z.void() },
} as const;

export type IpcChannel = keyof typeof ipcContract;
export type IpcRequest<C extends IpcChannel> = z.infer<(typeof ipcContract)[C]['request']>;
export type IpcResponse<C extends IpcChannel> = z.infer<(typeof ipcContract)[C]['response']>;

export function isIpcChannel(channel: string): channel is IpcChannel {
  return Object.hasOwn(ipcContract, channel);
}

/** An in-app path: starts with one '/', no scheme or host, bounded. */
export const appPathSchema = z
  .string()
  .max(2048)
  .regex(/^\/(?![/\\])[^\s]*$/, 'must be a path on the app, starting with a single /');

/**
 * Events main sends to the renderer (main → renderer), one schema per channel. Main checks each payload before
 * sending (electron/events.ts); the preload checks it again before the renderer's listener sees it.
 */
export const ipcEventContract = {
  /** Open a page of the app (a notification or a link was clicked). */
  'vibeeval:event:navigate': z.object({ path: appPathSchema }),
  /** An application-menu command carried out by the page that shows. */
  'vibeeval:event:menu': z.object({ command: z.enum(['new-project', 'run-test']) }),
  /**
   * The end of a sign-in that ran in the system browser (Google): the session to adopt, or why it failed.
   * Tokens cross only this checked channel into the renderer, which keeps the session as it keeps any other.
   */
  'vibeeval:event:auth': z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('signed-in'),
      accessToken: z.string().min(1).max(16_384),
      refreshToken: z.string().min(1).max(2048),
    }),
    z.object({ kind: z.literal('error'), message: z.string().min(1).max(1000) }),
  ]),
  /** A one-time message for the user (e.g. the keychain could not be used and secrets are kept another way). */
  'vibeeval:event:notice': noticeSchema,
  /** The live browser's page changed (address, title, loading, history, failure). */
  'vibeeval:event:browser': browserStateSchema,
} as const;

export type IpcEventChannel = keyof typeof ipcEventContract;
export type IpcEventPayload<C extends IpcEventChannel> = z.infer<(typeof ipcEventContract)[C]>;

export function isIpcEventChannel(channel: string): channel is IpcEventChannel {
  return Object.hasOwn(ipcEventContract, channel);
}
