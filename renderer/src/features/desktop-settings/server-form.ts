import { serverChoiceSchema, type DesktopSettings, type ServerChoice } from '@common/desktop-settings';

/** What the server choice's form holds: the mode picked and the team URL typed (kept while Embedded is picked). */
export interface ServerForm {
  mode: ServerChoice['mode'];
  url: string;
}

export function serverFormOf(settings: DesktopSettings): ServerForm {
  return { mode: settings.server.mode, url: settings.server.mode === 'team' ? settings.server.url : '' };
}

/** The choice to save, or the message to show beside the URL field. */
export function parseServerForm(form: ServerForm): { choice: ServerChoice } | { error: string } {
  const parsed = serverChoiceSchema.safeParse(form.mode === 'team' ? { mode: 'team', url: form.url } : { mode: 'embedded' });
  if (parsed.success) return { choice: parsed.data };
  return { error: parsed.error.issues[0]?.message ?? 'Enter a valid address' };
}

/** Whether the form differs from the saved choice (Save does something). */
export function serverFormChanged(form: ServerForm, saved: ServerChoice): boolean {
  if (form.mode !== saved.mode) return true;
  return saved.mode === 'team' && form.url.trim().replace(/\/+$/, '') !== saved.url.replace(/\/+$/, '');
}
