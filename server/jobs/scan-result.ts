import { and, eq, sql } from 'drizzle-orm';
import type { ScanResult } from '../../common/scan';
import { SEVERITY_RANK, findingTally } from '../../common/scan';
import { plural } from '../../common/plural';
import type { Db } from '../db';
import { reports, scans } from '../db/schema';
import type { NewEvent } from '../events/service';
import { transaction } from '../db/transaction';
import type { Lease } from './lease';

const MAX_FINDING_EVENTS = 50;

type ScanRow = typeof scans.$inferSelect;
type ReportRow = typeof reports.$inferSelect;

/** The events a completed scan leaves: its medium-and-above findings (at most 50) and a summary line. */
export function completionEvents(row: Pick<ScanRow, 'id' | 'userId' | 'workspaceId' | 'projectId' | 'url'>, result: ScanResult, droppedRequests: number): NewEvent[] {
  const base = { userId: row.userId, workspaceId: row.workspaceId, projectId: row.projectId, scanId: row.id };
  const important = result.findings.filter((finding) => SEVERITY_RANK[finding.severity] >= SEVERITY_RANK.medium);
  const events: NewEvent[] = important.slice(0, MAX_FINDING_EVENTS).map((finding) => ({
    ...base,
    kind: 'error',
    url: finding.url,
    extra: {
      description: `${finding.severity[0]!.toUpperCase()}${finding.severity.slice(1)}: ${finding.title}`,
      severity: finding.severity,
      check: finding.checkId,
      scan_id: row.id,
    },
  }));
  const { counts } = result;
  events.push({
    ...base,
    kind: 'other',
    url: row.url,
    extra: {
      description:
        `Scan completed: grade ${result.grade} (${result.score}/100), ${plural(result.findings.length, 'finding')} ` +
        `(${counts.critical} critical, ${counts.high} high, ${counts.medium} medium, ${counts.low} low), ${plural(result.pages.length, 'page')}` +
        (droppedRequests ? `; ${droppedRequests} further requests not listed` : ''),
      scan_id: row.id,
    },
  });
  return events;
}

/**
 * Stores a completed scan and its security report in one transaction: a report asked for before the scan
 * existed is waiting for it and completes; otherwise the scan makes its own. Only while `lease` still holds the
 * scan: undefined, and nothing written, when another attempt took it over.
 */
export async function storeScanResult(db: Db, lease: Lease<typeof scans>, result: ScanResult): Promise<{ done: ScanRow; report: ReportRow } | undefined> {
  const { row } = lease;
  // The report's issues are the public API's (critical, high, medium); its warnings are read from the scan's counts.
  const totalIssues = findingTally(result.counts).issues;
  return transaction(db, async (tx) => {
    const [done] = await tx
      .update(scans)
      .set({
        state: 'completed',
        result: result,
        score: result.score,
        grade: result.grade,
        headerGrade: result.headers.grade,
        counts: result.counts,
        progress: {
          phase: 'done',
          pagesDone: result.pages.length,
          pagesTotal: result.pages.length,
          checksRun: result.passed.length + new Set(result.findings.map((f) => f.checkId)).size,
          checksTotal: 0,
          findings: result.findings.length,
        },
        finishedAt: sql`now()`,
        heartbeatAt: null,
      })
      .where(lease.mine)
      .returning();
    if (!done) return undefined;
    const [waiting] = await tx
      .update(reports)
      .set({ state: 'completed', totalIssues, finishedAt: sql`now()`, progress: null })
      .where(and(eq(reports.scanId, row.id), eq(reports.type, 'security')))
      .returning();
    const [report] = waiting
      ? [waiting]
      : await tx
          .insert(reports)
          .values({
            userId: row.userId,
            workspaceId: row.workspaceId,
            projectId: row.projectId,
            scanId: row.id,
            type: 'security',
            url: row.url,
            state: 'completed',
            totalIssues,
            finishedAt: sql`now()`,
          })
          .returning();
    return { done, report: report! };
  });
}
