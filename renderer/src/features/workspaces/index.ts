// Workspaces' public face: the switcher and the invitation kept across sign-in, for the dashboard (lint:imports).
export { WorkspaceSwitcher } from './components/workspace-switcher';
export { invitationPagePath, takePendingInvitation } from './pending-invitation';
