import type { Finding, ScanResult } from '../common/scan';

export interface ScanDiff {
  /** Found now, not in the previous scan. */
  added: Finding[];
  /** In the previous scan, gone now. */
  fixed: Finding[];
  /** In both (the current finding, which may carry fresher evidence). */
  unchanged: Finding[];
}

type Findings = Pick<ScanResult, 'findings' | 'suppressed'>;

/**
 * What changed between two scans of a site, by finding fingerprint. Suppressed findings (decided by a person) are
 * neither new nor fixed: one still found but decided since is not 'fixed', one reopened is not 'new'.
 */
export function diffScans(previous: Findings | undefined, current: Findings): ScanDiff {
  const before = new Map((previous?.findings ?? []).map((finding) => [finding.fingerprint, finding]));
  const knownBefore = new Set([...before.keys(), ...(previous?.suppressed ?? []).map((finding) => finding.fingerprint)]);
  const now = new Set([...current.findings, ...(current.suppressed ?? [])].map((finding) => finding.fingerprint));
  return {
    added: current.findings.filter((finding) => !knownBefore.has(finding.fingerprint)),
    fixed: [...before.values()].filter((finding) => !now.has(finding.fingerprint)),
    unchanged: current.findings.filter((finding) => knownBefore.has(finding.fingerprint)),
  };
}
