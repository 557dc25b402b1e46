import type { ReportLink, ReportStatus } from '../../common/projects';
import { findingTally, type SeverityCounts } from '../../common/scan';
import type { reports } from '../db/schema';
import type { ReportLinks } from './links';

type ReportRow = typeof reports.$inferSelect;

/**
 * A report's issues and warnings: a security report's from its scan's counts by severity when they are at hand (the
 * public API's split, so both name the same numbers), else the stored total and no warnings (the audits).
 */
function tallyOf(row: ReportRow, counts: Partial<SeverityCounts> | null | undefined): { total_issues: number | null; warnings: number | null } {
  if (row.type !== 'security' || !counts) return { total_issues: row.totalIssues, warnings: null };
  const tally = findingTally(counts);
  return { total_issues: tally.issues, warnings: tally.warnings };
}

/** `counts`: the scan's counts by severity, for a security report. */
export function reportStatusFor(row: ReportRow, links: ReportLinks, counts?: Partial<SeverityCounts> | null): ReportStatus {
  const done = row.state === 'completed';
  const view = done ? links.view(row.id) : null;
  return {
    id: row.id,
    type: row.type,
    project_id: row.projectId,
    url: row.url,
    state: row.state,
    progress: (row.progress as ReportStatus['progress']) ?? null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    ...tallyOf(row, counts),
    report_url: view,
    preview_url: view ? links.preview(view) : null,
  };
}

export function reportLinkFor(row: ReportRow, links: ReportLinks, counts?: Partial<SeverityCounts> | null): ReportLink {
  return {
    id: row.id,
    url: row.url,
    created_at: row.createdAt.toISOString(),
    ...tallyOf(row, counts),
    report_url: links.view(row.id),
    type: row.type,
    project_id: row.projectId,
  };
}
