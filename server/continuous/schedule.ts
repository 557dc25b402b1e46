import { sql, type SQL } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { MonitorSchedule } from '../../common/continuous';
import type { Db } from '../db';
import type { ContinuousService } from './service';

/** The queue of the schedule tick: one pg-boss schedule serves every project (one schedule per queue name). */
export const MONITOR_TICK_QUEUE = 'monitor-tick';
/** Every 5 minutes: a project's scheduled hour gets twelve chances, so a tick lost to a restart costs nothing. */
export const MONITOR_TICK_CRON = '*/5 * * * *';
/** Projects started by one tick; the rest are still due at the next one, five minutes later in the same hour. */
export const MONITOR_TICK_BATCH = 500;
/** How long after its scheduled instant a run may still start (the scheduled hour). */
const FIRE_WINDOW = sql.raw(`interval '1 hour'`);

/**
 * The instant `hour` o'clock on local calendar day `day` in `zone`, as PostgreSQL maps local times: an hour skipped
 * by a daylight saving change maps to the hour after the jump, a repeated one to one of its two occurrences. Both
 * the tick and nextRunAt use it, so the Overview's next run is the instant the tick fires.
 */
const localInstant = (day: SQL, hour: SQL, zone: SQL) => sql`((${day} + make_interval(hours => ${hour})) at time zone ${zone})`;

/** A weekly schedule fires on its weekday only; a daily one on any day. */
const onScheduledDay = (day: SQL, frequency: SQL, weekday: SQL) => sql`(${frequency} = 'daily' or extract(dow from ${day})::int = ${weekday})`;

/** `now` as the tick's clock: the given instant (tests), else the database's, one clock for every server. */
const clock = (now: Date | undefined) => (now ? sql`${now.toISOString()}::timestamptz` : sql`now()`);

/**
 * The next instant `schedule` fires strictly after `now`, computed by PostgreSQL in the schedule's time zone
 * (daylight saving time included); null when it is off.
 */
export async function nextRunAt(db: Db, schedule: MonitorSchedule, now: Date): Promise<Date | null> {
  if (schedule.frequency === 'off') return null;
  const at = clock(now);
  const zone = sql`${schedule.timezone}::text`;
  const day = sql`(((${at} at time zone ${zone})::date) + g.offset_days)`;
  const instant = localInstant(day, sql`${schedule.hour}::int`, zone);
  // Yesterday to eight days ahead covers a weekly schedule whatever the zone's offset.
  const result = await db.execute<{ at: Date | string }>(sql`
    select ${instant} as at
      from generate_series(-1, 8) as g(offset_days)
     where ${onScheduledDay(day, sql`${schedule.frequency}::text`, sql`${schedule.weekday}::int`)}
       and ${instant} > ${at}
     order by 1
     limit 1`);
  const next = result.rows[0]?.at;
  return next === undefined ? null : new Date(next);
}

/** A project whose scheduled run was claimed by a tick, with its previous run's instant to hand back on failure. */
export interface ClaimedProject {
  id: string;
  userId: string;
  url: string;
  previous: Date | null;
}

/**
 * Claims the projects due now and marks them run (monitor_last_at = now) in one statement, so that a project fires
 * once per scheduled hour however many servers tick at once: rows another tick holds are skipped, and a row it has
 * just marked no longer matches. Due = its scheduled instant of today or yesterday (local) has come within the hour
 * and no run was claimed since. Projects whose time zone PostgreSQL does not know are left out rather than failing
 * the statement for everyone.
 */
export async function claimDueProjects(db: Db, now: Date | undefined, limit = MONITOR_TICK_BATCH): Promise<ClaimedProject[]> {
  const at = clock(now);
  const day = sql`(((${at} at time zone z.name)::date) - g.back_days)`;
  const scheduled = localInstant(day, sql`p.monitor_hour::int`, sql`z.name`);
  const result = await db.execute<{ id: string; user_id: string; url: string; previous: Date | string | null }>(sql`
    with due as (
      select p.id, p.monitor_last_at as previous
        from projects p
        join pg_timezone_names z on z.name = p.monitor_timezone
        cross join lateral (
          select ${scheduled} as at
            from generate_series(0, 1) as g(back_days)
           where ${onScheduledDay(day, sql`p.monitor_frequency`, sql`p.monitor_weekday::int`)}
        ) s
       where p.monitor_frequency <> 'off'
         and s.at <= ${at} and ${at} < s.at + ${FIRE_WINDOW}
         and (p.monitor_last_at is null or p.monitor_last_at < s.at)
       order by s.at, p.id
       limit ${limit}
       for update of p skip locked
    )
    update projects p set monitor_last_at = ${at}
      from due
     where p.id = due.id
    returning p.id, p.user_id, p.url, due.previous`);
  return result.rows.map((row) => ({ id: row.id, userId: row.user_id, url: row.url, previous: row.previous === null ? null : new Date(row.previous) }));
}

/** Hands a claimed run back (its build could not be made), so the next tick of the same hour tries again. */
async function releaseClaim(db: Db, project: ClaimedProject): Promise<void> {
  await db.execute(sql`update projects set monitor_last_at = ${project.previous?.toISOString() ?? null}::timestamptz where id = ${project.id}`);
}

export interface MonitorTickDeps {
  db: Db;
  continuous: Pick<ContinuousService, 'scheduledBuild'>;
  logger: Pick<Logger, 'info' | 'warn'>;
}

export interface MonitorTickOutcome {
  /** Projects claimed as due. */
  due: number;
  /** Scheduled builds made (and their re-scans started). */
  built: number;
  /** Builds that failed; their runs were handed back for the next tick. */
  failed: number;
}

/**
 * One tick of the schedule: claims the projects due now and makes a 'schedule' build for each (the build's starter
 * queues its re-scan). A project that fails is logged and handed back; the others go on.
 */
export async function runMonitorTick(deps: MonitorTickDeps, now?: Date, limit = MONITOR_TICK_BATCH): Promise<MonitorTickOutcome> {
  const claimed = await claimDueProjects(deps.db, now, limit);
  let built = 0;
  for (const project of claimed) {
    try {
      await deps.continuous.scheduledBuild(project);
      built++;
    } catch (error) {
      deps.logger.warn({ err: error, project: project.id }, 'scheduled build failed');
      await releaseClaim(deps.db, project).catch((releaseError: Error) => deps.logger.warn({ err: releaseError, project: project.id }, 'could not hand back a scheduled run'));
    }
  }
  const outcome = { due: claimed.length, built, failed: claimed.length - built };
  if (claimed.length) deps.logger.info(outcome, 'scheduled re-scans started');
  if (claimed.length === limit) deps.logger.info({ limit }, 'more projects are due; the next tick takes them');
  return outcome;
}

/**
 * Registers the tick with pg-boss: its queue, the schedule (pg-boss's timekeeper sends one job per cron instant
 * across every process, on the database's clock) and this process's worker. `settle` wraps the work as the job
 * queue wraps every job (see server/jobs/queue.ts).
 */
export async function registerMonitorTick(boss: PgBoss, tick: () => Promise<unknown>, settle: (work: Promise<unknown>) => Promise<void>): Promise<void> {
  // No retry: the next tick, five minutes later, finds whatever is still due.
  await boss.createQueue(MONITOR_TICK_QUEUE, { name: MONITOR_TICK_QUEUE, retryLimit: 0, expireInSeconds: 4 * 60, retentionDays: 1 });
  await boss.schedule(MONITOR_TICK_QUEUE, MONITOR_TICK_CRON, {}, { tz: 'UTC' });
  await boss.work(MONITOR_TICK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 2 }, async ([job]) => {
    if (job) await settle(tick());
  });
}
