import { and, desc, eq, lt, ne } from 'drizzle-orm';
import { SEVERITY_RANK, scanResultSchema, type Finding, type ScanResult } from '../../common/scan';
import { changeHeadline } from '../../common/scan-history';
import { diffScans } from '../../engine/diff';
import type { ReportChanges } from '../../engine/report/changes';
import type { Db } from '../db';
import { scans } from '../db/schema';

type ScanRow = typeof scans.$inferSelect;

/** New findings a notice names (the count says how many there are in all). */
export const NOTICE_NEW_LISTED = 10;
const TITLE_MAX = 300;
const cut = (text: string) => (text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX - 1)}…` : text);

/** What changed since the project's previous completed scan: its id and time, and the engine's diff. */
export interface SincePrevious {
  previousScanId: string;
  previousFinishedAt: string;
  added: Finding[];
  fixed: Finding[];
  unchanged: Finding[];
}

/**
 * The changes of a completed scan against the project's completed scan before it (by finish time), each as stored
 * with the decisions of its day; null for the project's first completed scan (nothing to compare with).
 */
export async function changesSincePrevious(
  db: Db,
  scan: Pick<ScanRow, 'id' | 'projectId' | 'finishedAt'>,
  current: Pick<ScanResult, 'findings' | 'suppressed'>,
): Promise<SincePrevious | null> {
  const before = scan.finishedAt ? lt(scans.finishedAt, scan.finishedAt) : undefined;
  const [previous] = await db
    .select({ id: scans.id, result: scans.result, finishedAt: scans.finishedAt })
    .from(scans)
    .where(and(eq(scans.projectId, scan.projectId), eq(scans.state, 'completed'), ne(scans.id, scan.id), before))
    .orderBy(desc(scans.finishedAt), desc(scans.id))
    .limit(1);
  if (!previous) return null;
  const parsed = scanResultSchema.safeParse(previous.result);
  const diff = diffScans(parsed.success ? parsed.data : { findings: [] }, current);
  const bySeverity = (findings: Finding[]) => [...findings].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
  return {
    previousScanId: previous.id,
    previousFinishedAt: (previous.finishedAt ?? new Date()).toISOString(),
    added: bySeverity(diff.added),
    fixed: bySeverity(diff.fixed),
    unchanged: diff.unchanged,
  };
}

/**
 * What a scan.completed event says changed, in the continuous build event's fields (chat formats list `new_findings`
 * alike): figures and the new findings' titles, never their evidence. A first scan: no previous scan, no counts.
 */
export function changesEventData(since: SincePrevious | null): Record<string, unknown> {
  if (!since) return { previous_scan_id: null, new_count: null, fixed_count: null, new_findings: [] };
  return {
    previous_scan_id: since.previousScanId,
    new_count: since.added.length,
    fixed_count: since.fixed.length,
    new_findings: since.added.slice(0, NOTICE_NEW_LISTED).map(({ fingerprint, title, severity }) => ({ fingerprint, title: cut(title), severity })),
  };
}

/** The one-line headline of a re-scan's notices ('2 new findings since the last scan'), null for a first scan. */
export function sinceHeadline(since: SincePrevious | null): string | null {
  return changeHeadline(since && { new: since.added.length, fixed: since.fixed.length });
}

/** The reports' 'Since the previous scan' input. */
export function reportChanges(since: SincePrevious | null): ReportChanges | undefined {
  if (!since) return undefined;
  return { previousFinishedAt: since.previousFinishedAt, added: since.added, fixed: since.fixed };
}
