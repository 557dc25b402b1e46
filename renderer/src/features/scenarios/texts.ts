/** The spec's texts of the AI Browser screen (spec sections 2, 4 and 8), kept beside the feature that shows them. */
export const texts = {
  title: 'AI Browser',
  subtitle: 'Browser test scenarios that run in a real Chromium and export as Playwright tests',
  searchLabel: 'Search scenarios',
  searchPlaceholder: 'Search by name or URL',
  refresh: 'Refresh',
  runAll: 'Run All Scenarios',
  generate: 'Generate New Test Scenario',
  liveDemo: 'Live Browser Demo',
  empty: 'No test scenarios found',
  emptyHint: 'Add the vibeeval script to your site to record test scenarios, or generate them from one of your projects with Generate New Test Scenario.',
  noMatch: 'No matching scenarios',
  loadProblem: 'There was a problem loading your test scenarios',
  loadFailedFallback: 'Failed to load scenarios. Please try again later.',
  retry: 'Retry',
  authRequired: 'Authentication required',
  // Toasts (spec section 8, Scenarios).
  loadFailed: 'Failed to load test scenarios',
  runFailed: 'Failed to run test scenario',
  runAllFailed: 'Failed to run all test scenarios',
  deleteFailed: 'Failed to delete test scenario',
  runStarted: 'Test scenario started',
  runAllStarted: 'All test scenarios started',
  deleted: 'Test scenario deleted',
  runAllError: ['Error Running Tests', 'There was a problem running all tests. Please try again.'],
  deleteConfirm: 'Are you sure you want to delete this test scenario?',
  traceHint: 'Open it with npx playwright show-trace <file>',
} as const;

/** 'N of M tests passed', the notice after Run All (spec section 4). */
export const passedNotice = (passed: number, total: number) => `${passed} of ${total} tests passed`;

/** The calls the spec names, for its 'Failed to {call}: {status} - {text}' messages. */
export const CALL_NAMES = {
  list: 'fetch scenarios',
  run: 'run scenario',
  runAll: 'run all scenarios',
  delete: 'delete scenario',
} as const;
