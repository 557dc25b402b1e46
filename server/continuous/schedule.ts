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
/** How long after its scheduled instant a run may still start: the scheduled hour. */
const FIRE_WINDOW = sql.raw(`interval '1 hour'`);

/**
 * The instant `hour` o'clock on local calendar day `day` in `zone`, as PostgreSQL maps local times: an hour skipped
 * by a daylight saving change maps to the hour after the jump, a repeated one to its second occurrence.
 */
const localInstant = (day: SQL, hour: SQL, zone: SQL) => sql`((${day} + make_interval(hours => ${hour})) at time zone ${zone})`;

/** Daily fires on any day, weekly on its weekday only, monthly on the first of that weekday in the month, 'off' never. */
const onScheduledDay = (day: SQL, frequency: SQL, weekday: SQL) =>
  sql`(${frequency} = 'daily' or (${frequency} in ('weekly', 'monthly') and extract(dow from ${day})::int = ${weekday}
       and (${frequency} = 'weekly' or extract(day from ${day})::int <= 7)))`;

/** A schedule as SQL expressions: bound values for one schedule, or a project row's columns for the tick. */
interface ScheduleSql {
  frequency: SQL;
  hour: SQL;
  weekday: SQL;
  zone: SQL;
}

/**
 * THE definition of when a schedule fires: the first scheduled instant strictly after `after` (null when off). The
 * Overview's next run is this after now; the tick fires a project when this after (now - 1 hour) has come, so the
 * next run shown is the instant the tick fires. `lastDay`: the local days looked at run from the day before `after`'s
 * to `lastDay` days after it; eight cover a weekly schedule whatever the zone's offset (MONTHLY_DAYS a monthly one),
 * and a caller that only asks
 * whether the instant is within a day of `after` may look at fewer (the earliest of fewer days is the same then).
 */
function nextRunSql(after: SQL, schedule: ScheduleSql, lastDay = 8): SQL {
  const day = sql`(((${after} at time zone ${schedule.zone})::date) + g.offset_days)`;
  const instant = localInstant(day, schedule.hour, schedule.zone);
  return sql`(select min(${instant}) from generate_series(-1, ${sql.raw(String(lastDay))}) as g(offset_days)
     where ${onScheduledDay(day, schedule.frequency, schedule.weekday)} and ${instant} > ${after})`;
}

/**
 * The first Monday of a month can be 35 days after the previous month's (March 2 to April 6), one more for the zone's
 * offset: 37 days find the next run of a monthly schedule wherever `after` falls.
 */
const MONTHLY_DAYS = 37;

/** `now` as the tick's clock: the given instant (tests), else the database's, one clock for every server. */
const clock = (now: Date | undefined) => (now ? sql`${now.toISOString()}::timestamptz` : sql`now()`);

/**
 * The tick asks only whether a project's next run after an hour ago has come, so the local days up to the one after
 * that hour's suffice (a later day's instant is more than a day away): about 4x less work per project than a week.
 */
const CLAIM_DAYS = 1;

/** How long the time zones PostgreSQL knows are kept: they change only when its time zone data is upgraded. */
const ZONES_TTL_MS = 24 * 3600_000;
const zoneCache = new WeakMap<Db, { names: Promise<string[]>; at: number }>();

/**
 * The time zone names PostgreSQL knows, read once a day per database: pg_timezone_names reads every zone file
 * (about 50 ms), too much to repeat at each tick. A zone reaches the time arithmetic only through a join on these,
 * so a zone PostgreSQL does not know (its time zone data older than the browser's) never fails a statement.
 */
function knownZones(db: Db): Promise<string[]> {
  const cached = zoneCache.get(db);
  if (cached && Date.now() - cached.at < ZONES_TTL_MS) return cached.names;
  const names = db.execute<{ name: string }>(sql`select name from pg_timezone_names`).then((result) => result.rows.map((row) => row.name));
  zoneCache.set(db, { names, at: Date.now() });
  names.catch(() => zoneCache.delete(db));
  return names;
}

/**
 * The next instant `schedule` fires strictly after `now`, computed by PostgreSQL in the schedule's time zone
 * (daylight saving time included); null when it is off or its zone is unknown to PostgreSQL (the tick never fires it).
 */
export async function nextScheduledRun(db: Db, schedule: MonitorSchedule, now: Date): Promise<Date | null> {
  if (schedule.frequency === 'off') return null;
  const zones = JSON.stringify(await knownZones(db));
  const next = nextRunSql(
    clock(now),
    {
      frequency: sql`${schedule.frequency}::text`,
      hour: sql`${schedule.hour}::int`,
      weekday: sql`${schedule.weekday}::int`,
      zone: sql`z.name`,
    },
    schedule.frequency === 'monthly' ? MONTHLY_DAYS : undefined,
  );
  const result = await db.execute<{ at: Date | string | null }>(sql`
    select ${next} as at from json_array_elements_text(${zones}::json) as z(name) where z.name = ${schedule.timezone}`);
  const at = result.rows[0]?.at;
  return at === undefined || at === null ? null : new Date(at);
}

/** A project whose scheduled run was claimed by a tick, with its previous run's instant to hand back on failure. */
export interface ClaimedProject {
  id: string;
  userId: string;
  workspaceId: string;
  url: string;
  previous: Date | null;
}

/**
 * Claims the projects due now and marks them run (monitor_last_at = now) in one statement, so that a project fires
 * once per scheduled hour however many servers tick at once: rows another tick holds are skipped, and a row it has
 * just marked no longer matches. Due = its scheduled instant (nextRunSql after an hour ago) has come, and no run was
 * claimed since. Projects whose time zone PostgreSQL does not know are left out rather than failing the statement.
 */
export async function claimDueProjects(db: Db, now: Date | undefined, limit = MONITOR_TICK_BATCH): Promise<ClaimedProject[]> {
  const at = clock(now);
  const zones = JSON.stringify(await knownZones(db));
  const scheduled = nextRunSql(
    sql`(${at} - ${FIRE_WINDOW})`,
    {
      frequency: sql`p.monitor_frequency`,
      hour: sql`p.monitor_hour::int`,
      weekday: sql`p.monitor_weekday::int`,
      zone: sql`z.name`,
    },
    CLAIM_DAYS,
  );
  const result = await db.execute<{ id: string; user_id: string; workspace_id: string; url: string; previous: Date | string | null }>(sql`
    with due as (
      select p.id, p.monitor_last_at as previous
        from projects p
        join json_array_elements_text(${zones}::json) as z(name) on z.name = p.monitor_timezone
        cross join lateral (select ${scheduled} as at) s
       where p.monitor_frequency <> 'off'
         and s.at <= ${at}
         and (p.monitor_last_at is null or p.monitor_last_at < s.at)
       order by s.at, p.id
       limit ${limit}
       for update of p skip locked
    )
    update projects p set monitor_last_at = ${at}
      from due
     where p.id = due.id
    returning p.id, p.user_id, p.workspace_id, p.url, due.previous`);
  return result.rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    url: row.url,
    previous: row.previous === null ? null : new Date(row.previous),
  }));
}

/** Hands a claimed run back (its build could not be made), so the next tick of the same hour tries again. */
async function releaseClaim(db: Db, project: ClaimedProject): Promise<void> {
  await db.execute(sql`update projects set monitor_last_at = ${project.previous?.toISOString() ?? null}::timestamptz where id = ${project.id}`);
}

export interface MonitorTickDeps {
  db: Db;
  continuous: Pick<ContinuousService, 'scheduledBuild'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Judges builds whose scan ended unjudged (a process stopped in between); each tick catches up on them. */
  builds?: { judgeMissed(): Promise<number> };
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
  const missed = await deps.builds?.judgeMissed().catch((error: Error) => (deps.logger.warn({ err: error }, 'could not judge the builds left waiting'), 0));
  if (missed) deps.logger.info({ scans: missed }, 'builds left waiting by a stopped process judged');
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
