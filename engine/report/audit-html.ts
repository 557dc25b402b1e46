import { accessibilityAuditSchema, analyticsSchema, performanceAuditSchema, type AuditKind } from '../../common/audits';
import { renderAccessibilityHtml } from './accessibility-html';
import { renderAnalyticsHtml } from './analytics-html';
import { renderAccessibilityCsv, renderAnalyticsCsv, renderPerformanceCsv } from './audit-csv';
import { renderPerformanceHtml } from './performance-html';

// The performance, accessibility and analytics reports in their formats: siblings of the security report (html.ts),
// same look (styles.ts), same rules: one self-contained file, strict CSP, no scripts, every text from a site escaped.
// One file per report (performance-html.ts, accessibility-html.ts, analytics-html.ts), their CSV in audit-csv.ts.

export { renderAccessibilityHtml } from './accessibility-html';
export { renderAnalyticsHtml } from './analytics-html';
export { renderPerformanceHtml } from './performance-html';

export const AUDIT_REPORT_FORMATS = ['html', 'json', 'csv'] as const;
export type AuditReportFormat = (typeof AUDIT_REPORT_FORMATS)[number];

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
