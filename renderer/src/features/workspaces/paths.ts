import { WORKSPACE_PATHS } from '@common/workspaces';

type PathName = keyof typeof WORKSPACE_PATHS;

/** A workspace route with its `:params` filled in (each encoded). */
export function workspacePath(name: PathName, params: Record<string, string> = {}): string {
  return WORKSPACE_PATHS[name].replace(/:(\w+)/g, (_match, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`workspacePath(${name}): missing ${key}`);
    return encodeURIComponent(value);
  });
}

/** The token of an invitation link's query (`?token=vbi_…`), or null. */
export function invitationTokenOf(search: string): string | null {
  const values = new URLSearchParams(search).getAll('token');
  return values.length === 1 && values[0] ? values[0] : null;
}

/** The Members page: it shows the current workspace, whichever it is. */
export const MEMBERS_PATH = '/dashboard/members';

/**
 * Where a switch (or a workspace just created) lands from `pathname`: the Members page stays on Members, now the new
 * workspace's (a workspace made there is made to invite colleagues); anywhere else, the default (its projects),
 * since a screen of records (a project, a scan) belongs to the workspace left.
 */
export function landingAfterSwitch(pathname: string): string | undefined {
  return pathname.replace(/\/+$/, '') === MEMBERS_PATH ? MEMBERS_PATH : undefined;
}
