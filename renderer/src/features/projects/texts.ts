/** The spec's texts for projects that more than one component shows (spec sections 2, 5 and 8). */
export const texts = {
  loadProjectsFailed: ['Failed to load projects', 'Could not retrieve your projects. Please try again later.'],
  loadProjectFailed: ['Failed to load project', 'Could not retrieve project details. Please try again later.'],
  loadMoreProjects: 'Load more projects',
  createTile: 'Create New Project',
  createTileEmpty: 'Add a website to scan it for security holes.',
  createFailed: 'Error creating project',
  createFailedFallback: 'Failed to create project. Please try again.',
  deleteFailed: ['Failed to delete project', 'Could not delete the project. Please try again later.'],
  saveFailed: ['Failed to save changes', 'Could not update the project. Please try again later.'],
  runFailed: 'Failed to run test',
  runStarted: 'Test initiated',
  runStartedFallback: 'Project test has been started.',
  deleteConfirm: 'Are you sure you want to delete this project?',
  // The desktop app's File › Run Test (not in the spec: the menu is the desktop app's own).
  menuRunTestUnavailable: 'The project is not loaded yet',
  menuRunTestBusy: 'A test is already running for this project',
  activeModeLabel: 'Active checks',
  activeModeHelp:
    'Scans may also send the few probes that act on the site, and create one throwaway account where anyone can sign up, to show what a new account can read (the report names it so you can delete it). On a team server, only for a domain your workspace has verified (Members > Domains).',
  permissionTitle: 'Do you have permission to test this site?',
  permissionBody:
    'The terms require that you own this site or have its owner’s permission to test it. A test sends requests to the site, signs in with the project’s test accounts, and in active mode may create one test account.',
  permissionConfirm: 'I have permission, run the test',
  permissionCancel: 'Cancel',
  permissionFailed: 'Failed to record your confirmation',
  // A finding's fix as a prompt for an AI coding tool (common/fix-prompt.ts).
  copyFixPrompt: 'Copy fix prompt',
  fixPromptCopied: 'Fix prompt copied',
  copyFixPromptFailed: 'Could not copy the fix prompt',
  // Check again: the finding's check re-run against the site (common/rechecks.ts).
  checkAgain: 'Check again',
  checkingAgain: 'Checking…',
  recheckFixed: 'Fixed',
  recheckFixedDetail: 'The check no longer finds it. The next scan will count it as fixed.',
  recheckStill: 'Still there',
  recheckStillDetail: 'The check still finds it on the site. Deploy the fix, then check again.',
  recheckUnknown: 'Could not tell',
  recheckFailed: 'Failed to check again',
  recheckSlow: 'The check is still waiting for a free worker. Its answer will show in the History tab.',
  recheckBadge: { fixed: 'Fixed', still_there: 'Still there', unknown: 'Could not tell' },
} as const;
