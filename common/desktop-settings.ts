import { z } from 'zod';

/**
 * The desktop app's own settings as they cross the bridge: the server it uses (the embedded one or a team
 * server) and whether it shows desktop notifications. Main keeps them (electron/settings.ts); nothing secret.
 */

/** True when `raw` is an http(s) address with nothing but a scheme, host and port (the API lives at its root). */
function isBareServerAddress(raw: string): boolean {
  if (!URL.canParse(raw)) return false;
  const url = new URL(raw);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
}

/** A team server's address, e.g. https://vibeeval.example.com: http(s), no credentials, no path. */
export const teamServerUrlSchema = z
  .string()
  .trim()
  .min(1, "Enter the team server's address")
  .max(2048)
  .refine(isBareServerAddress, 'Enter an http(s) address without a path, e.g. https://vibeeval.example.com');

export const serverChoiceSchema = z.discriminatedUnion('mode', [z.object({ mode: z.literal('embedded') }), z.object({ mode: z.literal('team'), url: teamServerUrlSchema })]);
export type ServerChoice = z.infer<typeof serverChoiceSchema>;

/** What the app's Preferences page shows. */
export const desktopSettingsSchema = z.object({
  desktopNotifications: z.boolean(),
  /** The saved choice; it takes effect when the app restarts. */
  server: serverChoiceSchema,
  /** The origin this run of the app actually uses. */
  activeServerOrigin: z.string().url(),
  /** The saved server is not the one this run uses: a restart applies it. */
  restartRequired: z.boolean(),
});
export type DesktopSettings = z.infer<typeof desktopSettingsSchema>;

/** The answer to saving a server choice: saved (a restart applies it), or why not, said for the user. */
export const setServerResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), restartRequired: z.literal(true) }),
  z.object({ ok: z.literal(false), message: z.string().min(1).max(500) }),
]);
export type SetServerResult = z.infer<typeof setServerResultSchema>;
