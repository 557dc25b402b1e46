// 'Check again': one finding's check re-run against the site, with only the requests that check needs, to say in
// seconds whether a fix took. The page the finding was seen on is fetched (with its scripts), the check plans its own
// probes as in a full scan, and the finding's fingerprint tells whether the same weakness is still there.
import type { Finding, ScanOptions, ScanResult } from '../common/scan';
import { CHECKS } from './checks/index';
import { scan, ScanError, type ScanHooks } from './scan';
import type { CheckDefinition } from './types';

export type RecheckStatus = 'fixed' | 'still_there' | 'unknown';

export interface RecheckOutcome {
  status: RecheckStatus;
  /** Why the answer is 'unknown', in words. */
  reason?: string;
  /** The finding as seen now, when it is still there (its evidence may have changed). */
  finding?: Finding;
  checkedAt: string;
  durationMs: number;
}

/** What a check again needs of the finding. */
export type RecheckedFinding = Pick<Finding, 'checkId' | 'url' | 'fingerprint'>;

const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * Where the check again starts: the page the finding is on when it is a page of the site, else the site's address
 * (a finding on a probed path or on another host, such as the site's Supabase project, comes from the site's page).
 */
export function recheckStart(siteUrl: string, finding: RecheckedFinding): string {
  return sameOrigin(finding.url, siteUrl) ? finding.url : siteUrl;
}

/** The answer for `finding` from a scan that ran only its check. */
export function recheckVerdict(result: ScanResult, check: CheckDefinition, finding: RecheckedFinding): Omit<RecheckOutcome, 'checkedAt' | 'durationMs'> {
  const now = result.findings.find((f) => f.fingerprint === finding.fingerprint);
  if (now) return { status: 'still_there', finding: now };
  const failed = result.warnings.find((warning) => warning.startsWith(`${check.id}:`));
  if (failed) return { status: 'unknown', reason: `The check could not run: ${failed.slice(check.id.length + 1).trim()}` };
  const start = result.pages[0];
  if (!start || start.status === 0 || start.status >= 500) {
    return { status: 'unknown', reason: `The site did not answer ${start?.status ? `(HTTP ${start.status})` : ''}`.trim() + '. Try again once it is up.' };
  }
  const ran = result.passed.some((p) => p.checkId === check.id) || result.findings.some((f) => f.checkId === check.id);
  if (!ran) return { status: 'unknown', reason: 'The check found nothing to look at on this page now (the page may have changed): run a new scan to be sure.' };
  return { status: 'fixed' };
}

/**
 * Re-runs `finding`'s check on the site at `siteUrl`: one page (the finding's, or the site's start page) and the
 * requests the check plans, with the scan's address policy, accounts and options as given.
 */
export async function recheckFinding(
  siteUrl: string,
  finding: RecheckedFinding,
  options: Partial<ScanOptions> = {},
  hooks: Omit<ScanHooks, 'checks'> = {},
  checks: readonly CheckDefinition[] = CHECKS,
): Promise<RecheckOutcome> {
  const t0 = performance.now();
  const check = checks.find((c) => c.id === finding.checkId);
  const done = (verdict: Omit<RecheckOutcome, 'checkedAt' | 'durationMs'>): RecheckOutcome => ({
    ...verdict,
    checkedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - t0),
  });
  if (!check) return done({ status: 'unknown', reason: 'This check is no longer part of the scanner: run a new scan.' });
  let result: ScanResult;
  try {
    result = await scan(recheckStart(siteUrl, finding), { ...options, maxPages: 1 }, { ...hooks, checks: [check] });
  } catch (error) {
    // The site could not be reached (or its address is refused): no answer, in the scan's own words.
    if (error instanceof ScanError && error.code !== 'aborted') return done({ status: 'unknown', reason: error.message });
    throw error;
  }
  return done(recheckVerdict(result, check, finding));
}
