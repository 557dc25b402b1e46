import type { ReportStatus, ReportType } from '@common/projects';
import { EXPORT_FORMATS } from '@common/projects';
import { tallyText, type ScanProgress } from '@common/scan';

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What each of the four report types measures (Available Reports). */
export const REPORT_TYPE_DETAILS: Record<ReportType, { title: string; description: string }> = {
  security: {
    title: 'Security Report',
    description: 'Vulnerabilities, exposed secrets and files, security headers, cookies, CORS and TLS, with evidence and a fix for each finding.',
  },
  performance: {
    title: 'Performance Report',
    description: 'Page load timings, page weight and asset sizes, caching and compression, and how the site responds under load.',
  },
  accessibility: {
    title: 'Accessibility Report',
    description: 'WCAG checks on every page: colour contrast, labels and names, landmarks, keyboard access and ARIA use.',
  },
  analytics: {
    title: 'Analytics Report',
    description: 'Activity recorded while testing: page views, form submits, clicks, API calls and errors, page by page.',
  },
};

/** 'security' → 'Security'. */
export const reportTypeLabel = (type: ReportType) => type.charAt(0).toUpperCase() + type.slice(1);

/** The report URL as an absolute URL (the server sends absolute ones; a path is read against its origin). */
export function absoluteReportUrl(serverOrigin: string, reportUrl: string): string | null {
  try {
    const url = new URL(reportUrl, serverOrigin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The server's viewer page for a signed report URL (spec section 7: a preview endpoint with `signed_url`). */
export function previewUrlFor(serverOrigin: string, reportUrl: string): string {
  return `${serverOrigin.replace(/\/+$/, '')}/report-preview?signed_url=${encodeURIComponent(reportUrl)}`;
}

/**
 * The signed download link of one export: the view link `/reports/{id}/view?exp=...&sig=...` with `/view`
 * replaced by `/export/{format}` (the signature covers every format). Null when the link has another shape.
 */
export function exportUrlFor(reportUrl: string, format: ExportFormat): string | null {
  let url: URL;
  try {
    url = new URL(reportUrl);
  } catch {
    return null;
  }
  if (!/\/reports\/[^/]+\/view$/.test(url.pathname)) return null;
  url.pathname = url.pathname.replace(/\/view$/, `/export/${format}`);
  return url.href;
}

/** Whether a report has stopped changing (completed or failed): polling stops there. */
export const isReportFinished = (report: Pick<ReportStatus, 'state'> | undefined) => report?.state === 'completed' || report?.state === 'failed';

/** Percent done (0-100), or null when the total is not known yet (an indeterminate bar). */
export function progressPercent(progress: ReportStatus['progress']): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.min(100, Math.max(0, Math.round((progress.done / progress.total) * 100)));
}

/** The line under the progress bar: the server's message, else what the state means. */
export function progressMessage(report: Pick<ReportStatus, 'state' | 'progress'>): string {
  if (report.progress?.message) return report.progress.message;
  if (report.state === 'queued') return 'Waiting for a worker...';
  if (report.state === 'running') return 'Generating the report...';
  return '';
}

/**
 * A report's counts in the public API's words: '4 issues, 6 warnings', '1 issue', 'No issues'; '—' when the count is
 * not known. Warnings are a security report's (null for the audits).
 */
export function issuesLabel(totalIssues: number | null, warnings: number | null = null): string {
  if (totalIssues === null) return '—';
  return tallyText({ issues: totalIssues, warnings: warnings ?? 0 });
}

const SCAN_PHASES: Record<ScanProgress['phase'], string> = {
  crawl: 'Crawling pages',
  render: 'Rendering pages',
  probe: 'Probing for exposed files',
  check: 'Running security checks',
  done: 'Finishing the scan',
};

/**
 * A security report waits for its project's scan: the scan's live progress read as report progress
 * (pages while crawling and rendering, checks after that).
 */
export function progressFromScan(scan: ScanProgress): NonNullable<ReportStatus['progress']> {
  const pages = scan.phase === 'crawl' || scan.phase === 'render';
  return {
    done: pages ? scan.pagesDone : scan.checksRun,
    total: pages ? scan.pagesTotal : scan.checksTotal,
    message: scan.message || SCAN_PHASES[scan.phase],
  };
}
