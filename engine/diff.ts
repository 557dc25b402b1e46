import type { Finding, ScanResult } from '../common/scan';

export interface ScanDiff {
  /** Found now, not in the previous scan. */
  added: Finding[];
  /** In the previous scan, gone now. */
  fixed: Finding[];
  /** In both (the current finding, which may carry fresher evidence). */
  unchanged: Finding[];
}

/** What changed between two scans of a site, by finding fingerprint. */
export function diffScans(previous: Pick<ScanResult, 'findings'> | undefined, current: Pick<ScanResult, 'findings'>): ScanDiff {
  const before = new Map((previous?.findings ?? []).map((finding) => [finding.fingerprint, finding]));
  const now = new Set(current.findings.map((finding) => finding.fingerprint));
  return {
    added: current.findings.filter((finding) => !before.has(finding.fingerprint)),
    fixed: [...before.values()].filter((finding) => !now.has(finding.fingerprint)),
    unchanged: current.findings.filter((finding) => before.has(finding.fingerprint)),
  };
}
