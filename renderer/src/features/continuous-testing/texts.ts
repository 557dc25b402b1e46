import { CONTINUOUS_TEXTS } from '@common/continuous';

/** The texts of /dashboard/continuous-testing: the spec's (from the contract, word for word) and the screen's own. */
export const texts = {
  ...CONTINUOUS_TEXTS,
  title: 'Continuous Testing',
  subtitle: 'Re-scan a live site whenever its pages change, or on a schedule, and see only what is new.',
  tabs: { overview: 'Overview', installation: 'Installation', history: 'Event History' },
  refresh: 'Refresh',
  retry: 'Retry',
  guide: 'Integration guide',
  projectLabel: 'Project',
  noProjects: 'No projects yet',
  noProjectsHint: 'Continuous testing watches a project’s live site. Create a project first, then install the script on its site.',
  goToProjects: 'Go to Projects',
  // The card on a project's Overview
  cardTitle: 'Continuous testing',
  cardHint: 'Re-scan this site whenever its pages change, or on a schedule: install the script, see each build and what it found.',
  cardAction: 'Open continuous testing',
  // Overview
  currentBuild: 'Current build',
  noBuild: 'No builds yet',
  noBuildHint: 'A build appears when the script on your site reports a change, or when a scheduled re-scan runs.',
  lastGrade: 'Last scan grade',
  noScan: 'Not scanned yet',
  usage: 'Monitoring events this month',
  usageHint: 'Every report the script sends from a visitor counts, across all your projects; vibeeval’s own scans do not.',
  schedule: 'Scheduled re-scans',
  scheduleHint: 'Re-scan the site at a set time even when its pages have not changed.',
  frequency: 'Frequency',
  frequencies: { off: 'Off', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' },
  /** After a schedule the account's plan does not include. */
  notInPlan: '(not in your plan)',
  hour: 'Hour',
  weekday: 'Day',
  /** Monthly runs on the first of the chosen weekday of each month. */
  monthDay: 'On the first',
  timezone: 'Time zone',
  save: 'Save schedule',
  saved: 'Schedule saved',
  saveFailed: 'Failed to save schedule',
  nextRun: 'Next run',
  notScheduled: 'Not scheduled',
  // Installation
  scriptTag: 'Script tag',
  copyTag: 'Copy script tag',
  installIntro: 'Add this tag to every page of the site. It loads asynchronously, never blocks rendering, and reports only the page’s content hash and hostname.',
  guidesTitle: 'Where to paste it',
  verifyTitle: 'Check that it works',
  rotate: 'Rotate token',
  rotateTitle: 'Rotate site token',
  rotateQuestion: 'Pages carrying the old token stop reporting at once. Replace the tag on your site with the new one after rotating.',
  rotating: 'Rotating...',
  rotated: 'Site token rotated',
  rotatedHint: 'Update the script tag on your site: the old token no longer works.',
  rotateFailed: 'Failed to rotate site token',
  tokenLabel: 'Site token',
  // Event History
  historyEmpty: 'No builds yet',
  historyEmptyHint: 'Install the script on your site (Installation tab) or turn on a schedule; builds show up here.',
  loadMore: 'Load more builds',
  viewScan: 'View scan',
  columns: { time: 'Time', hash: 'Build', status: 'Status', trigger: 'Trigger', changes: 'What changed' },
  triggers: { script: 'Content change', schedule: 'Scheduled' },
  statuses: { success: 'Success', warning: 'Warning', error: 'Error', other: 'Pending' },
  pendingChanges: 'Re-scan pending',
  noChanges: 'Nothing new',
  siteBroke: 'The site did not load',
} as const;

/** The call in 'Failed to fetch continuous builds: {status} - {text}' (spec section 8's pattern). */
export const BUILDS_CALL = 'fetch continuous builds';
