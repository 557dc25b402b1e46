import type { ScanHistoryItem } from '@common/scan-history';

/** The History tab's texts (beyond the spec: a project's scans and what changed between two of them). */
export const historyTexts = {
  tab: 'History',
  listTitle: 'Scan History',
  diffTitle: 'What Changed',
  loadFailed: 'Failed to load scan history',
  diffFailed: 'Failed to compare scans',
  empty: 'No scans yet. Run Test to scan this site; every scan will be listed here.',
  oneCompleted: 'This is the first completed scan: run another to see what changed.',
  from: 'From',
  to: 'To',
  newTitle: 'New',
  fixedTitle: 'Fixed',
  unchangedTitle: 'Unchanged',
  openReport: 'Open report',
  sameScan: 'Choose two different scans.',
  noneNew: 'Nothing new.',
  noneFixed: 'Nothing fixed.',
  noneUnchanged: 'Nothing in both scans.',
  rechecksTitle: 'Checked Again',
  rechecksFailed: 'Failed to load the checks again',
  rechecksEmpty: "No finding checked again yet. A finding's 'Check again' re-runs its check against the site; each answer is listed here.",
  moreListed: (shown: number, total: number) => `Showing the ${shown} most severe of ${total}.`,
} as const;

/** A scan's state in words where it has no grade yet. */
export const SCAN_STATE_WORDS: Record<ScanHistoryItem['state'], string> = { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed' };
