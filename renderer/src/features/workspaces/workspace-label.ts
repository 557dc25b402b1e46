import type { Workspace } from '@common/workspaces';
import { texts } from './texts';

/** A workspace's name; a personal one without a name of its own is 'Personal'. */
export function workspaceLabel(workspace: Pick<Workspace, 'name' | 'personal'>): string {
  return workspace.personal && !workspace.name ? texts.personalName : workspace.name;
}
