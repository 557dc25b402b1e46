import type { AccessibilityAuditResult, AnalyticsResult, PerformanceAuditResult } from '../../common/audits';
import { RATED_METRICS } from '../../common/audits';
import { csvField } from './csv';

// The audit reports as CSV (RFC 4180, CRLF, formulas defused by csvField).

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
