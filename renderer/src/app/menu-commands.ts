import type { IpcEventPayload } from '@common/ipc';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** A command of the desktop app's menu (File › New Project, File › Run Test). */
export type MenuCommand = IpcEventPayload<'vibeeval:event:menu'>['command'];

/** Router state of a page opened to carry out a menu command once it shows. */
export interface MenuCommandState {
  menuCommand: MenuCommand;
}

function menuCommandOf(state: unknown): MenuCommand | null {
  if (typeof state !== 'object' || state === null || !('menuCommand' in state)) return null;
  const { menuCommand } = state;
  return menuCommand === 'new-project' || menuCommand === 'run-test' ? menuCommand : null;
}

export interface MenuCommands {
  /** A page that shows carries out `command` with `handler`; returns the unregister function. */
  register(command: MenuCommand, handler: () => void): () => void;
  /** Runs the handler of the page that registered last; false when no page showing carries the command out. */
  dispatch(command: MenuCommand): boolean;
}

export function createMenuCommands(): MenuCommands {
  const handlers: Array<{ command: MenuCommand; handler: () => void }> = [];
  return {
    register(command, handler) {
      const entry = { command, handler };
      handlers.push(entry);
      return () => {
        const index = handlers.indexOf(entry);
        if (index >= 0) handlers.splice(index, 1);
      };
    },
    dispatch(command) {
      const entry = handlers.findLast((candidate) => candidate.command === command);
      entry?.handler();
      return entry !== undefined;
    },
  };
}

/** The app's one registry: pages register, the app-wide listener (desktop-events.ts) dispatches. */
export const menuCommands = createMenuCommands();

/**
 * Carries out a menu command on the page that calls it while it shows; also when the page was opened for the
 * command (router state `{ menuCommand }`, set by desktop-events.ts), once, then the state is cleared so going
 * back or reloading does not run it again.
 */
export function useMenuCommand(command: MenuCommand, handler: () => void, registry: MenuCommands = menuCommands): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => registry.register(command, () => latest.current()), [command, registry]);

  const location = useLocation();
  const navigate = useNavigate();
  const requested = menuCommandOf(location.state) === command;
  useEffect(() => {
    if (!requested) return;
    void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true, state: null });
    latest.current();
  }, [requested, navigate, location.pathname, location.search, location.hash]);
}
