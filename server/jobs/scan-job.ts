import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { ScanProgress, ScanResult } from '../../common/scan';
import { SEVERITY_RANK } from '../../common/scan';
import { scan as runScan, ScanError, type AddressPolicy } from '../../engine/scan';
import type { Exchange } from '../../engine/types';
import type { Db } from '../db';
import { reports, scans } from '../db/schema';
import type { EventService, NewEvent } from '../events/service';
import type { LiveBus } from '../live/bus';
import { toScanSummary } from '../projects/service';
import { reportStatusFor } from '../reports/status';
import type { ReportLinks } from '../reports/links';

export interface ScanJobDeps {
  db: Db;
  events: EventService;
  live: LiveBus;
  logger: Logger;
  links: ReportLinks;
  policy: AddressPolicy;
  rateLimit: number;
  render: boolean;
  /** Browser for rendering: undefined = auto-detect. */
  chromiumPath?: string | null;
}

/** A running scan whose heartbeat is older than this is taken to be orphaned (its worker died). */
export const STALE_AFTER_SECONDS = 45;
const HEARTBEAT_MS = 10_000;
const PROGRESS_EVERY_MS = 300;
const MAX_REQUEST_EVENTS = 300;
const MAX_FINDING_EVENTS = 50;

type ScanRow = typeof scans.$inferSelect;

function describeExchange(exchange: Exchange): string {
  const path = (() => {
    try {
      const url = new URL(exchange.url);
      return `${url.host}${url.pathname}${url.search ? '?…' : ''}`;
    } catch {
      return exchange.url;
    }
  })();
  if (exchange.status === 0) return `${exchange.method} ${path} failed: ${exchange.error ?? 'no answer'}`;
  const type = exchange.contentType.split(';')[0] || 'no content type';
  const size = exchange.bodyBytes >= 1024 ? `${Math.round(exchange.bodyBytes / 1024)} KB` : `${exchange.bodyBytes} B`;
  return `${exchange.method} ${path} → ${exchange.status} (${type}, ${size}, ${exchange.timingMs} ms)`;
}

/** Maps an HTTP exchange of the scan onto the spec's event kinds: documents are page views, the rest API calls. */
export function exchangeKind(exchange: Exchange): NewEvent['kind'] {
  if (exchange.status === 0 || exchange.status >= 500) return 'error';
  if (exchange.method === 'GET' && /html/i.test(exchange.contentType) && !exchange.url.includes('vibeeval-')) return 'page_view';
  return 'api_call';
}

/**
 * Takes the scan for this worker: a queued scan, or a running one whose worker stopped sending heartbeats.
 * Returns undefined when another worker has it or it is finished (a duplicate or late job).
 */
async function claim(db: Db, scanId: string): Promise<ScanRow | undefined> {
  const [row] = await db
    .update(scans)
    .set({ state: 'running', startedAt: sql`now()`, heartbeatAt: sql`now()`, attempts: sql`${scans.attempts} + 1`, error: null })
    .where(
      sql`${scans.id} = ${scanId} and (${scans.state} = 'queued' or (${scans.state} = 'running' and ${scans.heartbeatAt} < now() - make_interval(secs => ${STALE_AFTER_SECONDS})))`,
    )
    .returning();
  return row;
}

/**
 * Runs one scan job: claims the scan, runs the engine with live progress, records what happened as events,
 * stores the result and its security report. `finalAttempt` says whether a thrown error will be retried.
 */
export async function runScanJob(scanId: string, deps: ScanJobDeps, { signal, finalAttempt }: { signal?: AbortSignal; finalAttempt: boolean }): Promise<'completed' | 'failed' | 'skipped'> {
  const { db, events, live, logger } = deps;
  const row = await claim(db, scanId);
  if (!row) return 'skipped';
  const log = logger.child({ scan: row.id, project: row.projectId });
  const publishState = async (current: ScanRow, reportId: string | null = null) =>
    live.publish(current.userId, { type: 'scan.state', project_id: current.projectId, scan_id: current.id, scan: toScanSummary(current, reportId) }).catch(() => undefined);

  await publishState(row);
  const base = { userId: row.userId, projectId: row.projectId, scanId: row.id };
  await events.record([{ ...base, kind: 'other', url: row.url, extra: { description: `Scan started (attempt ${row.attempts}, up to ${row.numPages} page${row.numPages === 1 ? '' : 's'})`, scan_id: row.id } }]);

  // Requests become events as they finish, flushed in batches.
  let pending: NewEvent[] = [];
  let requestEvents = 0;
  let dropped = 0;
  const flush = async () => {
    const batch = pending;
    pending = [];
    await events.record(batch).catch((error: Error) => log.warn({ err: error }, 'could not record scan events'));
  };
  const flusher = setInterval(() => void flush(), 1_000);

  let progress: ScanProgress | null = null;
  let lastSent = 0;
  let lastPhase = '';
  let lastStored = 0;
  const heartbeat = setInterval(() => {
    void db
      .update(scans)
      .set({ heartbeatAt: sql`now()`, progress: progress })
      .where(eq(scans.id, row.id))
      .catch((error: Error) => log.warn({ err: error }, 'heartbeat failed'));
  }, HEARTBEAT_MS);

  try {
    const result: ScanResult = await runScan(
      row.url,
      { maxPages: row.numPages, render: deps.render, active: false, rateLimit: deps.rateLimit },
      {
        addressPolicy: deps.policy,
        signal,
        chromiumPath: deps.chromiumPath,
        onExchange: (exchange) => {
          if (requestEvents >= MAX_REQUEST_EVENTS) {
            dropped++;
            return;
          }
          requestEvents++;
          pending.push({
            ...base,
            kind: exchangeKind(exchange),
            url: exchange.url,
            extra: { description: describeExchange(exchange), status: exchange.status, scan_id: row.id },
          });
        },
        onProgress: (next) => {
          progress = next;
          const now = Date.now();
          if (next.phase === lastPhase && now - lastSent < PROGRESS_EVERY_MS && next.phase !== 'done') return;
          lastPhase = next.phase;
          lastSent = now;
          void live.publish(row.userId, { type: 'scan.progress', project_id: row.projectId, scan_id: row.id, progress: next }).catch(() => undefined);
          // Clients that poll instead of listening see progress too (at most once a second).
          if (now - lastStored >= 1_000) {
            lastStored = now;
            void db
              .update(scans)
              .set({ progress: next, heartbeatAt: sql`now()` })
              .where(and(eq(scans.id, row.id), eq(scans.state, 'running')))
              .catch(() => undefined);
          }
        },
      },
    );
    clearInterval(flusher);
    await flush();

    const important = result.findings.filter((finding) => SEVERITY_RANK[finding.severity] >= SEVERITY_RANK.medium);
    const findingEvents: NewEvent[] = important.slice(0, MAX_FINDING_EVENTS).map((finding) => ({
      ...base,
      kind: 'error',
      url: finding.url,
      extra: { description: `${finding.severity[0]!.toUpperCase()}${finding.severity.slice(1)}: ${finding.title}`, severity: finding.severity, check: finding.checkId, scan_id: row.id },
    }));
    const counts = result.counts;
    findingEvents.push({
      ...base,
      kind: 'other',
      url: row.url,
      extra: {
        description:
          `Scan completed: grade ${result.grade} (${result.score}/100), ${result.findings.length} finding${result.findings.length === 1 ? '' : 's'} ` +
          `(${counts.critical} critical, ${counts.high} high, ${counts.medium} medium, ${counts.low} low), ${result.pages.length} page${result.pages.length === 1 ? '' : 's'}` +
          (dropped ? `; ${dropped} further requests not listed` : ''),
        scan_id: row.id,
      },
    });

    const totalIssues = result.findings.filter((finding) => finding.severity !== 'info').length;
    const finished = await db.transaction(async (tx) => {
      const [done] = await tx
        .update(scans)
        .set({
          state: 'completed',
          result: result,
          score: result.score,
          grade: result.grade,
          headerGrade: result.headers.grade,
          counts: result.counts,
          progress: { phase: 'done', pagesDone: result.pages.length, pagesTotal: result.pages.length, checksRun: result.passed.length + new Set(result.findings.map((f) => f.checkId)).size, checksTotal: 0, findings: result.findings.length },
          finishedAt: sql`now()`,
          heartbeatAt: null,
        })
        .where(eq(scans.id, row.id))
        .returning();
      // A security report asked for before this scan existed is waiting for it; otherwise the scan makes its own.
      const [waiting] = await tx
        .update(reports)
        .set({ state: 'completed', totalIssues, finishedAt: sql`now()`, progress: null })
        .where(and(eq(reports.scanId, row.id), eq(reports.type, 'security')))
        .returning();
      const [report] = waiting
        ? [waiting]
        : await tx
            .insert(reports)
            .values({ userId: row.userId, projectId: row.projectId, scanId: row.id, type: 'security', url: row.url, state: 'completed', totalIssues, finishedAt: sql`now()` })
            .returning();
      return { done: done!, report: report! };
    });
    await events.record(findingEvents);
    await publishState(finished.done, finished.report.id);
    await live.publish(row.userId, { type: 'report.state', report: reportStatusFor(finished.report, deps.links) }).catch(() => undefined);
    log.info({ grade: result.grade, findings: result.findings.length, ms: result.durationMs }, 'scan completed');
    return 'completed';
  } catch (error) {
    clearInterval(flusher);
    await flush();
    if (signal?.aborted) {
      // The process is stopping: the scan goes back to the queue and runs again, from the start, after a restart.
      await db.update(scans).set({ state: 'queued', heartbeatAt: null }).where(eq(scans.id, row.id));
      await events.record([{ ...base, kind: 'other', url: row.url, extra: { description: 'Scan interrupted by a server restart; it will run again', scan_id: row.id } }]);
      return 'skipped';
    }
    const permanent = error instanceof ScanError || finalAttempt;
    const message = error instanceof ScanError ? error.message : `The scan failed: ${(error as Error).message}`;
    log.warn({ err: error, permanent }, 'scan failed');
    const [failed] = await db
      .update(scans)
      .set({ state: permanent ? 'failed' : 'queued', error: message, heartbeatAt: null, finishedAt: permanent ? sql`now()` : null })
      .where(eq(scans.id, row.id))
      .returning();
    if (failed) await publishState(failed);
    if (permanent) {
      // A security report waiting for this scan fails with it.
      const waiting = await db
        .update(reports)
        .set({ state: 'failed', error: message, finishedAt: sql`now()` })
        .where(and(eq(reports.scanId, row.id), eq(reports.type, 'security'), eq(reports.state, 'queued')))
        .returning();
      for (const report of waiting) await live.publish(report.userId, { type: 'report.state', report: reportStatusFor(report, deps.links) }).catch(() => undefined);
    }
    await events.record([{ ...base, kind: 'error', url: row.url, extra: { description: permanent ? message : `${message} (will retry)`, scan_id: row.id } }]);
    if (!permanent) throw error;
    return 'failed';
  } finally {
    clearInterval(flusher);
    clearInterval(heartbeat);
  }
}
