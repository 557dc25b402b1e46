import type { Grade, Severity, SeverityCounts } from '../../common/scan';
import { gradeFor } from './observatory';

/** Points a finding takes off the overall score, by severity. */
const WEIGHT: Record<Severity, number> = { critical: 50, high: 25, medium: 10, low: 3, info: 0 };
/** Further findings of the same check count a fifth each: one missing header on forty pages is one problem. */
const REPEAT_FACTOR = 0.2;

export interface ScoredFinding {
  checkId: string;
  severity: Severity;
}

/**
 * The overall score: 100 minus the weight of what was found, on the Observatory's grade chart.
 * A critical finding caps the score at 20 (F), a high one at 55 (C): a leaked service key is never a B.
 */
export function overallScore(findings: readonly ScoredFinding[]): { score: number; grade: Grade } {
  const byCheck = new Map<string, number[]>();
  for (const finding of findings) {
    const list = byCheck.get(finding.checkId) ?? [];
    list.push(WEIGHT[finding.severity]);
    byCheck.set(finding.checkId, list);
  }
  let penalty = 0;
  for (const weights of byCheck.values()) {
    const [worst = 0, ...rest] = weights.sort((a, b) => b - a);
    penalty += worst + rest.reduce((sum, weight) => sum + weight * REPEAT_FACTOR, 0);
  }
  let score = Math.max(0, Math.round(100 - penalty));
  if (findings.some((finding) => finding.severity === 'critical')) score = Math.min(score, 20);
  else if (findings.some((finding) => finding.severity === 'high')) score = Math.min(score, 55);
  return { score, grade: gradeFor(score) };
}

export function countBySeverity(findings: ReadonlyArray<{ severity: Severity }>): SeverityCounts {
  const counts: SeverityCounts = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}
