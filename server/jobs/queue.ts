import { and, eq, inArray } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { QueryResult } from 'pg';
import type { Logger } from 'pino';
import { registerBillingRollover } from '../billing/rollover';
import { registerMonitorTick } from '../continuous/schedule';
import { aloneOnDatabase, isConnectionError, type Database } from '../db';
import { scans, scenarioRuns } from '../db/schema';
import { JOB_LAPSE } from './lapse';
import { REPORT_STALE_AFTER_SECONDS } from './report-job';
import { LEASE_TIMING } from './lease';
import { runScanJob, type ScanJobDeps } from './scan-job';

const SCAN_QUEUE = 'scan';
const REPORT_QUEUE = 'report';
const PUBLIC_SCAN_QUEUE = 'public-scan';
const SCENARIO_RUN_QUEUE = 'scenario-run';
const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
/** Public scans retry more: a mail server that is down for a minute should not lose the report's mail. */
const PUBLIC_RETRY_LIMIT = 4;
const RETRY_LIMIT = 2;
/** Scans that are queued this long without being picked up get their job sent again (e.g. after a restart). */
const REQUEUE_AFTER_SECONDS = 20;
const REAP_EVERY_MS = JOB_LAPSE.reapEveryMs;

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
  /** Scenario runs this process runs at once; 0 or absent = none. */
  scenarioConcurrency?: number;
  /** Runs one scenario run; needed when scenarioConcurrency > 0. */
  runScenario?: (runId: string, context: { signal: AbortSignal; finalAttempt: boolean }) => Promise<unknown>;
  /** Makes one attempt of a webhook delivery (server/webhooks/delivery.ts); absent = this process makes none. */
  runWebhookAttempt?: (deliveryId: string) => Promise<unknown>;
  /** Runs one tick of the projects' scheduled re-scans (server/continuous/schedule.ts); absent = this process keeps no schedules. */
  runMonitorTick?: () => Promise<unknown>;
  /** Ends the billing periods that are over (server/billing/rollover.ts); absent = this process keeps no periods. */
  runBillingRollover?: () => Promise<unknown>;
}

export interface Jobs {
  enqueueScan(scanId: string): Promise<void>;
  enqueueReport(reportId: string): Promise<void>;
  enqueuePublicScan(id: string): Promise<void>;
  enqueueScenarioRun(runId: string): Promise<void>;
  /** Queues an attempt of a webhook delivery in `delaySeconds` (its retry's backoff). */
  enqueueWebhookAttempt(deliveryId: string, delaySeconds: number): Promise<void>;
  /** Stops taking jobs; scans in flight are put back in the queue to run again after a restart. */
  stop(): Promise<void>;
}

/**
 * The job queue (pg-boss on the same PostgreSQL): scans and reports survive restarts, failed jobs are retried, and
 * any number of processes may work the queues (`vibeeval worker` in team mode).
 */
export async function startJobs(options: JobsOptions): Promise<Jobs> {
  const { database, logger } = options;
  const sql = new TrackedSql(database);
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => sql.execute(text, values) },
    schema: 'pgboss',
    // Only processes that work queues keep time for the schedules; pg-boss lets one of them send each tick.
    schedule: Boolean(options.runMonitorTick ?? options.runBillingRollover),
    supervise: true,
    maintenanceIntervalSeconds: 120,
  });
  // While the database is away every poll fails: that is expected, and the supervisor already reports it.
  boss.on('error', (error) => logger[database.availability().state === 'up' && !isConnectionError(error) ? 'warn' : 'debug']({ err: error }, 'job queue error'));
  try {
    // Processes starting together take turns: pg-boss's first install races on its schema, and its queue
    // creation deadlocks when two processes attach queue partitions at once.
    await aloneOnDatabase(database.url, async () => {
      await boss.start();
      await createQueues(boss);
    });
  } catch (error) {
    // A failed start must not leave pg-boss's timers holding the process open.
    await boss.stop({ graceful: false, wait: true, close: false }).catch(() => undefined);
    throw error;
  }

  const shutdown = new AbortController();
  const running = new Set<string>();
  // pg-boss (10.x) records a job's outcome without awaiting it: if the database is away at that moment the write
  // fails as an unhandled rejection and the outcome is lost. A job that ends while the database is away waits for
  // it to come back, so that its outcome is written. If the process stops first, the job never ends: pg-boss's
  // stop gives up on it after its timeout, and the scan is requeued by the reaper of the next start.
  const settled = async (work: Promise<unknown>) => {
    try {
      await work;
    } finally {
      await database.whenUp(shutdown.signal);
      if (database.availability().state !== 'up') await new Promise<never>(() => undefined);
    }
  };
  const putBack = (scanIds: string[]) =>
    database.db
      .update(scans)
      .set({ state: 'queued', heartbeatAt: null })
      .where(and(eq(scans.state, 'running'), inArray(scans.id, scanIds)))
      .then(
        () => undefined,
        (error: Error) => logger.warn({ err: error, scans: scanIds }, 'could not put scans back in the queue'),
      );
  const runningRuns = new Set<string>();
  const putBackRuns = (runIds: string[]) =>
    database.db
      .update(scenarioRuns)
      .set({ state: 'queued', heartbeatAt: null })
      .where(and(eq(scenarioRuns.state, 'running'), inArray(scenarioRuns.id, runIds)))
      .then(
        () => undefined,
        (error: Error) => logger.warn({ err: error, runs: runIds }, 'could not put scenario runs back in the queue'),
      );
  const send = (queue: string, data: object, key: string, unthrottled = false) =>
    boss.send(queue, data, unthrottled ? { singletonKey: key } : { singletonKey: key, singletonSeconds: 30 }).then(() => undefined);

  if (options.scanConcurrency > 0) {
    for (let i = 0; i < options.scanConcurrency; i++) {
      await boss.work<{ scanId: string }>(SCAN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true }, async ([job]) => {
        if (!job) return;
        running.add(job.data.scanId);
        try {
          await settled(runScanJob(job.data.scanId, options.scanDeps, { signal: shutdown.signal, finalAttempt: job.retryCount >= job.retryLimit }));
        } catch (error) {
          // A scan cut short by the loss of the database could not record its end: it goes back to the queue, and
          // pg-boss's retry runs it again now that the database is back.
          if (isConnectionError(error)) await putBack([job.data.scanId]);
          throw error;
        } finally {
          running.delete(job.data.scanId);
        }
      });
    }
  }
  if (options.runReport) {
    for (let i = 0; i < (options.reportConcurrency ?? 1); i++) {
      await boss.work<{ reportId: string }>(REPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
        if (job) await settled(options.runReport!(job.data.reportId, shutdown.signal));
      });
    }
  }

  if (options.runPublicScan) {
    await boss.work<{ id: string }>(PUBLIC_SCAN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true }, async ([job]) => {
      if (job) await settled(options.runPublicScan!(job.data.id, { signal: shutdown.signal, finalAttempt: job.retryCount >= job.retryLimit }));
    });
  }

  const scenarioWorkers = options.runScenario ? (options.scenarioConcurrency ?? 0) : 0;
  for (let i = 0; i < scenarioWorkers; i++) {
    await boss.work<{ runId: string }>(SCENARIO_RUN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true }, async ([job]) => {
      if (!job) return;
      runningRuns.add(job.data.runId);
      try {
        await settled(options.runScenario!(job.data.runId, { signal: shutdown.signal, finalAttempt: job.retryCount >= job.retryLimit }));
      } catch (error) {
        if (isConnectionError(error)) await putBackRuns([job.data.runId]);
        throw error;
      } finally {
        runningRuns.delete(job.data.runId);
      }
    });
  }

  if (options.runWebhookAttempt) {
    // Attempts are short (bounded by the delivery timeout) and mostly waiting on the network: a few at once.
    for (let i = 0; i < 4; i++) {
      await boss.work<{ deliveryId: string }>(WEBHOOK_DELIVERY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
        if (job) await settled(options.runWebhookAttempt!(job.data.deliveryId));
      });
    }
  }

  // Their queues are created here, and pg-boss's queue creation deadlocks when two processes starting together
  // attach queue partitions at once (seen in the team-mode test): they take turns, as createQueues does.
  await aloneOnDatabase(database.url, async () => {
    if (options.runMonitorTick) await registerMonitorTick(boss, options.runMonitorTick, settled);
    if (options.runBillingRollover) await registerBillingRollover(boss, options.runBillingRollover, settled);
  });

  const works: Record<RecoverableKind, boolean> = {
    scenarioRuns: scenarioWorkers > 0,
    scans: options.scanConcurrency > 0 || Boolean(options.runPublicScan),
    publicScans: Boolean(options.runPublicScan),
    reports: Boolean(options.runReport),
  };
  const reaper = Object.values(works).some(Boolean) ? await startReaper(database, logger, send, works) : undefined;

  return {
    enqueueScan: (scanId) => send(SCAN_QUEUE, { scanId }, scanId),
    enqueueReport: (reportId) => send(REPORT_QUEUE, { reportId }, reportId),
    enqueuePublicScan: (id) => send(PUBLIC_SCAN_QUEUE, { id }, id),
    enqueueScenarioRun: (runId) => send(SCENARIO_RUN_QUEUE, { runId }, runId),
    // No singleton key: a duplicate job is harmless, the attempt claims its delivery first.
    enqueueWebhookAttempt: (deliveryId, delaySeconds) => boss.send(WEBHOOK_DELIVERY_QUEUE, { deliveryId }, delaySeconds > 0 ? { startAfter: delaySeconds } : {}).then(() => undefined),
    async stop() {
      shutdown.abort();
      await reaper?.stop();
      // With the database away, nothing in flight can record its end: no point waiting for it.
      const timeout = database.availability().state === 'up' ? 10_000 : 1_000;
      await boss.stop({ graceful: true, timeout, wait: true, close: false }).catch((error: Error) => logger.warn({ err: error }, 'job queue stop failed'));
      // pg-boss records a job's outcome without awaiting it: the write may still be on its way once its worker has
      // stopped. The caller closes the pool next, so let those writes land first.
      await sql.drain(timeout);
      sql.close();
      // Whatever this process was still scanning goes back to the queue (another process or the next start runs it).
      if (running.size) await putBack([...running]);
      if (runningRuns.size) await putBackRuns([...runningRuns]);
    },
  };
}

/** pg-boss's queries, with those still on their way known, so that a stop can wait for them. */
class TrackedSql {
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly database: Database) {}

  #closed = false;

  execute(text: string, values: unknown[]): Promise<QueryResult> {
    // After the stop, a job that outlived it still has its outcome written by pg-boss, to a pool about to close and
    // with nobody to hear the error: dropped (its row was put back, and the next start's reaper sends it again).
    if (this.#closed) return new Promise<never>(() => undefined);
    const query = this.database.pool.query(text, values);
    const done: Promise<void> = query.then(
      () => void this.#pending.delete(done),
      () => void this.#pending.delete(done),
    );
    this.#pending.add(done);
    return query;
  }

  close(): void {
    this.#closed = true;
  }

  /** Waits for the queries on their way (and any they lead to), at most `withinMs`. */
  async drain(withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (this.#pending.size && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadline - Date.now())));
      await Promise.race([Promise.all(this.#pending), late]);
      clearTimeout(timer);
    }
  }
}

async function createQueues(boss: PgBoss) {
  for (const name of [SCAN_QUEUE, REPORT_QUEUE, SCENARIO_RUN_QUEUE]) {
    await boss.createQueue(name, { name, retryLimit: RETRY_LIMIT, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 * 60, retentionDays: 7 });
  }
  await boss.createQueue(WEBHOOK_DELIVERY_QUEUE, { name: WEBHOOK_DELIVERY_QUEUE, retryLimit: RETRY_LIMIT, retryDelay: 5, retryBackoff: true, expireInSeconds: 5 * 60, retentionDays: 7 });
  await boss.createQueue(PUBLIC_SCAN_QUEUE, {
    name: PUBLIC_SCAN_QUEUE,
    retryLimit: PUBLIC_RETRY_LIMIT,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 15 * 60,
    retentionDays: 7,
  });
}

type RecoverableKind = 'scenarioRuns' | 'scans' | 'publicScans' | 'reports';

/**
 * Every kind of job whose row records its state, and how to find the ones to send again: running with a heartbeat
 * older than the kind's lapse (the worker died with its process), or queued for longer than REQUEUE_AFTER_SECONDS
 * without a job (lost in a restart). One table: a new kind of job gets its recovery by a line here.
 */
const RECOVERABLE: Record<RecoverableKind, { label: string; queue: string; table: string; state: string; queuedSince: string; only?: string; data: (id: string) => object; staleAfter: number }> = {
  scenarioRuns: { label: 'scenario runs', queue: SCENARIO_RUN_QUEUE, table: 'scenario_runs', state: 'state', queuedSince: 'created_at', data: (runId) => ({ runId }), staleAfter: LEASE_TIMING.staleAfterSeconds },
  scans: { label: 'scans', queue: SCAN_QUEUE, table: 'scans', state: 'state', queuedSince: 'queued_at', data: (scanId) => ({ scanId }), staleAfter: LEASE_TIMING.staleAfterSeconds },
  publicScans: { label: 'public scans', queue: PUBLIC_SCAN_QUEUE, table: 'public_scans', state: 'state', queuedSince: 'created_at', data: (id) => ({ id }), staleAfter: LEASE_TIMING.staleAfterSeconds },
  // Security reports are written by their scan, never run as report jobs.
  reports: { label: 'reports', queue: REPORT_QUEUE, table: 'reports', state: 'state', queuedSince: 'created_at', only: "type <> 'security'", data: (reportId) => ({ reportId }), staleAfter: REPORT_STALE_AFTER_SECONDS },
};

/**
 * Jobs orphaned by a worker that died, or left queued without a job, of the kinds this process works: their jobs
 * are sent again, every REAP_EVERY_MS and at once when the database comes back after a loss.
 */
/** A reaper pass: jobs queued at least `queuedFor` seconds are sent, `unthrottled` past their key's time slot. */
interface Pass {
  queuedFor: number;
  unthrottled: boolean;
}

async function startReaper(database: Database, logger: Logger, send: (queue: string, data: object, key: string, unthrottled: boolean) => Promise<void>, works: Record<RecoverableKind, boolean>) {
  const requeue = async (kind: RecoverableKind, { queuedFor, unthrottled }: Pass) => {
    const { label, queue, table, state, queuedSince, only, data, staleAfter } = RECOVERABLE[kind];
    const { rows } = await database.pool.query<{ id: string }>(
      `select id from ${table}
        where ((${state} = 'running' and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => $1)))
           or (${state} = 'queued' and ${queuedSince} < now() - make_interval(secs => $2)))${only ? ` and ${only}` : ''}
        order by ${queuedSince} limit 50`,
      [staleAfter, queuedFor],
    );
    for (const { id } of rows) await send(queue, data(id), id, unthrottled);
    if (rows.length) logger.info({ [kind]: rows.length }, `requeued interrupted ${label}`);
  };
  const reap = async (pass: Pass) => {
    // Nothing to do while the database is away; the recovery starts a pass.
    if (database.availability().state !== 'up') return;
    for (const kind of Object.keys(RECOVERABLE) as RecoverableKind[]) if (works[kind]) await requeue(kind, pass);
  };
  let inFlight: Promise<void> | undefined;
  const pass = (which: Pass = { queuedFor: REQUEUE_AFTER_SECONDS, unthrottled: false }) =>
    (inFlight ??= reap(which)
      .catch((error: Error) => logger[database.availability().state === 'up' ? 'warn' : 'debug']({ err: error }, 'could not requeue interrupted jobs'))
      .finally(() => (inFlight = undefined)));
  // At start every queued job is sent at once, however recently it was queued: a job put back by the stop that
  // came before this start (a restart, an update) runs now rather than a reaper lapse later. Its first job may still
  // hold the singleton key's time slot (pg-boss keeps it active until it expires), so this send is not throttled by
  // the key; a second job for a row that another job has already claimed or finished finds nothing to claim, so an
  // extra send never runs a job twice.
  await pass({ queuedFor: 0, unthrottled: true });
  const timer = setInterval(() => void pass(), REAP_EVERY_MS);
  timer.unref();
  const offRecovered = database.onRecovered(() => void pass());
  return {
    /** Stops the passes and waits for one in progress, which uses the database that closes next. */
    async stop() {
      clearInterval(timer);
      offRecovered();
      await inFlight;
    },
  };
}
