import { plural } from '../../common/plural';
import { IMPACTS, type AccessibilityAuditResult, type Impact, type PageAccessibility, type Violation } from '../../common/audits';
import { html, type Html, type HtmlValue } from '../html-kit';
import { auditPage, hostOf, pathOf, percent, warningsSection } from './audit-page';
import { link } from './document';
import { PRODUCT_NAME, formatDate, formatDuration } from './format';

// The accessibility report: counts by impact, rules violated with their elements per rule, a row per page, and each
// page's violations with the elements axe-core flagged (their markup shown as text).

export const IMPACT_LABELS: Record<Impact, string> = { critical: 'Critical', serious: 'Serious', moderate: 'Moderate', minor: 'Minor' };
/** Impacts wear the security report's severity colours: critical red, serious orange, moderate yellow, minor blue. */
const IMPACT_SEVERITY: Record<Impact, string> = { critical: 'critical', serious: 'high', moderate: 'medium', minor: 'low' };

function impactBadge(impact: Impact): Html {
  return html`<span class="badge sev-${IMPACT_SEVERITY[impact]}">${IMPACT_LABELS[impact]}</span>`;
}

function renderViolation(violation: Violation, pageIndex: number, index: number): Html {
  const nodes = violation.nodes.map(
    (node) =>
      html`<div class="node"><div class="where">${node.target}</div><pre>${node.html}</pre>${node.failureSummary ? html`<div class="why text">${node.failureSummary}</div>` : ''}</div>`,
  );
  const more = violation.nodeCount > violation.nodes.length && html`<p class="note">… and ${violation.nodeCount - violation.nodes.length} more elements.</p>`;
  return html`<article class="finding sev-${IMPACT_SEVERITY[violation.impact]}">
  <header>${impactBadge(violation.impact)}<h3>${violation.help}</h3><span class="ref">${pageIndex + 1}.${index + 1}</span></header>
  <p class="text">${violation.description}</p>
  <p class="note">Rule <span class="mono">${violation.id}</span> · ${plural(violation.nodeCount, 'element')} · ${violation.tags.filter((t) => /^wcag|^best-practice$/.test(t)).join(', ')} · ${link(violation.helpUrl, 'How to fix')}</p>
  ${nodes}${more}
</article>`;
}

function accessibilityPage(p: PageAccessibility, index: number): Html {
  const head = html`<h3>${index + 1}. ${link(p.url)}</h3>`;
  if (p.error && p.passes + p.incomplete + p.violations.length === 0) return html`${head}<p class="text">${p.error}</p>`;
  const summary = html`<p class="note">${plural(p.violations.length, 'rule')} violated, ${p.passes} passed, ${p.incomplete} to review by hand.${p.error ? ` ${p.error}` : ''}</p>`;
  if (p.violations.length === 0) return html`${head}${summary}<p class="empty">No violation found on this page.</p>`;
  return html`${head}${summary}${p.violations.map((v, i) => renderViolation(v, index, i))}`;
}

/** The accessibility report as a self-contained HTML page. */
export function renderAccessibilityHtml(result: AccessibilityAuditResult): string {
  const s = result.summary;
  const host = hostOf(result.target);
  const counts = [
    html`<div class="count ${s.totalIssues ? 'sev-info' : 'passed'}"><b>${s.totalIssues}</b><span>Issues (elements)</span></div>`,
    ...IMPACTS.map((impact) => html`<div class="count sev-${IMPACT_SEVERITY[impact]}"><b>${s.byImpact[impact]}</b><span>${IMPACT_LABELS[impact]}</span></div>`),
  ];
  const maxNodes = Math.max(0, ...s.rules.map((r) => r.nodes));
  const rules = s.rules.length
    ? html`<ul class="rows">${s.rules.map(
        (r) =>
          html`<li class="row-${IMPACT_SEVERITY[r.impact]}">${impactBadge(r.impact)}<div class="what"><b>${r.help}</b><span>${r.id} · on ${plural(r.pages, 'page')}</span></div><span class="n">${plural(r.nodes, 'element')}</span></li>`,
      )}</ul>`
    : html`<ul class="rows"><li class="row-passed"><span class="badge passed">Passed</span><div class="what"><b>No accessibility violation found</b><span>axe-core found nothing to fix on the audited pages; some things still need a manual check.</span></div></li></ul>`;
  const bars =
    s.rules.length > 0 &&
    html`<h3>Elements per rule</h3><div class="bars">${s.rules.map(
      (r) =>
        html`<div class="name mono">${r.id}</div><div class="track"><div class="fill" style="width:${percent(r.nodes, maxNodes)}%;background:var(--${IMPACT_SEVERITY[r.impact] === 'medium' ? 'medium-bar' : IMPACT_SEVERITY[r.impact]})"></div></div><div class="val">${r.nodes}</div>`,
    )}</div>`;
  const rows = result.pages.map(
    (p) =>
      html`<tr><td>${link(p.url, pathOf(p.url))}</td><td class="num">${p.status || '—'}</td><td class="num">${p.violations.length}</td>${IMPACTS.map((i) => html`<td class="num">${p.counts[i]}</td>`)}<td class="num">${p.passes}</td><td class="num">${p.incomplete}</td></tr>`,
  );
  const facts: Array<[string, HtmlValue]> = [
    ['Audit date', formatDate(result.startedAt)],
    ['Duration', formatDuration(result.durationMs)],
    ['Pages', result.pages.length],
    ['Standard', 'WCAG 2.0 and 2.1, A and AA'],
    ['Checker', `axe-core ${result.axeVersion}`],
    ['Browser', result.browser],
  ];
  return auditPage({
    title: `Accessibility report: ${host} (${formatDate(result.startedAt)})`,
    reportName: 'Accessibility Report',
    heading: host,
    target: result.target,
    facts,
    engineVersion: result.engineVersion,
    body: [
      html`<section class="overview" aria-label="Overview"><div class="counts">${counts}</div></section>`,
      html`<section><h2>Summary</h2>${rules}${bars}</section>`,
      html`<section><h2>Pages</h2><div class="table-wrap"><table class="stack"><thead><tr><th>Page</th><th class="num">Status</th><th class="num">Rules</th>${IMPACTS.map((i) => html`<th class="num">${IMPACT_LABELS[i]}</th>`)}<th class="num">Passed</th><th class="num">Review</th></tr></thead><tbody>${rows}</tbody></table></div></section>`,
      html`<section><h2>Violations</h2>${result.pages.map(accessibilityPage)}</section>`,
      warningsSection(result.warnings),
    ],
    footer: html`Generated by ${PRODUCT_NAME} (engine ${result.engineVersion}) with axe-core ${result.axeVersion} (tags ${result.tags.join(', ')}) on ${formatDate(result.finishedAt)}. Automated rules find roughly a third to a half of WCAG issues; keyboard use, screen readers and content still need a manual review.`,
  });
}
