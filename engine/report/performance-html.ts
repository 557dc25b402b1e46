import { plural } from '../../common/plural';
import { METRIC_LABELS, METRIC_THRESHOLDS, RATED_METRICS, type PagePerformance, type PerformanceAuditResult, type RatedMetric, type Rating } from '../../common/audits';
import { html, type Html, type HtmlValue } from '../html-kit';
import { auditPage, hostOf, pathOf, percent, warningsSection } from './audit-page';
import { link } from './document';
import { PRODUCT_NAME, formatBytes, formatDate, formatDuration } from './format';

// The performance report: rated medians, a row per page, LCP and size bars, each page's details and largest requests.

export const RATING_LABELS: Record<Rating, string> = { good: 'Good', 'needs-improvement': 'Needs improvement', poor: 'Poor' };

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
  return auditPage({
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
