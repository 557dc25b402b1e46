// The words every report, the CLI and the dashboard use for a scan's coverage, written once so "nothing found" reads
// the same everywhere and is never confused with "nothing could be checked".
import type { CoverageBackend, ScanCoverage } from './scan';
import { plural } from './plural';

const BACKEND_NAMES: Record<CoverageBackend['kind'], string> = { supabase: 'Supabase project', firebase: 'Firebase project', api: 'API' };

/** "Supabase project https://x.supabase.co", "API https://api.example.com". */
export function backendLabel(backend: CoverageBackend): string {
  return `${BACKEND_NAMES[backend.kind]} ${backend.target}`;
}

/** A backend that should have been checked and was not: a Supabase or Firebase project, or an API whose every request failed. */
export function backendNotChecked(backend: CoverageBackend): boolean {
  if (backend.checked) return false;
  return backend.kind !== 'api' || backend.requests > 0;
}

/** One line of what was fetched and rendered: "12 pages and 30 scripts fetched; 3 pages rendered in a browser". */
export function coverageFacts(coverage: ScanCoverage): string {
  const parts: string[] = [];
  if (coverage.fetched) {
    const failed = coverage.fetched.scriptsFailed ? ` (${coverage.fetched.scriptsFailed} without an answer)` : '';
    parts.push(`${plural(coverage.fetched.pages, 'page')} and ${plural(coverage.fetched.scripts, 'script')}${failed} fetched`);
  }
  if (coverage.rendering) {
    parts.push(coverage.rendering.ran ? `${plural(coverage.rendering.pages, 'page')} rendered in a browser` : 'nothing rendered in a browser');
  }
  const backends = coverage.backends;
  if (backends && backends.items.length) {
    const checked = backends.items.filter((b) => b.checked).length;
    parts.push(`${plural(backends.items.length + backends.more, 'backend')} found, ${checked} checked`);
  }
  const given = (coverage.signIns ?? []).filter((line) => !line.throwaway);
  if (given.length) parts.push(`signed in as ${given.filter((line) => line.signedIn).length} of ${plural(given.length, 'test account')}`);
  if (coverage.checksSkipped.length) parts.push(`${plural(coverage.checksSkipped.length, 'check')} skipped`);
  return parts.join('; ');
}

function more(count: number): string {
  return count > 0 ? ` and ${count} more` : '';
}

/**
 * What could not be checked, as plain sentences, most serious first: backends that could not be reached, a
 * single-page app nothing rendered, test accounts that could not sign in, pages behind a login (when no test account
 * signed in), hosts that rate limited the scan, skipped checks.
 * Empty when everything found could be checked.
 */
export function coverageGaps(coverage: ScanCoverage | undefined): string[] {
  if (!coverage) return [];
  const gaps: string[] = [];
  const backends = coverage.backends?.items ?? [];
  for (const backend of backends.filter(backendNotChecked)) {
    gaps.push(`The ${backendLabel(backend)} could not be checked${backend.reason ? `: ${backend.reason}` : ''}. Its data was not tested.`);
  }
  const rendering = coverage.rendering;
  if (rendering && !rendering.ran && rendering.singlePageApp) {
    gaps.push(
      `Nothing was rendered in a browser${rendering.reason ? ` (${rendering.reason})` : ''}, and this site builds its pages with JavaScript: what its pages load and call at run time was not checked.`,
    );
  }
  const given = (coverage.signIns ?? []).filter((line) => !line.throwaway);
  for (const line of given.filter((entry) => !entry.signedIn)) {
    gaps.push(
      `The test account ${line.account} could not sign in${line.reason ? `: ${line.reason.replace(/\.$/, '')}` : ''}. What only a signed-in user reaches was not checked as that account.`,
    );
  }
  const login = coverage.loginRequired;
  // Pages behind the login were read signed in when a test account signed in: no gap then.
  if (login && login.items.length && !given.some((line) => line.signedIn)) {
    const urls = login.items.slice(0, 3).map((page) => page.url);
    const total = login.items.length + login.more;
    gaps.push(`${plural(total, 'page')} ${total === 1 ? 'needs a login and was' : 'need a login and were'} not checked signed in: ${urls.join(', ')}${more(total - urls.length)}.`);
  }
  const limited = coverage.rateLimited;
  if (limited && limited.items.length) {
    const hosts = limited.items.slice(0, 3).map((entry) => entry.host);
    gaps.push(
      `${plural(limited.items.length + limited.more, 'host')} rate limited the scan, so some requests may have gone unanswered: ${hosts.join(', ')}${more(limited.items.length + limited.more - hosts.length)}.`,
    );
  }
  if (coverage.checksSkipped.length) {
    const ids = coverage.checksSkipped.slice(0, 3).map((skipped) => `${skipped.checkId} (${skipped.reason})`);
    gaps.push(`${plural(coverage.checksSkipped.length, 'check')} did not run: ${ids.join(', ')}${more(coverage.checksSkipped.length - ids.length)}.`);
  }
  return gaps;
}

/** True when something the app depends on could not be checked: an empty result then does not mean a safe site. */
export function coverageIncomplete(coverage: ScanCoverage | undefined): boolean {
  if (!coverage) return false;
  const unreachable = (coverage.backends?.items ?? []).some(backendNotChecked);
  const spaUnrendered = coverage.rendering !== undefined && !coverage.rendering.ran && coverage.rendering.singlePageApp;
  return unreachable || spaUnrendered;
}
