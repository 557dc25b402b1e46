import type { Finding } from '../../common/scan';
import { changeSummary, SCAN_HISTORY_TEXTS } from '../../common/scan-history';
import { html, type Html } from '../html-kit';
import { formatDate, SEVERITY_LABELS, sortFindings } from './format';

// What changed since the project's previous scan, as each report format says it: the HTML report's 'Since the
// previous scan' section (N new, N fixed, and which), the JSON report's `sincePrevious`, SARIF's baselineState.

/** The previous completed scan's time and the findings new and fixed since (server/scan-history/changes.ts). */
export interface ReportChanges {
  previousFinishedAt: string;
  added: Finding[];
  fixed: Finding[];
}

/** Findings listed per kind in the HTML section; the count says how many there are in all. */
const LISTED = 50;

/** The HTML report's 'Since the previous scan' section, nothing without changes (a first scan, a scan outside a project). */
export function renderChangesSince(changes: ReportChanges | undefined): Html | null {
  if (!changes) return null;
  // A fixed finding's row is green (gone is good), its badge still says how severe it was.
  const row = (finding: Finding, kind: 'new' | 'fixed') =>
    html`<li class="${kind === 'fixed' ? 'row-passed' : `row-${finding.severity}`}"><span class="badge sev-${finding.severity}">${SEVERITY_LABELS[finding.severity]}</span><div class="what">${
      kind === 'fixed' ? html`<b style="text-decoration:line-through">${finding.title}</b>` : html`<b>${finding.title}</b>`
    }<span>${kind === 'new' ? 'New' : 'Fixed'} · ${finding.url}</span></div></li>`;
  const list = (findings: Finding[], kind: 'new' | 'fixed') => {
    const sorted = sortFindings(findings);
    const more = sorted.length > LISTED ? html`<li><div class="what"><span>and ${sorted.length - LISTED} more</span></div></li>` : null;
    return [...sorted.slice(0, LISTED).map((finding) => row(finding, kind)), more];
  };
  const any = changes.added.length + changes.fixed.length > 0;
  return html`<section id="since-previous"><h2>${SCAN_HISTORY_TEXTS.sinceTitle}</h2>
  <p class="note">Compared with the scan of ${formatDate(changes.previousFinishedAt)}: <b data-testid="since-summary">${changeSummary({ new: changes.added.length, fixed: changes.fixed.length })}</b>.</p>
  ${any ? html`<ul class="rows">${list(changes.added, 'new')}${list(changes.fixed, 'fixed')}</ul>` : html`<p>Nothing new and nothing fixed.</p>`}
</section>`;
}

/** The JSON report's `sincePrevious`: the counts and the fingerprints of what is new and what was fixed. */
export function changesJson(changes: ReportChanges) {
  return {
    previousFinishedAt: changes.previousFinishedAt,
    new: changes.added.length,
    fixed: changes.fixed.length,
    newFingerprints: changes.added.map((finding) => finding.fingerprint),
    fixedFingerprints: changes.fixed.map((finding) => finding.fingerprint),
  };
}

/**
 * A finding of this scan against the previous one: 'new' when the previous scan did not have it, else 'unchanged'
 * (SARIF 2.1.0 §3.27.24's baselineState and the CSV's `change` column). The findings fixed since are 'absent' there.
 * No 'updated': a finding's fingerprint already covers what makes it the same finding, and the diff keeps no more.
 */
export function baselineState(finding: Pick<Finding, 'fingerprint'>, changes: ReportChanges): 'new' | 'unchanged' {
  return changes.added.some((added) => added.fingerprint === finding.fingerprint) ? 'new' : 'unchanged';
}

/** The CSV's comment line above the header: when the previous scan was and what changed since ('N new, N fixed'). */
export function changesLine(changes: ReportChanges): string {
  return `${SCAN_HISTORY_TEXTS.sinceTitle} (${formatDate(changes.previousFinishedAt)}): ${changeSummary({ new: changes.added.length, fixed: changes.fixed.length })}`;
}
