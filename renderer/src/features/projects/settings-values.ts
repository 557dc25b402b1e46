import type { Project } from '@common/projects';

/** The Project Settings form's values, as its fields hold them. */
export interface SettingsValues {
  instruction_text: string;
  secret_instruction: string;
  status: string;
  url: string;
  num_pages: string;
  active_mode: boolean;
}

export const settingsValuesOf = (project: Project): SettingsValues => ({
  instruction_text: project.instruction_text ?? '',
  secret_instruction: project.secret_instruction ?? '',
  status: project.status,
  url: project.url,
  num_pages: String(project.num_pages),
  active_mode: project.active_mode ?? false,
});

/**
 * The form once a save comes back: each field the user left as it was sent shows what the server saved (a page count
 * of 0 comes back as 1), and a field changed while the save was on its way keeps the user's change.
 */
export function afterSave(current: SettingsValues, sent: SettingsValues, saved: Project): SettingsValues {
  const fromServer = settingsValuesOf(saved);
  const keys = Object.keys(fromServer) as Array<keyof SettingsValues>;
  return Object.fromEntries(keys.map((key) => [key, current[key] === sent[key] ? fromServer[key] : current[key]])) as unknown as SettingsValues;
}
