import { and, eq, inArray } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db';
import { scans } from '../db/schema';
import { runScanJob, STALE_AFTER_SECONDS, type ScanJobDeps } from './scan-job';

const SCAN_QUEUE = 'scan';
const REPORT_QUEUE = 'report';
const PUBLIC_SCAN_QUEUE = 'public-scan';
/** Public scans retry more: a mail server that is down for a minute should not lose the report's mail. */
const PUBLIC_RETRY_LIMIT = 4;
const RETRY_LIMIT = 2;
/** Scans that are queued this long without being picked up get their job sent again (e.g. after a restart). */
const REQUEUE_AFTER_SECONDS = 20;
const REAP_EVERY_MS = 15_000;

export interface JobsOptions {
  database: Database;
  logger: Logger;
  /** Scans run at once by this process; 0 = this process only queues. */
  scanConcurrency: number;
  scanDeps: ScanJobDeps;
  /** Runs one report job; absent = this process runs no report jobs. */
  runReport?: (reportId: string, signal: AbortSignal) => Promise<void>;
  reportConcurrency?: number;
  /** Runs one public quick scan (scan, then mail); absent = this process runs none. */
  runPublicScan?: (id: string, context: { signal: AbortSignal; finalAttempt: boolean }) => Promise<unknown>;
}

export interface Jobs {
  enqueueScan(scanId: string): Promise<void>;
  enqueueReport(reportId: string): Promise<void>;
  enqueuePublicScan(id: string): Promise<void>;
  /** Stops taking jobs; scans in flight are put back in the queue to run again after a restart. */
  stop(): Promise<void>;
}

/**
 * The job queue (pg-boss on the same PostgreSQL): scans and reports survive restarts, failed jobs are retried, and
 * any number of processes may work the queues (`vibeeval worker` in team mode).
 */
export async function startJobs(options: JobsOptions): Promise<Jobs> {
  const { database, logger } = options;
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => database.pool.query(text, values) },
    schema: 'pgboss',
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: 120,
  });
  boss.on('error', (error) => logger.warn({ err: error }, 'job queue error'));
  await boss.start();
  for (const name of [SCAN_QUEUE, REPORT_QUEUE]) {
    await boss.createQueue(name, { name, retryLimit: RETRY_LIMIT, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 * 60, retentionDays: 7 });
  }
  await boss.createQueue(PUBLIC_SCAN_QUEUE, {
    name: PUBLIC_SCAN_QUEUE,
    retryLimit: PUBLIC_RETRY_LIMIT,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 15 * 60,
    retentionDays: 7,
  });

  const shutdown = new AbortController();
  const running = new Set<string>();
  const send = (queue: string, data: object, key: string) =>
    boss.send(queue, data, { singletonKey: key, singletonSeconds: 30 }).then(() => undefined);

  if (options.scanConcurrency > 0) {
    for (let i = 0; i < options.scanConcurrency; i++) {
      await boss.work<{ scanId: string }>(SCAN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true }, async ([job]) => {
        if (!job) return;
        running.add(job.data.scanId);
        try {
          await runScanJob(job.data.scanId, options.scanDeps, { signal: shutdown.signal, finalAttempt: job.retryCount >= job.retryLimit });
        } finally {
          running.delete(job.data.scanId);
        }
      });
    }
  }
  if (options.runReport) {
    for (let i = 0; i < (options.reportConcurrency ?? 1); i++) {
      await boss.work<{ reportId: string }>(REPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
        if (job) await options.runReport!(job.data.reportId, shutdown.signal);
      });
    }
  }

  if (options.runPublicScan) {
    await boss.work<{ id: string }>(PUBLIC_SCAN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true }, async ([job]) => {
      if (job) await options.runPublicScan!(job.data.id, { signal: shutdown.signal, finalAttempt: job.retryCount >= job.retryLimit });
    });
  }

  // Scans orphaned by a worker that died, or left queued without a job: send their jobs again.
  const reap = async () => {
    const { rows } = await database.pool.query<{ id: string }>(
      `select id from scans
        where (state = 'running' and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => $1)))
           or (state = 'queued' and queued_at < now() - make_interval(secs => $2))
        order by queued_at limit 50`,
      [STALE_AFTER_SECONDS, REQUEUE_AFTER_SECONDS],
    );
    for (const { id } of rows) await send(SCAN_QUEUE, { scanId: id }, id);
    if (rows.length) logger.info({ scans: rows.length }, 'requeued interrupted scans');
    if (!options.runPublicScan) return;
    const { rows: publicRows } = await database.pool.query<{ id: string }>(
      `select id from public_scans
        where (state = 'running' and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => $1)))
           or (state = 'queued' and created_at < now() - make_interval(secs => $2))
        order by created_at limit 50`,
      [STALE_AFTER_SECONDS, REQUEUE_AFTER_SECONDS],
    );
    for (const { id } of publicRows) await send(PUBLIC_SCAN_QUEUE, { id }, id);
    if (publicRows.length) logger.info({ publicScans: publicRows.length }, 'requeued interrupted public scans');
  };
  let reaper: NodeJS.Timeout | undefined;
  if (options.scanConcurrency > 0 || options.runPublicScan) {
    await reap().catch((error: Error) => logger.warn({ err: error }, 'could not requeue scans'));
    reaper = setInterval(() => void reap().catch((error: Error) => logger.warn({ err: error }, 'could not requeue scans')), REAP_EVERY_MS);
    reaper.unref();
  }

  return {
    enqueueScan: (scanId) => send(SCAN_QUEUE, { scanId }, scanId),
    enqueueReport: (reportId) => send(REPORT_QUEUE, { reportId }, reportId),
    enqueuePublicScan: (id) => send(PUBLIC_SCAN_QUEUE, { id }, id),
    async stop() {
      if (reaper) clearInterval(reaper);
      shutdown.abort();
      await boss.stop({ graceful: true, timeout: 10_000, wait: true, close: false }).catch((error: Error) => logger.warn({ err: error }, 'job queue stop failed'));
      // Whatever this process was still scanning goes back to the queue (another process or the next start runs it).
      if (running.size) {
        await options.database.db
          .update(scans)
          .set({ state: 'queued', heartbeatAt: null })
          .where(and(eq(scans.state, 'running'), inArray(scans.id, [...running])))
          .catch(() => undefined);
      }
    },
  };
}
