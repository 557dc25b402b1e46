import type { Finding, ScanResult } from '../../common/scan';
import { maskEvidence } from '../analysis/probe-answers';
import { renderCsv } from './csv';
import { targetHost } from './format';
import { renderHtml } from './html';
import { renderJson } from './json';
import { htmlToPdf, renderPdf, type PdfOptions } from './pdf';
import { renderSarif } from './sarif';
import type { ReportChanges } from './changes';

export type { ReportChanges } from './changes';

export { htmlToPdf, renderCsv, renderHtml, renderJson, renderPdf, renderSarif };
export { PdfBrowserMissingError } from './pdf';

/** Export formats, in the order the UI offers them. */
export const REPORT_FORMATS = ['html', 'pdf', 'csv', 'json', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

/** Content type and file extension of each format, for downloads and `--out` files. */
export const REPORT_MEDIA: Record<ReportFormat, { contentType: string; extension: string }> = {
  html: { contentType: 'text/html; charset=utf-8', extension: '.html' },
  pdf: { contentType: 'application/pdf', extension: '.pdf' },
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: '.csv' },
  json: { contentType: 'application/json; charset=utf-8', extension: '.json' },
  sarif: { contentType: 'application/sarif+json; charset=utf-8', extension: '.sarif' },
};

/** The format a file name asks for, from its extension (report.sarif.json counts as SARIF). */
export function formatFromFileName(fileName: string): ReportFormat | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.sarif') || lower.endsWith('.sarif.json')) return 'sarif';
  if (lower.endsWith('.htm')) return 'html';
  for (const format of REPORT_FORMATS) if (lower.endsWith(REPORT_MEDIA[format].extension)) return format;
  return null;
}

/** A download name such as 'vibeeval-vibeshop.example.com-2025-11-20.html'. */
export function reportFileName(result: ScanResult, format: ReportFormat): string {
  const host = targetHost(result).replace(/[^a-z0-9.-]+/gi, '_');
  return `vibeeval-${host}-${result.startedAt.slice(0, 10)}${REPORT_MEDIA[format].extension}`;
}

/**
 * Renders a report; PDF comes back as a Buffer (it needs a browser), every other format as a string. `changes`:
 * what changed since the project's previous scan, said by every format.
 */
export async function renderReport(stored: ScanResult, format: ReportFormat, options: PdfOptions = {}, changes?: ReportChanges): Promise<Buffer | string> {
  // Results stored by earlier versions kept what their checks left unmasked: every report masks evidence again.
  const masked = <T extends Finding>(finding: T): T => ({ ...finding, evidence: maskEvidence(finding.evidence) });
  const result: ScanResult = {
    ...stored,
    findings: stored.findings.map(masked),
    ...(stored.suppressed ? { suppressed: stored.suppressed.map(masked) } : {}),
  };
  // The findings fixed since come from the previous scan's stored result: CSV and SARIF list them with their evidence.
  const since = changes && { ...changes, added: changes.added.map(masked), fixed: changes.fixed.map(masked) };
  switch (format) {
    case 'json':
      return renderJson(result, since);
    case 'html':
      return renderHtml(result, since);
    case 'csv':
      return renderCsv(result, since);
    case 'sarif':
      return renderSarif(result, since);
    case 'pdf':
      return renderPdf(result, options, since);
  }
}
