import { teamServerCheckMessage, teamServerOrigin, type SettingsService, type TeamServerCheck } from './settings';

/** What the user picks when the saved team server can't be used at start. */
export type TeamServerFailureChoice = 'retry' | 'embedded' | 'quit';

/** The buttons of that question, in order (dialog.showMessageBox answers with the index). */
export const TEAM_SERVER_FAILURE_BUTTONS: ReadonlyArray<{ label: string; choice: TeamServerFailureChoice }> = [
  { label: 'Try Again', choice: 'retry' },
  { label: 'Use the Embedded Server', choice: 'embedded' },
  { label: 'Quit', choice: 'quit' },
];

/** The message box asking what to do, for Electron's dialog.showMessageBox. */
export function teamServerFailureDialog(origin: string, message: string) {
  return {
    type: 'warning' as const,
    title: 'vibeeval',
    message: 'vibeeval cannot use the team server',
    detail: `${origin}\n\n${message}`,
    buttons: TEAM_SERVER_FAILURE_BUTTONS.map((button) => button.label),
    defaultId: 0,
    cancelId: TEAM_SERVER_FAILURE_BUTTONS.findIndex((button) => button.choice === 'quit'),
    noLink: true,
  };
}

/** The choice behind a button index; an unknown index (the box was dismissed) is Quit. */
export function teamServerFailureChoice(index: number): TeamServerFailureChoice {
  return TEAM_SERVER_FAILURE_BUTTONS[index]?.choice ?? 'quit';
}

export interface ResolveServerDeps {
  settings: Pick<SettingsService, 'get' | 'setServer'>;
  /** checkTeamServer. */
  check: (url: string) => Promise<TeamServerCheck>;
  /** Asks the user what to do when the team server can't be used. */
  ask: (origin: string, message: string) => Promise<TeamServerFailureChoice>;
  /** Starts the embedded server; its origin. */
  startEmbedded: () => Promise<string>;
}

/**
 * The server origin this run uses: the saved team server once it answers (checked again at every start: it may
 * be down, moved or reconfigured since it was saved), else the embedded server. When the team server can't be
 * used the user picks: try again, go back to the embedded server (saved, so the next start does too; Preferences
 * can switch again), or quit (null). Without this, a team server that is down would leave the app unusable,
 * with no way to reach Preferences.
 */
export async function resolveServerOrigin(deps: ResolveServerDeps): Promise<string | null> {
  for (;;) {
    const origin = teamServerOrigin(deps.settings.get());
    if (!origin) return deps.startEmbedded();
    const check = await deps.check(origin);
    const message = teamServerCheckMessage(check);
    if (!message) return origin;
    const choice = await deps.ask(origin, message);
    if (choice === 'quit') return null;
    if (choice === 'embedded') await deps.settings.setServer({ mode: 'embedded' });
  }
}
