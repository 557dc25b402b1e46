import type { ContinuousBuild } from '../../common/continuous';
import type { reports, scans } from '../db/schema';
import { changesEventData, sinceHeadline, type SincePrevious } from '../scan-history/changes';

// The data of each event type (the `data` of {type, timestamp, data}): ids, figures and short texts a receiver
// can act on (post to Slack, fail a pipeline) and fetch more with, never findings or page contents.

type ScanRow = typeof scans.$inferSelect;
type ReportRow = typeof reports.$inferSelect;

/** Texts in events are cut here: an error message, not a page. */
const TEXT_MAX = 500;
const cut = (text: string | null | undefined) => (text == null ? null : text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text);
const iso = (at: Date | null | undefined) => (at ? at.toISOString() : new Date().toISOString());

/**
 * scan.completed: a project's scan reached completed. A re-scan leads with what is new since the project's previous
 * scan (`summary`, then the changes' figures and new findings); a first scan has no summary and no counts.
 */
export function scanCompletedData(scan: ScanRow, since: SincePrevious | null = null): Record<string, unknown> {
  return {
    summary: sinceHeadline(since),
    ...changesEventData(since),
    scan_id: scan.id,
    project_id: scan.projectId,
    trigger: scan.trigger,
    url: cut(scan.url),
    score: scan.score,
    grade: scan.grade,
    counts: scan.counts,
    finished_at: iso(scan.finishedAt),
  };
}

/** scan.failed: a scan failed for good (no retry left), with the reason in words. */
export function scanFailedData(scan: ScanRow): Record<string, unknown> {
  return { scan_id: scan.id, project_id: scan.projectId, url: cut(scan.url), error: cut(scan.error), finished_at: iso(scan.finishedAt) };
}

/** report.generated: a report reached completed. */
export function reportGeneratedData(report: ReportRow): Record<string, unknown> {
  return {
    report_id: report.id,
    type: report.type,
    url: cut(report.url),
    project_id: report.projectId,
    scan_id: report.scanId,
    total_issues: report.totalIssues,
    finished_at: iso(report.finishedAt),
  };
}

/** scenario_run.completed: a scenario run passed or failed. */
export function scenarioRunData(run: {
  runId: string;
  scenarioId: string;
  name: string;
  website: string;
  projectId: string | null;
  status: 'passed' | 'failed';
  failedStep: number | null;
  error: string | null;
  durationMs: number;
}): Record<string, unknown> {
  return {
    run_id: run.runId,
    scenario_id: run.scenarioId,
    project_id: run.projectId,
    name: cut(run.name),
    website: cut(run.website),
    status: run.status,
    failed_step: run.failedStep,
    error: cut(run.error),
    duration_ms: Math.round(run.durationMs),
  };
}

/** continuous_build.completed: a continuous build was judged by its re-scan (success, warning or error). */
export function continuousBuildData(build: ContinuousBuild): Record<string, unknown> {
  const changes = build.changes;
  return {
    build_id: build.id,
    project_id: build.project_id,
    build_hash: build.build_hash,
    status: build.status,
    trigger: build.trigger,
    url: cut(build.url),
    scan_id: build.scan_id,
    grade: changes?.grade ?? null,
    previous_grade: changes?.previous_grade ?? null,
    new_count: changes?.new_count ?? 0,
    fixed_count: changes?.fixed_count ?? 0,
    // At most 20 (BUILD_CHANGES_LISTED), titles cut: the event stays far under the delivery size limit.
    new_findings: (changes?.new_findings ?? []).map((finding) => ({ title: cut(finding.title), severity: finding.severity, fingerprint: finding.fingerprint })),
    error: cut(changes?.error),
    finished_at: iso(build.finished_at ? new Date(build.finished_at) : null),
  };
}
