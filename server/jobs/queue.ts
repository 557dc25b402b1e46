import PgBoss from 'pg-boss';
import type { QueryResult } from 'pg';
import type { Logger } from 'pino';
import { registerBillingRollover } from '../billing/rollover';
import { registerMonitorTick } from '../continuous/schedule';
import { aloneOnDatabase, isConnectionError, type Database } from '../db';
import { findingRechecks, publicScans, scans, scenarioRuns } from '../db/schema';
import { JOB_LAPSE } from './lapse';
import { LEASE_TIMING, putBackRunning, type LeasedTable } from './lease';

/** Rows that are queued this long without being picked up get their job sent again (e.g. after a restart). */
const REQUEUE_AFTER_SECONDS = 20;
const REAP_EVERY_MS = JOB_LAPSE.reapEveryMs;

/** What a worker of a queue is told: the process is stopping (`signal`), and whether a thrown error is retried. */
export interface JobContext {
  signal: AbortSignal;
  finalAttempt: boolean;
}

/** Runs one job of a queue, by the id of its row; absent from JobsOptions.workers = this process runs none. */
export interface QueueWorker {
  /** Jobs of this queue run at once by this process; 0 = none. */
  concurrency: number;
  run(id: string, context: JobContext): Promise<unknown>;
}

/**
 * Every queue, once: its job's payload, pg-boss's retry and expiry, and, for the jobs whose row records their state,
 * the table leased by the job (put back in the queue when this process stops with the job in flight) and how the
 * reaper finds the rows to send again: running with a heartbeat older than the lapse (the worker died with its
 * process), or queued for longer than REQUEUE_AFTER_SECONDS without a job (lost in a restart). A process works, puts
 * back and reaps only the queues it has a worker for. A new kind of job gets all of this by a line here.
 */
export const QUEUES = {
  scan: { key: 'scanId', retryLimit: 2, retryDelay: 5, expireInSeconds: 30 * 60, leased: scans, recover: { label: 'scans', table: 'scans', queuedSince: 'queued_at' } },
  report: {
    key: 'reportId',
    retryLimit: 2,
    retryDelay: 5,
    expireInSeconds: 30 * 60,
    leased: undefined,
    // Security reports are written by their scan, never run as report jobs.
    recover: { label: 'reports', table: 'reports', queuedSince: 'created_at', only: "type <> 'security'" },
  },
  // Public scans retry more: a mail server that is down for a minute should not lose the report's mail.
  'public-scan': {
    key: 'id',
    retryLimit: 4,
    retryDelay: 10,
    expireInSeconds: 15 * 60,
    leased: publicScans,
    recover: { label: 'public scans', table: 'public_scans', queuedSince: 'created_at' },
  },
  'scenario-run': {
    key: 'runId',
    retryLimit: 2,
    retryDelay: 5,
    expireInSeconds: 30 * 60,
    leased: scenarioRuns,
    recover: { label: 'scenario runs', table: 'scenario_runs', queuedSince: 'created_at' },
  },
  // A check again takes seconds (RECHECK_TIMEOUT_MS at most): one retry, soon, and an expiry well past its timeout.
  recheck: {
    key: 'recheckId',
    retryLimit: 1,
    retryDelay: 2,
    expireInSeconds: 5 * 60,
    leased: findingRechecks,
    recover: { label: 'checks again', table: 'finding_rechecks', queuedSince: 'created_at' },
  },
  // Every attempt claims its delivery first (a duplicate job is harmless); lost ones are found by the deliverer's sweep.
  'webhook-delivery': { key: 'deliveryId', retryLimit: 2, retryDelay: 5, expireInSeconds: 5 * 60, leased: undefined, recover: undefined },
} as const satisfies Record<string, QueueSpec>;

interface QueueSpec {
  /** The payload's one field: the id of the job's row. */
  key: string;
  retryLimit: number;
  retryDelay: number;
  expireInSeconds: number;
  leased: LeasedTable | undefined;
  recover: { label: string; table: string; queuedSince: string; only?: string } | undefined;
}

export type QueueName = keyof typeof QUEUES;
const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

export interface JobsOptions {
  database: Database;
  logger: Logger;
  /** The queues this process works, each with its worker; a queue not listed is only sent to from here. */
  workers: Partial<Record<QueueName, QueueWorker>>;
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
  /** Queues a finding's check again (server/rechecks/job.ts). */
  enqueueRecheck(recheckId: string): Promise<void>;
  /** Queues an attempt of a webhook delivery in `delaySeconds` (its retry's backoff). */
  enqueueWebhookAttempt(deliveryId: string, delaySeconds: number): Promise<void>;
  /** Stops taking jobs; scans in flight are put back in the queue to run again after a restart. */
  stop(): Promise<void>;
}

type Send = (queue: QueueName, id: string, unthrottled?: boolean) => Promise<void>;

/**
 * The job queue (pg-boss on the same PostgreSQL): scans and reports survive restarts, failed jobs are retried, and
 * any number of processes may work the queues (`vibeeval worker` in team mode).
 */
export async function startJobs(options: JobsOptions): Promise<Jobs> {
  const { database, logger } = options;
  const sql = new TrackedSql(database);
  const boss = await startBoss(database, logger, sql, Boolean(options.runMonitorTick ?? options.runBillingRollover));

  const shutdown = new AbortController();
  // pg-boss (10.x) records a job's outcome without awaiting it: if the database is away at that moment the write
  // fails as an unhandled rejection and the outcome is lost. A job that ends while the database is away waits for
  // it to come back, so that its outcome is written. If the process stops first, the job never ends: pg-boss's
  // stop gives up on it after its timeout, and the row is requeued by the reaper of the next start.
  const settled = async (work: Promise<unknown>) => {
    try {
      await work;
    } finally {
      await database.whenUp(shutdown.signal);
      if (database.availability().state !== 'up') await new Promise<never>(() => undefined);
    }
  };
  const send: Send = (queue, id, unthrottled = false) =>
    boss.send(queue, { [QUEUES[queue].key]: id }, unthrottled ? { singletonKey: id } : { singletonKey: id, singletonSeconds: 30 }).then(() => undefined);

  // The rows of leased jobs in flight here, by queue: put back in the queue when this process stops.
  const running = new Map<QueueName, Set<string>>();
  for (const queue of QUEUE_NAMES) {
    const worker = options.workers[queue];
    if (worker && worker.concurrency > 0) running.set(queue, await work(boss, queue, worker, { shutdown: shutdown.signal, settled, database, logger }));
  }

  // Their queues are created here, and pg-boss's queue creation deadlocks when two processes starting together
  // attach queue partitions at once (seen in the team-mode test): they take turns, as createQueues does.
  await aloneOnDatabase(database.url, async () => {
    if (options.runMonitorTick) await registerMonitorTick(boss, options.runMonitorTick, settled);
    if (options.runBillingRollover) await registerBillingRollover(boss, options.runBillingRollover, settled);
  });

  const reaped = [...running.keys()].filter((queue) => QUEUES[queue].recover);
  const reaper = reaped.length ? await startReaper(database, logger, send, reaped) : undefined;

  return {
    enqueueScan: (scanId) => send('scan', scanId),
    enqueueReport: (reportId) => send('report', reportId),
    enqueuePublicScan: (id) => send('public-scan', id),
    enqueueScenarioRun: (runId) => send('scenario-run', runId),
    enqueueRecheck: (recheckId) => send('recheck', recheckId),
    // No singleton key: a duplicate job is harmless, the attempt claims its delivery first.
    enqueueWebhookAttempt: (deliveryId, delaySeconds) => boss.send('webhook-delivery', { deliveryId }, delaySeconds > 0 ? { startAfter: delaySeconds } : {}).then(() => undefined),
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
      // Whatever this process was still running goes back to the queue (another process or the next start runs it).
      for (const [queue, ids] of running) {
        const table = QUEUES[queue].leased;
        if (table) await putBackRunning(database.db, table, [...ids], logger);
      }
    },
  };
}

/**
 * Registers `worker.concurrency` pg-boss workers of one queue; answers the ids of its rows in flight. A leased job cut
 * short by the loss of the database could not record its end: its row goes back to the queue, and pg-boss's retry
 * runs it again now that the database is back.
 */
async function work(
  boss: PgBoss,
  queue: QueueName,
  worker: QueueWorker,
  { shutdown, settled, database, logger }: { shutdown: AbortSignal; settled: (work: Promise<unknown>) => Promise<void>; database: Database; logger: Logger },
): Promise<Set<string>> {
  const { key, leased } = QUEUES[queue];
  const inFlight = new Set<string>();
  for (let i = 0; i < worker.concurrency; i++) {
    await boss.work<Record<string, string>>(queue, { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true }, async ([job]) => {
      if (!job) return;
      const id = job.data[key]!;
      inFlight.add(id);
      try {
        await settled(worker.run(id, { signal: shutdown, finalAttempt: job.retryCount >= job.retryLimit }));
      } catch (error) {
        if (leased && isConnectionError(error)) await putBackRunning(database.db, leased, [id], logger);
        throw error;
      } finally {
        inFlight.delete(id);
      }
    });
  }
  return inFlight;
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

/** pg-boss on the database, its queues created; `schedule`: this process keeps time for the schedules. */
async function startBoss(database: Database, logger: Logger, sql: TrackedSql, schedule: boolean): Promise<PgBoss> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => sql.execute(text, values) },
    schema: 'pgboss',
    // Only processes that work queues keep time for the schedules; pg-boss lets one of them send each tick.
    schedule,
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
  return boss;
}

async function createQueues(boss: PgBoss) {
  for (const name of QUEUE_NAMES) {
    const { retryLimit, retryDelay, expireInSeconds } = QUEUES[name];
    await boss.createQueue(name, { name, retryLimit, retryDelay, retryBackoff: true, expireInSeconds, retentionDays: 7 });
  }
}

/**
 * Jobs orphaned by a worker that died, or left queued without a job, of the queues this process works: their jobs
 * are sent again, every REAP_EVERY_MS and at once when the database comes back after a loss.
 */
/** A reaper pass: jobs queued at least `queuedFor` seconds are sent, `unthrottled` past their key's time slot. */
interface Pass {
  queuedFor: number;
  unthrottled: boolean;
}

async function startReaper(database: Database, logger: Logger, send: Send, queues: QueueName[]) {
  const requeue = async (queue: QueueName, { queuedFor, unthrottled }: Pass) => {
    const recover: QueueSpec['recover'] = QUEUES[queue].recover;
    if (!recover) return;
    const { label, table, queuedSince, only } = recover;
    const { rows } = await database.pool.query<{ id: string }>(
      `select id from ${table}
        where ((state = 'running' and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => $1)))
           or (state = 'queued' and ${queuedSince} < now() - make_interval(secs => $2)))${only ? ` and ${only}` : ''}
        order by ${queuedSince} limit 50`,
      [LEASE_TIMING.staleAfterSeconds, queuedFor],
    );
    for (const { id } of rows) await send(queue, id, unthrottled);
    if (rows.length) logger.info({ [queue]: rows.length }, `requeued interrupted ${label}`);
  };
  const reap = async (pass: Pass) => {
    // Nothing to do while the database is away; the recovery starts a pass.
    if (database.availability().state !== 'up') return;
    for (const queue of queues) await requeue(queue, pass);
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
