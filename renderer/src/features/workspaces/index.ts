// Workspaces' public face: the switcher and the invitation kept across sign-in, for the dashboard, and the workspace
// used last, for sign-in (lint:imports).
export { WorkspaceSwitcher } from './components/workspace-switcher';
export { invitationPagePath, takePendingInvitation } from './pending-invitation';
export { useRestoreLastWorkspace } from './hooks/use-restore-last-workspace';
