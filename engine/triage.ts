import type { Finding, ScanResult, SuppressedFinding } from '../common/scan';
import { SEVERITY_RANK } from '../common/scan';
import { activeSuppressions, type Suppression } from '../common/triage';
import { countBySeverity, overallScore } from './score/overall';

/** A finding without its suppression (the finding as the checks reported it). */
function plain({ suppression: _suppression, ...finding }: SuppressedFinding): Finding {
  return finding;
}

const bySeverity = (a: Finding, b: Finding) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.checkId.localeCompare(b.checkId) || a.url.localeCompare(b.url);

/**
 * The result with the decisions in force applied: decided findings move from `findings` to `suppressed` (with the
 * decision and its reason), and the score, grade and counts are those of the findings left. Pure, and applied again
 * to a stored result with today's decisions it gives the same as a scan would: a finding reopened since comes back,
 * an accepted risk past its expiry counts again. With nothing to move either way, the result is returned as it is.
 */
export function applySuppressions(result: ScanResult, suppressions: readonly Suppression[], now = Date.now()): ScanResult {
  const decided = new Map(activeSuppressions(suppressions, now).map((entry) => [entry.fingerprint, entry]));
  if (!result.suppressed?.length && !result.findings.some((finding) => decided.has(finding.fingerprint))) return result;
  // Findings that come back from `suppressed` take their place in the engine's order; otherwise the order is kept.
  const all = result.suppressed?.length ? [...result.findings, ...result.suppressed.map(plain)].sort(bySeverity) : result.findings;
  const findings: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  for (const finding of all) {
    const decision = decided.get(finding.fingerprint);
    if (!decision) findings.push(finding);
    else suppressed.push({ ...finding, suppression: { decision: decision.decision, reason: decision.reason, expires_at: decision.expires_at ?? null } });
  }
  return { ...result, findings, suppressed, ...overallScore(findings), counts: countBySeverity(findings) };
}
