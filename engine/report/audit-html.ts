import { plural } from '../../common/plural';
import {
  IMPACTS,
  METRIC_LABELS,
  METRIC_THRESHOLDS,
  RATED_METRICS,
  accessibilityAuditSchema,
  analyticsSchema,
  performanceAuditSchema,
  type AccessibilityAuditResult,
  type AnalyticsResult,
  type AuditKind,
  type Impact,
  type PageAccessibility,
  type PagePerformance,
  type PerformanceAuditResult,
  type Rating,
  type RatedMetric,
  type Violation,
} from '../../common/audits';
import { csvField } from './csv';
import { PRODUCT_NAME, formatBytes, formatDate, formatDuration, isWebUrl } from './format';
import { html, join, raw, type Html, type HtmlValue } from '../html-kit';
import { REPORT_CSP } from './html';

// The performance, accessibility and analytics reports: siblings of the security report (html.ts), same look,
// same rules: one self-contained file, strict CSP, no scripts, every text from a scanned site escaped.

export const AUDIT_REPORT_FORMATS = ['html', 'json', 'csv'] as const;
export type AuditReportFormat = (typeof AUDIT_REPORT_FORMATS)[number];

export const RATING_LABELS: Record<Rating, string> = { good: 'Good', 'needs-improvement': 'Needs improvement', poor: 'Poor' };
export const IMPACT_LABELS: Record<Impact, string> = { critical: 'Critical', serious: 'Serious', moderate: 'Moderate', minor: 'Minor' };
/** Impacts wear the security report's severity colours: critical red, serious orange, moderate yellow, minor blue. */
const IMPACT_SEVERITY: Record<Impact, string> = { critical: 'critical', serious: 'high', moderate: 'medium', minor: 'low' };

/** html.ts keeps its stylesheet private, so the shared part is repeated here (cover, cards, counts, badges, tables) plus charts. */
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
h3 { font-size: 15px; margin: 20px 0 10px; break-after: avoid; page-break-after: avoid; overflow-wrap: anywhere; }
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
.counts { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 10px; }
.count { border-radius: 8px; padding: 10px 12px; border-left: 5px solid; break-inside: avoid; min-width: 0; }
.count b { display: block; font-size: 24px; line-height: 1.1; overflow-wrap: anywhere; }
.count span { font-size: 12px; font-weight: 600; }
.count.sev-critical { background: var(--critical-bg); border-color: var(--critical); color: var(--critical); }
.count.sev-high { background: var(--high-bg); border-color: var(--high); color: var(--high); }
.count.sev-medium { background: #fef9c3; border-color: var(--medium-bar); color: var(--medium); }
.count.sev-low { background: var(--low-bg); border-color: var(--low); color: var(--low); }
.count.sev-info { background: #f1f5f9; border-color: var(--info); color: var(--info); }
.count.passed { background: var(--pass-bg); border-color: var(--pass); color: var(--pass); }
.badge { display: inline-block; flex: none; border-radius: 999px; padding: 2px 10px; font-size: 11.5px; font-weight: 700; white-space: nowrap; }
.badge.sev-critical, .badge.rate-poor { background: var(--critical); color: #fff; }
.badge.sev-high { background: var(--high); color: #fff; }
.badge.sev-medium, .badge.rate-needs-improvement { background: var(--medium-bar); color: #422006; }
.badge.sev-low { background: var(--low); color: #fff; }
.badge.sev-info, .badge.rate-none { background: var(--info-bg); color: var(--info); }
.badge.passed, .badge.rate-good { background: var(--pass); color: #fff; }
.metrics { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 12px; margin-bottom: 16px; }
.metric { border: 1px solid var(--line); border-top: 5px solid var(--info); border-radius: 10px; padding: 12px 14px; break-inside: avoid; }
.metric.rate-good { border-top-color: var(--pass); } .metric.rate-needs-improvement { border-top-color: var(--medium-bar); } .metric.rate-poor { border-top-color: var(--critical); }
.metric .label { font-size: 11px; letter-spacing: .08em; text-transform: uppercase; color: var(--faint); }
.metric .value { font-size: 26px; font-weight: 700; margin: 2px 0 4px; }
.metric p { margin: 6px 0 0; color: var(--muted); font-size: 12px; }
.rows { list-style: none; margin: 0; padding: 0; }
.rows li { display: flex; align-items: center; gap: 12px; padding: 9px 12px; margin-bottom: 6px; border-radius: 8px; border-left: 5px solid; break-inside: avoid; }
.rows li .what { flex: 1; min-width: 0; }
.rows .badge { min-width: 92px; text-align: center; }
.rows li .what b { display: block; font-weight: 600; }
.rows li .what span { display: block; color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.rows li .n { font-weight: 700; font-variant-numeric: tabular-nums; white-space: nowrap; }
.rows a { color: inherit; text-decoration: none; }
.rows .row-critical { background: var(--critical-bg); border-color: var(--critical); }
.rows .row-high { background: var(--high-bg); border-color: var(--high); }
.rows .row-medium { background: #fef9c3; border-color: var(--medium-bar); }
.rows .row-low { background: var(--low-bg); border-color: var(--low); }
.rows .row-passed { background: var(--pass-bg); border-color: var(--pass); }
.finding { border: 1px solid var(--line); border-left: 6px solid; border-radius: 10px; padding: 14px 18px 16px; margin-bottom: 14px; break-inside: avoid-page; }
.finding.sev-critical { border-left-color: var(--critical); } .finding.sev-high { border-left-color: var(--high); }
.finding.sev-medium { border-left-color: var(--medium-bar); } .finding.sev-low { border-left-color: var(--low); }
.finding > header { display: flex; gap: 10px; align-items: flex-start; flex-wrap: wrap; }
.finding > header h3 { margin: 0; flex: 1 1 240px; font-size: 16px; }
.finding .ref { font: 600 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--faint); }
.text { white-space: pre-line; margin: 0; overflow-wrap: anywhere; }
.node { border-top: 1px dashed var(--line); padding-top: 8px; margin-top: 10px; }
.node .where { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--muted); overflow-wrap: anywhere; margin-bottom: 4px; }
.node .why { font-size: 12.5px; color: var(--muted); }
pre { margin: 0 0 6px; padding: 8px 10px; background: #0f172a; color: #e2e8f0; border-radius: 6px; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word; max-height: 20em; overflow: auto; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; font-size: 11px; letter-spacing: .06em; text-transform: uppercase; color: var(--faint); border-bottom: 2px solid var(--line); padding: 6px 8px; }
th.num { text-align: right; }
td { border-bottom: 1px solid var(--line); padding: 7px 8px; vertical-align: top; overflow-wrap: anywhere; }
tr { break-inside: avoid; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.rate-good { color: var(--pass); font-weight: 600; } td.rate-needs-improvement { color: var(--medium); font-weight: 600; background: #fef9c3; } td.rate-poor { color: var(--critical); font-weight: 700; background: var(--critical-bg); }
td.when { white-space: nowrap; }
td code, .mono { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.note { color: var(--muted); font-size: 13px; margin: 0 0 12px; }
.empty { color: var(--muted); font-style: italic; }
.bars { display: grid; grid-template-columns: minmax(120px, 34%) 1fr max-content; gap: 6px 12px; align-items: center; font-size: 13px; margin: 0 0 8px; }
.bars .name { min-width: 0; overflow-wrap: anywhere; }
.bars .track { position: relative; height: 16px; background: #f1f5f9; border-radius: 4px; overflow: hidden; }
.bars .fill { height: 100%; background: var(--brand); border-radius: 4px; }
.bars .fill.rate-good { background: var(--pass); } .bars .fill.rate-needs-improvement { background: var(--medium-bar); } .bars .fill.rate-poor { background: var(--critical); }
.bars .fill.kind-error { background: var(--critical); }
.bars .mark { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px dashed #64748b; }
.bars .val { font-variant-numeric: tabular-nums; white-space: nowrap; text-align: right; font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; color: var(--muted); margin: 0 0 10px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.columns { display: flex; align-items: flex-end; gap: 2px; height: 160px; padding: 0 0 0 2px; border-bottom: 2px solid var(--line); border-left: 2px solid var(--line); }
.columns .col { flex: 1 1 0; min-width: 1px; height: 100%; display: flex; flex-direction: column; justify-content: flex-end; }
.columns .ok { background: var(--brand); } .columns .err { background: var(--critical); }
.axis { display: flex; justify-content: space-between; font-size: 11.5px; color: var(--faint); margin-top: 4px; }
.warnings li { margin-bottom: 4px; overflow-wrap: anywhere; }
.methods li { margin-bottom: 4px; color: var(--muted); font-size: 13px; }
.foot { padding: 18px 32px 28px; color: var(--faint); font-size: 12px; border-top: 1px solid var(--line); }
@media (max-width: 600px) {
  body { font-size: 13.5px; }
  section, .cover, .foot { padding-left: 16px; padding-right: 16px; }
  .cover h1 { font-size: 22px; }
  .finding { padding: 12px 12px 14px; }
  .rows li { flex-wrap: wrap; gap: 6px 10px; }
  .bars { grid-template-columns: 1fr max-content; }
  .bars .name { grid-column: 1 / -1; }
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
}
`;

// ---------------------------------------------------------------- shared pieces

function link(url: string, text: string = url): Html {
  return isWebUrl(url) ? html`<a href="${url}" rel="noopener noreferrer nofollow">${text}</a>` : html`${text}`;
}

function hostOf(url: string | null): string {
  if (!url) return '';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Path and query of a page, for compact rows; the whole URL when it is not one. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** A bar's width in percent of the largest value, at least a sliver when the value is not zero. */
function percent(value: number, max: number): string {
  if (max <= 0 || value <= 0) return '0';
  return Math.max(0.8, Math.min(100, (value / max) * 100)).toFixed(1);
}

function page(options: { title: string; reportName: string; heading: string; target: string | null; facts: Array<[string, HtmlValue]>; body: HtmlValue[]; footer: Html; engineVersion?: string }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${raw(REPORT_CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${PRODUCT_NAME}${options.engineVersion ? ` ${options.engineVersion}` : ''}">
<title>${options.title}</title>
<style>${raw(STYLE)}</style>
</head>
<body>
<main class="report">
<header class="cover">
  <div class="brand"><strong>${PRODUCT_NAME}</strong><span>${options.reportName}</span></div>
  <h1>${options.heading}</h1>
  ${options.target ? html`<p class="target">${options.target}</p>` : ''}
  <dl class="meta">${options.facts.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>
</header>
${join(options.body.filter(Boolean), '\n')}
<footer class="foot">${options.footer}</footer>
</main>
</body>
</html>
`.toString();
}

function warningsSection(warnings: readonly string[]): HtmlValue {
  if (warnings.length === 0) return '';
  return html`<section><h2>Warnings</h2><p class="note">Pages that could not be measured and other problems that did not stop the audit.</p><ul class="warnings">${warnings.map((w) => html`<li>${w}</li>`)}</ul></section>`;
}

// ---------------------------------------------------------------- performance

function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function formatMetric(metric: RatedMetric, value: number | null): string {
  if (value === null) return '—';
  return metric === 'cls' ? value.toFixed(3) : formatMs(value);
}

function ratingBadge(rating: Rating | null): Html {
  return rating ? html`<span class="badge rate-${rating}">${RATING_LABELS[rating]}</span>` : html`<span class="badge rate-none">Not measured</span>`;
}

function thresholdText(metric: RatedMetric): string {
  const { good, poor } = METRIC_THRESHOLDS[metric];
  return `Good ≤ ${formatMetric(metric, good)}, poor > ${formatMetric(metric, poor)}`;
}

function pageValue(p: PagePerformance, metric: RatedMetric): number | null {
  return { lcp: p.lcpMs, fcp: p.fcpMs, cls: p.cls, ttfb: p.ttfbMs }[metric];
}

function metricCell(p: PagePerformance, metric: RatedMetric): Html {
  const rating = p.ratings[metric];
  return html`<td class="num${rating ? ` rate-${rating}` : ''}">${formatMetric(metric, pageValue(p, metric))}</td>`;
}

function performanceBars(result: PerformanceAuditResult, metric: 'lcp' | 'bytes'): HtmlValue {
  const pages = result.pages.filter((p) => !(p.fcpMs === null && p.ttfbMs === null));
  if (pages.length === 0) return '';
  if (metric === 'lcp') {
    const values = pages.map((p) => p.lcpMs ?? 0);
    // The scale always shows the 'poor' threshold, so a fast site's bars look short rather than alarming.
    const max = Math.max(METRIC_THRESHOLDS.lcp.poor * 1.1, ...values);
    const marks = [METRIC_THRESHOLDS.lcp.good, METRIC_THRESHOLDS.lcp.poor].map((t) => html`<span class="mark" style="left:${percent(t, max)}%"></span>`);
    return html`<h3>Largest Contentful Paint per page</h3>
<p class="legend"><span><i style="background:#15803d"></i>Good</span><span><i style="background:#eab308"></i>Needs improvement</span><span><i style="background:#b91c1c"></i>Poor</span><span>Dashed lines: 2.5 s and 4 s</span></p>
<div class="bars">${pages.map(
      (p) =>
        html`<div class="name">${pathOf(p.url)}</div><div class="track"><div class="fill${p.ratings.lcp ? ` rate-${p.ratings.lcp}` : ''}" style="width:${percent(p.lcpMs ?? 0, max)}%"></div>${marks}</div><div class="val">${formatMs(p.lcpMs)}</div>`,
    )}</div>`;
  }
  const max = Math.max(...pages.map((p) => p.transferBytes));
  return html`<h3>Transfer size per page</h3>
<div class="bars">${pages.map(
    (p) =>
      html`<div class="name">${pathOf(p.url)}</div><div class="track"><div class="fill" style="width:${percent(p.transferBytes, max)}%"></div></div><div class="val">${formatBytes(p.transferBytes)} · ${plural(p.requestCount, 'request')}</div>`,
  )}</div>`;
}

function performancePageDetail(p: PagePerformance, index: number): Html {
  const facts = p.error
    ? html`<p class="text">${p.error}</p>`
    : html`<p class="note">Status ${p.status}${p.finalUrl !== p.url ? html` after redirects to ${p.finalUrl}` : ''}. Server response ${formatMs(p.serverMs)}, DOMContentLoaded ${formatMs(p.domContentLoadedMs)}, load ${formatMs(p.loadMs)}. Largest contentful paint: ${p.lcpElement ? html`<code>${p.lcpElement}</code>` : 'not reported'}.</p>`;
  const rows = p.largestRequests.map(
    (r) =>
      html`<tr><td>${link(r.url, r.url.length > 140 ? `${r.url.slice(0, 139)}…` : r.url)}</td><td>${r.resourceType}</td><td class="num">${r.status}</td><td class="num">${formatBytes(r.bytes)}</td></tr>`,
  );
  const table =
    rows.length > 0 &&
    html`<h4>Largest requests</h4><div class="table-wrap"><table class="stack"><thead><tr><th>URL</th><th>Type</th><th class="num">Status</th><th class="num">Size</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  return html`<h3>${index + 1}. ${link(p.url)}</h3>${facts}${table}`;
}

/** The performance report as a self-contained HTML page. */
export function renderPerformanceHtml(result: PerformanceAuditResult): string {
  const s = result.summary;
  const host = hostOf(result.target);
  const cards = RATED_METRICS.map((metric) => {
    const m = s[metric];
    return html`<div class="metric${m.rating ? ` rate-${m.rating}` : ''}"><div class="label">${METRIC_LABELS[metric]} (${metric.toUpperCase()})</div><div class="value">${formatMetric(metric, m.median)}</div>${ratingBadge(m.rating)}<p>Median of ${plural(s.pagesMeasured, 'page')}${m.poorPages ? `, ${m.poorPages} poor` : ''}. ${thresholdText(metric)}.</p></div>`;
  });
  const counts = [
    html`<div class="count ${s.totalIssues ? 'sev-critical' : 'passed'}"><b>${s.totalIssues}</b><span>Poor metrics</span></div>`,
    html`<div class="count sev-info"><b>${s.pagesMeasured}</b><span>Pages measured</span></div>`,
    html`<div class="count sev-info"><b>${s.medianTransferBytes === null ? '—' : formatBytes(s.medianTransferBytes)}</b><span>Median page weight</span></div>`,
    html`<div class="count sev-info"><b>${s.medianRequestCount ?? '—'}</b><span>Median requests</span></div>`,
    s.pagesFailed > 0 && html`<div class="count sev-high"><b>${s.pagesFailed}</b><span>Pages not measured</span></div>`,
  ];
  const rows = result.pages.map(
    (p) =>
      html`<tr><td>${link(p.url, pathOf(p.url))}</td><td class="num">${p.status || '—'}</td>${metricCell(p, 'ttfb')}${metricCell(p, 'fcp')}${metricCell(p, 'lcp')}${metricCell(p, 'cls')}<td class="num">${formatMs(p.loadMs)}</td><td class="num">${p.requestCount ? formatBytes(p.transferBytes) : '—'}</td><td class="num">${p.requestCount || '—'}</td></tr>`,
  );
  const facts: Array<[string, HtmlValue]> = [
    ['Audit date', formatDate(result.startedAt)],
    ['Duration', formatDuration(result.durationMs)],
    ['Pages', result.pages.length],
    ['Browser', result.browser],
    ['Profile', `Desktop ${result.profile.width}×${result.profile.height}, no throttling`],
    ['Engine version', result.engineVersion],
  ];
  return page({
    title: `Performance report: ${host} (${formatDate(result.startedAt)})`,
    reportName: 'Performance Report',
    heading: host,
    target: result.target,
    facts,
    engineVersion: result.engineVersion,
    body: [
      html`<section class="overview" aria-label="Overview"><div class="metrics">${cards}</div><div class="counts">${counts}</div></section>`,
      html`<section><h2>Pages</h2><div class="table-wrap"><table class="stack"><thead><tr><th>Page</th><th class="num">Status</th><th class="num">TTFB</th><th class="num">FCP</th><th class="num">LCP</th><th class="num">CLS</th><th class="num">Load</th><th class="num">Size</th><th class="num">Requests</th></tr></thead><tbody>${rows}</tbody></table></div>
${performanceBars(result, 'lcp')}
${performanceBars(result, 'bytes')}</section>`,
      html`<section><h2>Page details</h2>${result.pages.map(performancePageDetail)}</section>`,
      html`<section><h2>How this was measured</h2><ul class="methods">
<li>Each page was loaded once, in a fresh ${result.browser} profile with the cache disabled, at ${result.profile.width}×${result.profile.height} (Lighthouse's desktop size), without CPU or network throttling: numbers are what this machine saw, usually faster than Lighthouse's throttled lab runs.</li>
<li>TTFB is navigation start to the first byte of the document (web-vitals' definition, redirects and connection included); server response is request start to first byte.</li>
<li>LCP is the last largest-contentful-paint entry after load and a short settle; CLS is the largest session window of layout shifts not caused by input (web-vitals).</li>
<li>Size is bytes on the wire (headers and compressed bodies) as Chromium reports them; requests include redirects. Cross-site iframes are not counted.</li>
<li>Ratings use web.dev's thresholds: LCP 2.5 s / 4 s, FCP 1.8 s / 3 s, CLS 0.1 / 0.25, TTFB 0.8 s / 1.8 s.</li>
</ul></section>`,
      warningsSection(result.warnings),
    ],
    footer: html`Generated by ${PRODUCT_NAME} (engine ${result.engineVersion}) on ${formatDate(result.finishedAt)}. Lab measurements from one load per page; field data from real visitors may differ.`,
  });
}

// ---------------------------------------------------------------- accessibility

function impactBadge(impact: Impact): Html {
  return html`<span class="badge sev-${IMPACT_SEVERITY[impact]}">${IMPACT_LABELS[impact]}</span>`;
}

function renderViolation(violation: Violation, pageIndex: number, index: number): Html {
  const nodes = violation.nodes.map(
    (node) => html`<div class="node"><div class="where">${node.target}</div><pre>${node.html}</pre>${node.failureSummary ? html`<div class="why text">${node.failureSummary}</div>` : ''}</div>`,
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
  return page({
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

// ---------------------------------------------------------------- analytics

const KIND_LABELS: Record<keyof AnalyticsResult['byKind'], string> = {
  page_view: 'Page views',
  form_submit: 'Form submissions',
  button_click: 'Button clicks',
  error: 'Errors',
  api_call: 'API calls',
  other: 'Other',
};

function dayLabel(day: string): string {
  return formatDate(`${day}T00:00:00Z`).replace(/, 00:00 UTC$/, '');
}

function perDayChart(result: AnalyticsResult): HtmlValue {
  const max = Math.max(0, ...result.perDay.map((d) => d.count));
  if (result.perDay.length === 0) return '';
  const cols = result.perDay.map((d) => {
    const ok = d.count - d.errors;
    return html`<div class="col" title="${d.day}: ${plural(d.count, 'event')}, ${plural(d.errors, 'error')}"><div class="err" style="height:${percent(d.errors, max)}%"></div><div class="ok" style="height:${percent(ok, max)}%"></div></div>`;
  });
  const first = result.perDay[0]!.day;
  const last = result.perDay[result.perDay.length - 1]!.day;
  return html`<p class="legend"><span><i style="background:#4338ca"></i>Events</span><span><i style="background:#b91c1c"></i>Errors</span><span>Busiest day: ${plural(max, 'event')}</span></p>
<div class="columns" role="img" aria-label="Events per day">${cols}</div>
<div class="axis"><span>${dayLabel(first)}</span><span>${dayLabel(last)}</span></div>`;
}

/** The analytics report as a self-contained HTML page. */
export function renderAnalyticsHtml(result: AnalyticsResult): string {
  const host = hostOf(result.target) || 'All projects';
  const kinds = Object.entries(result.byKind) as Array<[keyof AnalyticsResult['byKind'], number]>;
  const maxKind = Math.max(0, ...kinds.map(([, n]) => n));
  const maxUrl = Math.max(0, ...result.topUrls.map((u) => u.count));
  const counts = [
    html`<div class="count sev-info"><b>${result.total}</b><span>Events</span></div>`,
    html`<div class="count ${result.totalIssues ? 'sev-critical' : 'passed'}"><b>${result.totalIssues}</b><span>Errors</span></div>`,
    html`<div class="count sev-info"><b>${result.byKind.page_view}</b><span>Page views</span></div>`,
    html`<div class="count sev-info"><b>${result.distinctUrls}</b><span>Distinct URLs</span></div>`,
  ];
  const kindBars = html`<div class="bars">${kinds.map(
    ([kind, n]) =>
      html`<div class="name">${KIND_LABELS[kind]}</div><div class="track"><div class="fill${kind === 'error' ? ' kind-error' : ''}" style="width:${percent(n, maxKind)}%"></div></div><div class="val">${n}</div>`,
  )}</div>`;
  const urlRows = result.topUrls.length
    ? html`<div class="bars">${result.topUrls.map(
        (u) => html`<div class="name">${link(u.url)}</div><div class="track"><div class="fill" style="width:${percent(u.count, maxUrl)}%"></div></div><div class="val">${u.count}</div>`,
      )}</div>`
    : html`<p class="empty">No event in this period.</p>`;
  const errorRows = result.errors.length
    ? html`<div class="table-wrap"><table class="stack"><thead><tr><th>When</th><th>URL</th><th>What happened</th><th class="num">Status</th></tr></thead><tbody>${result.errors.map(
        (e) =>
          html`<tr><td class="when">${formatDate(e.timestamp)}</td><td>${link(e.url, pathOf(e.url))}</td><td>${e.description ? e.description : html`<span class="empty">No description</span>`}</td><td class="num">${e.status ?? '—'}</td></tr>`,
      )}</tbody></table></div>`
    : html`<ul class="rows"><li class="row-passed"><span class="badge passed">Passed</span><div class="what"><b>No error recorded</b><span>No error event in this period.</span></div></li></ul>`;
  const facts: Array<[string, HtmlValue]> = [
    ['Period', `${dayLabel(result.from.slice(0, 10))} – ${dayLabel(result.to.slice(0, 10))}`],
    ['Events', result.total],
    ['First event', result.firstEvent ? formatDate(result.firstEvent) : '—'],
    ['Last event', result.lastEvent ? formatDate(result.lastEvent) : '—'],
    ['Generated', formatDate(result.generatedAt)],
  ];
  return page({
    title: `Analytics report: ${host} (${formatDate(result.generatedAt)})`,
    reportName: 'Analytics Report',
    heading: host,
    target: result.target,
    facts,
    body: [
      html`<section class="overview" aria-label="Overview"><div class="counts">${counts}</div></section>`,
      html`<section><h2>Events per day</h2>${result.total ? perDayChart(result) : html`<p class="empty">No event in this period.</p>`}</section>`,
      html`<section><h2>Events by kind</h2>${kindBars}</section>`,
      html`<section><h2>Top URLs</h2>${urlRows}</section>`,
      html`<section><h2>Recent errors</h2>${result.errors.length > 0 && html`<p class="note">The ${plural(result.errors.length, 'latest error')}, newest first${result.totalIssues > result.errors.length ? `, of ${result.totalIssues}` : ''}.</p>`}${errorRows}</section>`,
      result.ignored > 0 && html`<section><p class="note">${plural(result.ignored, 'event')} outside the period or with an unreadable time were left out.</p></section>`,
    ],
    footer: html`Generated by ${PRODUCT_NAME} on ${formatDate(result.generatedAt)} from the events recorded for this project; days are UTC.`,
  });
}

// ---------------------------------------------------------------- CSV, JSON and the one entry point

function csv(rows: Array<Array<string | number | null>>): string {
  return rows.map((row) => row.map((cell) => csvField(cell === null ? '' : String(cell))).join(',')).join('\r\n') + '\r\n';
}

/** One row per page and metric (CRLF, RFC 4180, formulas defused), then the medians with page '(median)'. */
export function renderPerformanceCsv(result: PerformanceAuditResult): string {
  const rows: Array<Array<string | number | null>> = [['page', 'metric', 'value', 'unit', 'rating']];
  for (const p of result.pages) {
    rows.push(
      [p.url, 'status', p.status, '', ''],
      [p.url, 'ttfb', p.ttfbMs, 'ms', p.ratings.ttfb],
      [p.url, 'server_response', p.serverMs, 'ms', ''],
      [p.url, 'fcp', p.fcpMs, 'ms', p.ratings.fcp],
      [p.url, 'lcp', p.lcpMs, 'ms', p.ratings.lcp],
      [p.url, 'cls', p.cls, '', p.ratings.cls],
      [p.url, 'dom_content_loaded', p.domContentLoadedMs, 'ms', ''],
      [p.url, 'load', p.loadMs, 'ms', ''],
      [p.url, 'transfer_size', p.transferBytes, 'bytes', ''],
      [p.url, 'requests', p.requestCount, '', ''],
    );
  }
  for (const metric of RATED_METRICS) rows.push(['(median)', metric, result.summary[metric].median, metric === 'cls' ? '' : 'ms', result.summary[metric].rating]);
  return csv(rows);
}

/** One row per violation node. */
export function renderAccessibilityCsv(result: AccessibilityAuditResult): string {
  const rows: Array<Array<string | number | null>> = [['page', 'rule', 'impact', 'help', 'target', 'html', 'failure summary', 'help url']];
  for (const p of result.pages) {
    for (const v of p.violations) {
      for (const node of v.nodes) rows.push([p.url, v.id, node.impact ?? v.impact, v.help, node.target, node.html, node.failureSummary, v.helpUrl]);
    }
  }
  return csv(rows);
}

/** One row per count: by kind, by URL, by day (with that day's errors). */
export function renderAnalyticsCsv(result: AnalyticsResult): string {
  const rows: Array<Array<string | number | null>> = [['section', 'key', 'count', 'errors']];
  for (const [kind, n] of Object.entries(result.byKind)) rows.push(['kind', kind, n, '']);
  for (const u of result.topUrls) rows.push(['url', u.url, u.count, '']);
  for (const d of result.perDay) rows.push(['day', d.day, d.count, d.errors]);
  return csv(rows);
}

const SCHEMAS = { performance: performanceAuditSchema, accessibility: accessibilityAuditSchema, analytics: analyticsSchema } as const;

/**
 * Renders an audit result as html, json or csv. The result is checked against its kind's schema first,
 * so a stored JSON read back from the database can be passed as it is.
 */
export function renderAuditReport(kind: AuditKind, result: unknown, format: AuditReportFormat): string {
  switch (kind) {
    case 'performance': {
      const parsed = SCHEMAS.performance.parse(result);
      return format === 'html' ? renderPerformanceHtml(parsed) : format === 'csv' ? renderPerformanceCsv(parsed) : `${JSON.stringify(parsed, null, 2)}\n`;
    }
    case 'accessibility': {
      const parsed = SCHEMAS.accessibility.parse(result);
      return format === 'html' ? renderAccessibilityHtml(parsed) : format === 'csv' ? renderAccessibilityCsv(parsed) : `${JSON.stringify(parsed, null, 2)}\n`;
    }
    case 'analytics': {
      const parsed = SCHEMAS.analytics.parse(result);
      return format === 'html' ? renderAnalyticsHtml(parsed) : format === 'csv' ? renderAnalyticsCsv(parsed) : `${JSON.stringify(parsed, null, 2)}\n`;
    }
    default:
      throw new RangeError(`Unknown audit kind: ${String(kind)}`);
  }
}

/** Content type and extension per format, as REPORT_MEDIA in index.ts. */
export const AUDIT_REPORT_MEDIA: Record<AuditReportFormat, { contentType: string; extension: string }> = {
  html: { contentType: 'text/html; charset=utf-8', extension: '.html' },
  json: { contentType: 'application/json; charset=utf-8', extension: '.json' },
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: '.csv' },
};
