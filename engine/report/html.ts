import type { Finding, Grade, ScanResult, Severity } from '../../common/scan';
import { DECISION_LABELS } from '../../common/triage';
import { SEVERITIES } from '../../common/scan';
import { plural } from '../../common/plural';
import { backendLabel, coverageFacts, coverageGaps, coverageIncomplete } from '../../common/scan-coverage';
import {
  PASSED_LABEL,
  PRODUCT_NAME,
  SECURE_ROW_TITLE,
  SEVERITY_LABELS,
  countBySeverity,
  cweLabel,
  cweUrl,
  formatBytes,
  formatDate,
  formatDuration,
  groupBySeverity,
  isWebUrl,
  owaspLabel,
  sortFindings,
  suppressedHeading,
  targetHost,
} from './format';
import { html, join, raw, type Html, type HtmlValue } from '../html-kit';

/** The report's own policy: no scripts, no network, inline styles only (findings carry text from scanned sites). */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** A link for http(s) URLs, plain text for anything else (javascript:, data:, relative paths). */
function link(url: string, text: string = url): Html {
  return isWebUrl(url) ? html`<a href="${url}" rel="noopener noreferrer nofollow">${text}</a>` : html`${text}`;
}

function gradeClass(grade: Grade): string {
  return `grade-${grade[0]!.toLowerCase()}`;
}

function badge(severity: Severity): Html {
  return html`<span class="badge sev-${severity}">${SEVERITY_LABELS[severity]}</span>`;
}

const passedBadge = (label: string = PASSED_LABEL) => html`<span class="badge passed">${label}</span>`;

function findingAnchor(finding: Finding, index: number): string {
  return `f-${index + 1}-${finding.fingerprint}`;
}

const STYLE = `
:root {
  --ink: #0f172a; --muted: #475569; --faint: #64748b; --line: #e2e8f0; --paper: #ffffff; --bg: #f1f5f9; --brand: #4338ca;
  --critical: #b91c1c; --critical-bg: #fee2e2; --high: #c2410c; --high-bg: #ffedd5;
  --medium: #854d0e; --medium-bg: #fef08a; --medium-bar: #eab308; --low: #1d4ed8; --low-bg: #dbeafe;
  --info: #475569; --info-bg: #e2e8f0; --pass: #15803d; --pass-bg: #dcfce7;
}
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.55 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
a { color: var(--brand); overflow-wrap: anywhere; }
.report { max-width: 960px; margin: 0 auto; background: var(--paper); }
section { padding: 20px 32px; }
h1, h2, h3, h4 { line-height: 1.25; margin: 0; }
h2 { font-size: 19px; padding-bottom: 8px; margin-bottom: 14px; border-bottom: 2px solid var(--ink); break-after: avoid; page-break-after: avoid; }
h3 { font-size: 15px; margin: 20px 0 10px; break-after: avoid; page-break-after: avoid; }
h4 { font-size: 11px; letter-spacing: .08em; text-transform: uppercase; color: var(--faint); margin: 14px 0 4px; }
.cover { background: #0f172a; color: #f8fafc; padding: 28px 32px 24px; }
.brand { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; font-size: 12px; letter-spacing: .12em; text-transform: uppercase; color: #a5b4fc; }
.brand strong { font-size: 16px; letter-spacing: .02em; text-transform: none; color: #fff; }
.cover h1 { font-size: 28px; margin: 18px 0 4px; overflow-wrap: anywhere; }
.cover .target { margin: 0; color: #cbd5e1; overflow-wrap: anywhere; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.meta { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px 20px; margin: 22px 0 0; padding-top: 16px; border-top: 1px solid #334155; }
.meta div { min-width: 0; }
.meta dt { font-size: 11px; letter-spacing: .08em; text-transform: uppercase; color: #94a3b8; }
.meta dd { margin: 2px 0 0; font-weight: 600; overflow-wrap: anywhere; }
.overview { padding-top: 24px; }
.scores { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 16px; margin-bottom: 16px; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 16px; display: flex; gap: 16px; align-items: center; break-inside: avoid; }
.grade { flex: none; width: 72px; height: 72px; border-radius: 50%; display: grid; place-items: center; font-size: 30px; font-weight: 800; color: #fff; }
.grade-a { background: #15803d; } .grade-b { background: #65a30d; } .grade-c { background: #ca8a04; } .grade-d { background: #ea580c; } .grade-f { background: #b91c1c; }
.card .label { font-size: 11px; letter-spacing: .08em; text-transform: uppercase; color: var(--faint); }
.card .value { font-size: 24px; font-weight: 700; }
.card .value small { font-size: 14px; color: var(--faint); font-weight: 500; }
.card p { margin: 2px 0 0; color: var(--muted); font-size: 12.5px; }
.counts { display: grid; grid-template-columns: repeat(auto-fit, minmax(110px, 1fr)); gap: 10px; }
.count { border-radius: 8px; padding: 10px 12px; border-left: 5px solid; break-inside: avoid; }
.count b { display: block; font-size: 24px; line-height: 1.1; }
.count span { font-size: 12px; font-weight: 600; }
.count.sev-critical { background: var(--critical-bg); border-color: var(--critical); color: var(--critical); }
.count.sev-high { background: var(--high-bg); border-color: var(--high); color: var(--high); }
.count.sev-medium { background: #fef9c3; border-color: var(--medium-bar); color: var(--medium); }
.count.sev-low { background: var(--low-bg); border-color: var(--low); color: var(--low); }
.count.sev-info { background: #f1f5f9; border-color: var(--info); color: var(--info); }
.badge { display: inline-block; flex: none; border-radius: 999px; padding: 2px 10px; font-size: 11.5px; font-weight: 700; white-space: nowrap; }
.badge.sev-critical { background: var(--critical); color: #fff; }
.badge.sev-high { background: var(--high); color: #fff; }
.badge.sev-medium { background: var(--medium-bar); color: #422006; }
.badge.sev-low { background: var(--low); color: #fff; }
.badge.sev-info { background: var(--info-bg); color: var(--info); }
.badge.passed { background: var(--pass); color: #fff; }
.badge.fail { background: var(--critical-bg); color: var(--critical); }
.rows { list-style: none; margin: 0; padding: 0; }
.rows li { display: flex; align-items: center; gap: 12px; padding: 9px 12px; margin-bottom: 6px; border-radius: 8px; border-left: 5px solid; break-inside: avoid; }
.rows li .what { flex: 1; min-width: 0; }
.rows .badge { min-width: 92px; text-align: center; }
.rows.compact { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 6px 10px; }
.rows.compact li { margin-bottom: 0; }
.rows.compact .badge { min-width: 0; }
.rows li .what b { display: block; font-weight: 600; }
.rows li .what span { display: block; color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.rows a { color: inherit; text-decoration: none; }
.rows .row-critical { background: var(--critical-bg); border-color: var(--critical); }
.rows .row-high { background: var(--high-bg); border-color: var(--high); }
.rows .row-medium { background: #fef9c3; border-color: var(--medium-bar); }
.rows .row-low { background: var(--low-bg); border-color: var(--low); }
.rows .row-info { background: #f8fafc; border-color: var(--info); }
.rows .row-passed { background: var(--pass-bg); border-color: var(--pass); }
.finding { border: 1px solid var(--line); border-left: 6px solid; border-radius: 10px; padding: 14px 18px 16px; margin-bottom: 14px; break-inside: avoid; page-break-inside: avoid; }
.finding.sev-critical { border-left-color: var(--critical); } .finding.sev-high { border-left-color: var(--high); }
.finding.sev-medium { border-left-color: var(--medium-bar); } .finding.sev-low { border-left-color: var(--low); } .finding.sev-info { border-left-color: var(--info); }
.finding > header { display: flex; gap: 10px; align-items: flex-start; flex-wrap: wrap; }
.finding > header h3 { margin: 0; flex: 1 1 240px; font-size: 16px; }
.finding .ref { font: 600 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--faint); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 12px 0 0; font-size: 13px; }
.facts dt { color: var(--faint); }
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.text { white-space: pre-line; margin: 0; overflow-wrap: anywhere; }
.detail { margin-top: 10px; }
pre { margin: 0 0 8px; padding: 10px 12px; background: #0f172a; color: #e2e8f0; border-radius: 6px; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word; max-height: 28em; overflow: auto; }
pre.match { background: #fefce8; color: #713f12; border: 1px solid #fde047; }
.ev-label { font-size: 11px; font-weight: 600; color: var(--muted); margin: 6px 0 3px; }
.remediation { background: var(--pass-bg); border-radius: 6px; padding: 10px 12px; }
.refs { margin: 0; padding-left: 18px; font-size: 13px; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; font-size: 11px; letter-spacing: .06em; text-transform: uppercase; color: var(--faint); border-bottom: 2px solid var(--line); padding: 6px 8px; }
td { border-bottom: 1px solid var(--line); padding: 7px 8px; vertical-align: top; overflow-wrap: anywhere; }
tr { break-inside: avoid; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td code, .mono { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.note { color: var(--muted); font-size: 13px; margin: 0 0 12px; }
.empty { color: var(--muted); font-style: italic; }
.warnings li { margin-bottom: 4px; overflow-wrap: anywhere; }
.gaps { background: #fef9c3; border-left: 5px solid var(--medium-bar); border-radius: 8px; padding: 10px 14px 10px 30px; margin: 0 0 14px; color: #422006; }
.gaps li { margin: 2px 0; overflow-wrap: anywhere; }
.complete { background: var(--pass-bg); border-left: 5px solid var(--pass); border-radius: 8px; padding: 10px 14px; margin: 0 0 14px; }
.badge.not-checked { background: #fef08a; color: #422006; }
.foot { padding: 18px 32px 28px; color: var(--faint); font-size: 12px; border-top: 1px solid var(--line); }
@media (max-width: 600px) {
  body { font-size: 13.5px; }
  section, .cover, .foot { padding-left: 16px; padding-right: 16px; }
  .cover h1 { font-size: 22px; }
  .finding { padding: 12px 12px 14px; }
  .facts { grid-template-columns: 1fr; }
  .facts dd { margin-bottom: 6px; }
  .rows li { flex-wrap: wrap; gap: 6px 10px; }
  table.stack thead { display: none; }
  table.stack tr { display: block; border-bottom: 1px solid var(--line); padding: 6px 0; }
  table.stack td { display: block; border: 0; padding: 2px 0; text-align: left; }
}
@page { size: A4; }
@media print {
  body { background: #fff; font-size: 12px; }
  .report { max-width: none; }
  section { padding: 14px 0; }
  .cover { padding: 22px 24px 18px; border-radius: 8px; }
  .foot { padding: 12px 0 0; }
  pre { max-height: none; overflow: visible; }
  .table-wrap { overflow: visible; }
  a { text-decoration: none; }
  h2 { break-before: auto; }
  .findings-section { break-before: page; }
}
`;

function renderCover(result: ScanResult): Html {
  const { status, browser, reason } = result.rendering;
  const rendering =
    status === 'done' ? html`Done${browser ? html` (${browser})` : ''}` : html`${status === 'skipped' ? 'Skipped' : 'Failed'}${reason ? html`: ${reason}` : ''}`;
  const facts: Array<[string, HtmlValue]> = [
    ['Scan date', formatDate(result.startedAt)],
    ['Duration', formatDuration(result.durationMs)],
    ['Pages scanned', result.pages.length],
    ['Requests', html`${result.stats.requests} (${formatBytes(result.stats.bytes)})`],
    ['Mode', result.options.active ? 'Active probes' : 'Passive (read-only)'],
    ['Rendering', rendering],
    ['Engine version', result.engineVersion],
  ];
  const finalDiffers = result.target.finalUrl && result.target.finalUrl !== result.target.url;
  return html`<header class="cover">
  <div class="brand"><strong>${PRODUCT_NAME}</strong><span>Security Scan Report</span></div>
  <h1>${targetHost(result)}</h1>
  <p class="target">${result.target.url}${finalDiffers ? html` &rarr; ${result.target.finalUrl}` : ''}</p>
  <dl class="meta">${facts.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>
</header>`;
}

function renderOverview(result: ScanResult): Html {
  const counts = countBySeverity(result);
  const headerFailed = result.headers.tests.filter((t) => !t.pass).length;
  return html`<section class="overview" aria-label="Overview">
  <div class="scores">
  <div class="card">
    <div class="grade ${gradeClass(result.grade)}" aria-label="Overall grade">${result.grade}</div>
    <div><div class="label">Overall security score</div><div class="value">${result.score}<small> / 100</small></div>
    <p>From ${plural(result.findings.length, 'finding')} and ${plural(result.passed.length, 'passed check')}${suppressedNote(result)}.</p></div>
  </div>
  <div class="card">
    <div class="grade ${gradeClass(result.headers.grade)}" aria-label="Header grade">${result.headers.grade}</div>
    <div><div class="label">HTTP header grade</div><div class="value">${result.headers.score}<small> points</small></div>
    <p>HTTP Observatory-compatible: ${result.headers.tests.length - headerFailed} of ${result.headers.tests.length} tests passed.</p></div>
  </div>
  </div>
  <div class="counts">${SEVERITIES.map((s) => html`<div class="count sev-${s}"><b>${counts[s]}</b><span>${SEVERITY_LABELS[s]}</span></div>`)}</div>
</section>`;
}

function renderSummary(result: ScanResult, anchors: Map<Finding, string>): Html {
  const rows = sortFindings(result.findings).map(
    (f) => html`<li class="row-${f.severity}">${badge(f.severity)}<a class="what" href="#${anchors.get(f)}"><b>${f.title}</b><span>${f.url}</span></a></li>`,
  );
  const secure = result.passed.length;
  rows.push(
    html`<li class="row-passed">${passedBadge()}<div class="what"><b>${SECURE_ROW_TITLE}</b><span>${plural(secure, 'secure component')} checked with no issue found</span></div></li>`,
  );
  return html`<section><h2>Summary</h2><ul class="rows">${rows}</ul></section>`;
}

function renderEvidence(finding: Finding): HtmlValue {
  const { request, response, match } = finding.evidence;
  const parts = [
    request && html`<div class="ev-label">Request</div><pre>${request}</pre>`,
    response && html`<div class="ev-label">Response</div><pre>${response}</pre>`,
    match && html`<div class="ev-label">Match</div><pre class="match">${match}</pre>`,
  ];
  return parts.some(Boolean) && html`<h4>Evidence</h4>${parts}`;
}

function renderFinding(finding: Finding, ref: string, anchor: string): Html {
  const facts: Array<[string, HtmlValue]> = [
    ['URL', link(finding.url)],
    ['Check', html`<span class="mono">${finding.checkId}</span>`],
    ['Confidence', finding.confidence[0]!.toUpperCase() + finding.confidence.slice(1)],
    ['CWE', finding.cwe === null ? html`&mdash;` : link(cweUrl(finding.cwe), cweLabel(finding.cwe))],
    ['OWASP', owaspLabel(finding.owasp)],
  ];
  const refs = finding.references.length > 0 && html`<h4>References</h4><ul class="refs">${finding.references.map((r) => html`<li>${link(r)}</li>`)}</ul>`;
  return html`<article class="finding sev-${finding.severity}" id="${anchor}">
  <header>${badge(finding.severity)}<h3>${finding.title}</h3><span class="ref">${ref}</span></header>
  <dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
  <h4>Detail</h4><p class="text">${finding.detail}</p>
  ${renderEvidence(finding)}
  <h4>Remediation</h4><p class="text remediation">${finding.remediation}</p>
  ${refs}
</article>`;
}

function renderFindings(result: ScanResult, anchors: Map<Finding, string>, refs: Map<Finding, string>): Html {
  if (result.findings.length === 0) {
    const empty = coverageIncomplete(result.coverage)
      ? html`No issues were found on what could be checked, but not everything could be checked: see <a href="#coverage">Coverage</a>.`
      : 'No issues were found on the scanned pages.';
    return html`<section class="findings-section"><h2>Findings</h2><p class="empty">${empty}</p></section>`;
  }
  const groups = groupBySeverity(result.findings).map(
    ({ severity, findings }) =>
      html`<h3>${SEVERITY_LABELS[severity]} (${findings.length})</h3>${findings.map((f) => renderFinding(f, refs.get(f)!, anchors.get(f)!))}`,
  );
  return html`<section class="findings-section"><h2>Findings</h2>${groups}</section>`;
}

function suppressedNote(result: ScanResult): HtmlValue {
  const count = result.suppressed?.length ?? 0;
  return count > 0 && html`; <a href="#suppressed">${count} suppressed</a> left out`;
}

/** Findings a person marked as false positive or accepted risk: their own section, each with the decision and why. */
function renderSuppressed(result: ScanResult): HtmlValue {
  const suppressed = sortFindings(result.suppressed ?? []);
  if (suppressed.length === 0) return '';
  const rows = suppressed.map((f): HtmlValue[] => [
    badge(f.severity),
    html`<b>${f.title}</b><br><span class="note">${link(f.url)}</span>`,
    DECISION_LABELS[f.suppression.decision],
    html`<span class="text">${f.suppression.reason}</span>`,
    f.suppression.expires_at ? formatDate(f.suppression.expires_at) : html`&mdash;`,
  ]);
  return html`<section id="suppressed"><h2>${suppressedHeading(suppressed.length)}</h2>
  <p class="note">Findings marked as false positive or accepted risk: left out of the score, the grade and the counts.</p>
  ${coverageTable(['Severity', 'Finding', 'Decision', 'Reason', 'Expires'], rows)}
</section>`;
}

function renderHeaderTests(result: ScanResult): HtmlValue {
  if (result.headers.tests.length === 0) return '';
  const rows = result.headers.tests.map(
    (t) =>
      html`<tr><td><b>${t.test}</b><br><code>${t.result}</code></td><td>${t.pass ? passedBadge() : html`<span class="badge fail">Failed</span>`}</td><td class="num">${t.scoreModifier > 0 ? '+' : ''}${t.scoreModifier}</td><td>${t.description}</td></tr>`,
  );
  return html`<section><h2>HTTP security headers</h2>
  <p class="note">Scored like the Mozilla HTTP Observatory on the start page: ${result.headers.score} points, grade ${result.headers.grade}.</p>
  <div class="table-wrap"><table class="stack"><thead><tr><th>Test</th><th>Result</th><th>Score</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table></div>
</section>`;
}

function renderPassed(result: ScanResult): Html {
  const body = result.passed.length
    ? html`<ul class="rows compact">${result.passed.map((p) => html`<li class="row-passed">${passedBadge()}<div class="what"><b>${p.title}</b><span>${p.checkId}</span></div></li>`)}</ul>`
    : html`<p class="empty">No check passed.</p>`;
  return html`<section><h2>Secure components</h2><p class="note">Checks that ran and found no issue.</p>${body}</section>`;
}

function renderPages(result: ScanResult): Html {
  const sources: Record<string, string> = { start: 'Start URL', link: 'Link', sitemap: 'Sitemap', robots: 'robots.txt', render: 'Browser' };
  const rows = result.pages.map(
    (p) =>
      html`<tr><td>${link(p.url)}${p.title ? html`<br><span class="note">${p.title}</span>` : ''}</td><td class="num">${p.status}</td><td>${sources[p.source] ?? p.source}</td><td class="num">${p.depth}</td></tr>`,
  );
  const body = rows.length
    ? html`<div class="table-wrap"><table class="stack"><thead><tr><th>Page</th><th>Status</th><th>Found via</th><th>Depth</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : html`<p class="empty">No page was retrieved.</p>`;
  return html`<section><h2>Pages scanned (${result.pages.length})</h2>${body}</section>`;
}

function coverageTable(head: string[], rows: HtmlValue[][]): Html {
  const body = rows.map((cells) => html`<tr>${cells.map((cell) => html`<td>${cell}</td>`)}</tr>`);
  return html`<div class="table-wrap"><table class="stack"><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function andMore(count: number): HtmlValue {
  return count > 0 && html`<p class="note">and ${count} more</p>`;
}

/** What was and was not checked: the gaps in plain words first, then backends, login walls, rate limits, skipped checks. */
function renderCoverage(result: ScanResult): HtmlValue {
  const coverage = result.coverage;
  if (!coverage) return '';
  const gaps = coverageGaps(coverage);
  const parts: HtmlValue[] = [
    gaps.length
      ? html`<ul class="gaps" aria-label="Not checked">${gaps.map((gap) => html`<li>${gap}</li>`)}</ul>`
      : html`<p class="complete">Everything the scan found could be checked.</p>`,
  ];
  const facts = coverageFacts(coverage);
  if (facts) parts.push(html`<p class="note">${facts}.</p>`);
  const backends = coverage.backends;
  if (backends?.items.length) {
    const rows = backends.items.map((b) => [
      backendLabel(b),
      b.checked ? passedBadge('Checked') : html`<span class="badge not-checked">Not checked</span>`,
      b.requests,
      b.reason ?? '',
    ]);
    parts.push(html`<h3>Backends</h3>${coverageTable(['Backend', 'Status', 'Requests', 'Note'], rows)}${andMore(backends.more)}`);
  }
  const signIns = coverage.signIns ?? [];
  if (signIns.length) {
    const rows = signIns.map((s) => [s.account, s.signedIn ? 'Signed in' : 'Not signed in', s.method ?? '', s.reason ?? '']);
    parts.push(html`<h3>Sign-ins</h3>${coverageTable(['Account', 'Status', 'Method', 'Note'], rows)}`);
  }
  const login = coverage.loginRequired;
  if (login?.items.length) {
    const rows = login.items.map((p) => [link(p.url), p.status, p.redirectedTo ? link(p.redirectedTo) : html`&mdash;`]);
    parts.push(html`<h3>Pages that need a login</h3>${coverageTable(['Page', 'Status', 'Redirected to'], rows)}${andMore(login.more)}`);
  }
  const limited = coverage.rateLimited;
  if (limited?.items.length) {
    parts.push(html`<h3>Hosts that rate limited the scan</h3>${coverageTable(['Host', 'Answers asking to slow down'], limited.items.map((h) => [h.host, h.answers]))}${andMore(limited.more)}`);
  }
  if (coverage.checksSkipped.length) {
    parts.push(html`<h3>Checks skipped</h3>${coverageTable(['Check', 'Reason'], coverage.checksSkipped.map((c) => [html`<span class="mono">${c.checkId}</span>`, c.reason]))}`);
  }
  return html`<section id="coverage"><h2>Coverage</h2><p class="note">What the scan could and could not check.</p>${parts}</section>`;
}

function renderWarnings(result: ScanResult): HtmlValue {
  if (result.warnings.length === 0) return '';
  return html`<section><h2>Warnings</h2><p class="note">Problems that did not stop the scan but may have hidden issues.</p><ul class="warnings">${result.warnings.map((w) => html`<li>${w}</li>`)}</ul></section>`;
}

/** A self-contained, printable HTML report: inline CSS, no scripts, no external requests, every dynamic text escaped. */
export function renderHtml(result: ScanResult): string {
  const anchors = new Map<Finding, string>();
  const refs = new Map<Finding, string>();
  sortFindings(result.findings).forEach((f, i) => {
    anchors.set(f, findingAnchor(f, i));
    refs.set(f, `#${String(i + 1).padStart(2, '0')}`);
  });
  const host = targetHost(result);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${raw(REPORT_CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${PRODUCT_NAME} ${result.engineVersion}">
<title>Security report: ${host} (${formatDate(result.startedAt)})</title>
<style>${raw(STYLE)}</style>
</head>
<body>
<main class="report">
${join(
  [
    renderCover(result),
    renderOverview(result),
    renderCoverage(result),
    renderSummary(result, anchors),
    renderFindings(result, anchors, refs),
    renderSuppressed(result),
    renderHeaderTests(result),
    renderPassed(result),
    renderPages(result),
    renderWarnings(result),
  ],
  '\n',
)}
<footer class="foot">Generated by ${PRODUCT_NAME} (engine ${result.engineVersion}) on ${formatDate(result.finishedAt)}. An automated scan finds many common issues but not all of them; it complements, and does not replace, a manual security review.</footer>
</main>
</body>
</html>
`.toString();
}
