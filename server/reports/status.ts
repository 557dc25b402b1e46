import type { ReportLink, ReportStatus } from '../../common/projects';
import type { reports } from '../db/schema';
import type { ReportLinks } from './links';

type ReportRow = typeof reports.$inferSelect;

export function reportStatusFor(row: ReportRow, links: ReportLinks): ReportStatus {
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
    total_issues: row.totalIssues,
    report_url: view,
    preview_url: view ? links.preview(view) : null,
  };
}

export function reportLinkFor(row: ReportRow, links: ReportLinks): ReportLink {
  return {
    id: row.id,
    url: row.url,
    created_at: row.createdAt.toISOString(),
    total_issues: row.totalIssues,
    report_url: links.view(row.id),
    type: row.type,
    project_id: row.projectId,
  };
}
