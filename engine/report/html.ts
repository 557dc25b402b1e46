import { fixPrompt } from '../../common/fix-prompt';
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
  owaspLabel,
  sortFindings,
  suppressedHeading,
  targetHost,
} from './format';
import { html, join, type Html, type HtmlValue } from '../html-kit';
import { link, reportDocument } from './document';
import { SECURITY_REPORT_STYLE } from './styles';
import { renderChangesSince, type ReportChanges } from './changes';

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

function renderCover(result: ScanResult): Html {
  const { status, browser, reason } = result.rendering;
  const rendering = status === 'done' ? html`Done${browser ? html` (${browser})` : ''}` : html`${status === 'skipped' ? 'Skipped' : 'Failed'}${reason ? html`: ${reason}` : ''}`;
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

/**
 * 'Copy fix prompt' in a report that runs no script (its CSP allows none): the prompt in a block that one click
 * selects whole (user-select: all), to copy into an AI coding tool.
 */
function renderFixPrompt(prompt: string): Html {
  return html`<details class="fix-prompt"><summary>Copy fix prompt</summary>
  <p>Click the text to select it all, copy it, and paste it into your AI coding tool (Lovable, Bolt, v0, Cursor).</p>
  <pre>${prompt}</pre></details>`;
}

function renderFinding(finding: Finding, ref: string, anchor: string, prompt: string): Html {
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
  ${renderFixPrompt(prompt)}
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
      html`<h3>${SEVERITY_LABELS[severity]} (${findings.length})</h3>${findings.map((f) => renderFinding(f, refs.get(f)!, anchors.get(f)!, fixPrompt(result, f)))}`,
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
    parts.push(
      html`<h3>Hosts that rate limited the scan</h3>${coverageTable(
        ['Host', 'Answers asking to slow down'],
        limited.items.map((h) => [h.host, h.answers]),
      )}${andMore(limited.more)}`,
    );
  }
  if (coverage.checksSkipped.length) {
    parts.push(
      html`<h3>Checks skipped</h3>${coverageTable(
        ['Check', 'Reason'],
        coverage.checksSkipped.map((c) => [html`<span class="mono">${c.checkId}</span>`, c.reason]),
      )}`,
    );
  }
  return html`<section id="coverage"><h2>Coverage</h2><p class="note">What the scan could and could not check.</p>${parts}</section>`;
}

function renderWarnings(result: ScanResult): HtmlValue {
  if (result.warnings.length === 0) return '';
  return html`<section><h2>Warnings</h2><p class="note">Problems that did not stop the scan but may have hidden issues.</p><ul class="warnings">${result.warnings.map((w) => html`<li>${w}</li>`)}</ul></section>`;
}

/** A self-contained, printable HTML report: inline CSS, no scripts, no external requests, every dynamic text escaped. */
/** `changes`: what changed since the project's previous scan (the 'Since the previous scan' section); none for a first scan. */
export function renderHtml(result: ScanResult, changes?: ReportChanges): string {
  const anchors = new Map<Finding, string>();
  const refs = new Map<Finding, string>();
  sortFindings(result.findings).forEach((f, i) => {
    anchors.set(f, findingAnchor(f, i));
    refs.set(f, `#${String(i + 1).padStart(2, '0')}`);
  });
  return reportDocument({
    title: `Security report: ${targetHost(result)} (${formatDate(result.startedAt)})`,
    generator: `${PRODUCT_NAME} ${result.engineVersion}`,
    style: SECURITY_REPORT_STYLE,
    main: html`${join(
      [
        renderCover(result),
        renderOverview(result),
        renderChangesSince(changes),
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
<footer class="foot">Generated by ${PRODUCT_NAME} (engine ${result.engineVersion}) on ${formatDate(result.finishedAt)}. An automated scan finds many common issues but not all of them; it complements, and does not replace, a manual security review.</footer>`,
  });
}
