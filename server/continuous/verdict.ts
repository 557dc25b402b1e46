import { BUILD_CHANGES_LISTED, type BuildChanges, type ContinuousBuild } from '../../common/continuous';
import { SEVERITIES, type Finding } from '../../common/scan';
import { diffScans } from '../../engine/diff';

/** The parts of a scan that judge a build: its outcome, its findings when it completed, its grade. */
export interface JudgedScan {
  state: 'completed' | 'failed';
  findings: Finding[] | null;
  grade: string | null;
  error: string | null;
}

/** The completed scan before it, compared with. */
export interface PreviousScan {
  id: string;
  findings: Finding[];
  grade: string | null;
}

export interface Verdict {
  status: Exclude<ContinuousBuild['status'], 'other'>;
  changes: BuildChanges;
}

const TITLE_MAX = 300;
const ERROR_MAX = 500;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const rank = (finding: Pick<Finding, 'severity'>) => SEVERITIES.indexOf(finding.severity);

/**
 * A build's status and changes from its re-scan and the scan before it: error when a high or critical finding is
 * new or the scan failed (the site broke), warning when a medium one is new, success otherwise.
 */
export function judgeBuild(scan: JudgedScan, previous: PreviousScan | null): Verdict {
  const base = { previous_scan_id: previous?.id ?? null, previous_grade: previous?.grade ?? null };
  if (scan.state === 'failed' || !scan.findings) {
    const error = cut(scan.error ?? 'The re-scan could not finish.', ERROR_MAX);
    return { status: 'error', changes: { ...base, grade: null, new_findings: [], new_count: 0, fixed_count: 0, error } };
  }
  const diff = diffScans(previous ? { findings: previous.findings } : undefined, { findings: scan.findings });
  // Most severe first; the sort is stable, so findings of one severity keep the scan's order.
  const added = [...diff.added].sort((a, b) => rank(a) - rank(b));
  const worst = added[0]?.severity;
  const status = worst === 'critical' || worst === 'high' ? 'error' : worst === 'medium' ? 'warning' : 'success';
  return {
    status,
    changes: {
      ...base,
      grade: scan.grade,
      new_findings: added.slice(0, BUILD_CHANGES_LISTED).map(({ fingerprint, title, severity }) => ({ fingerprint, title: cut(title, TITLE_MAX), severity })),
      new_count: added.length,
      fixed_count: diff.fixed.length,
      error: null,
    },
  };
}
