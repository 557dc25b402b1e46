import { plural } from '../../common/plural';
import type { AnalyticsResult } from '../../common/audits';
import { html, type HtmlValue } from '../html-kit';
import { auditPage, hostOf, pathOf, percent } from './audit-page';
import { link } from './document';
import { PRODUCT_NAME, formatDate } from './format';

// The analytics report: events per day, by kind, top URLs and the latest errors of a project's recorded events.

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
        (u) =>
          html`<div class="name">${link(u.url)}</div><div class="track"><div class="fill" style="width:${percent(u.count, maxUrl)}%"></div></div><div class="val">${u.count}</div>`,
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
  return auditPage({
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
