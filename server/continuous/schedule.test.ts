import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { continuousBuildSchema, type MonitorSchedule } from '../../common/continuous';
import type { Database } from '../db';
import { openFreshDatabase } from '../testing/fresh-database';
import { continuousBuilds, projects } from '../db/schema';
import { signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { personalWorkspace } from '../testing/workspace-rows';
import { claimDueProjects, MONITOR_TICK_CRON, MONITOR_TICK_QUEUE, nextScheduledRun, runMonitorTick, type MonitorTickDeps } from './schedule';
import { ContinuousService } from './service';

// The schedule tick against a real PostgreSQL with an injected clock (which projects are due, once per scheduled
// hour, across daylight saving changes and concurrent ticks), then the whole path in a running server: the pg-boss
// schedule registered, a tick job as its cron sends it, and the scheduled build in GET /continuous_builds.

let database: Database;
let continuous: ContinuousService;
const logs: { level: 'info' | 'warn'; fields: object; message: string }[] = [];
const logger: MonitorTickDeps['logger'] = {
  info: ((fields: object, message: string) => void logs.push({ level: 'info', fields, message })) as MonitorTickDeps['logger']['info'],
  warn: ((fields: object, message: string) => void logs.push({ level: 'warn', fields, message })) as MonitorTickDeps['logger']['warn'],
};

beforeAll(async () => {
  database = await openFreshDatabase();
  continuous = new ContinuousService(database.db);
}, 60_000);

afterAll(async () => {
  await database?.close();
});

// Each test's schedules are the only ones on: a build made by a tick is the test's own.
beforeEach(async () => {
  await database.db.update(projects).set({ monitorFrequency: 'off' });
});

type Schedule = Omit<MonitorSchedule, 'weekday'> & { weekday?: number };

/** A project of a user of its own (nothing else due shares its builds), with the given schedule. */
async function scheduled({ frequency, hour, weekday = 1, timezone }: Schedule): Promise<string> {
  const userId = await personalWorkspace(database.pool, randomUUID());
  const [row] = await database.db
    .insert(projects)
    .values({ userId, workspaceId: userId, url: 'https://shop.example', monitorFrequency: frequency, monitorHour: hour, monitorWeekday: weekday, monitorTimezone: timezone })
    .returning({ id: projects.id });
  return row!.id;
}

const tick = (at: string, deps: Partial<MonitorTickDeps> = {}, limit?: number) => runMonitorTick({ db: database.db, continuous, logger, ...deps }, new Date(at), limit);

async function buildsOf(projectId: string) {
  return database.db.select().from(continuousBuilds).where(eq(continuousBuilds.projectId, projectId)).orderBy(continuousBuilds.createdAt);
}

/**
 * Ticks every `stepMinutes` from `from` (inclusive) to `to` (exclusive), as the cron does; the instants that made a
 * build. Each test turns the schedules of the tests before it off, so every build is its own project's.
 */
async function tickThrough(from: string, to: string, stepMinutes = 5): Promise<string[]> {
  const fired: string[] = [];
  for (let at = Date.parse(from); at < Date.parse(to); at += stepMinutes * 60_000) {
    const { built } = await tick(new Date(at).toISOString());
    for (let i = 0; i < built; i++) fired.push(new Date(at).toISOString());
  }
  return fired;
}

const lastAt = async (projectId: string) => (await database.db.select({ at: projects.monitorLastAt }).from(projects).where(eq(projects.id, projectId)))[0]?.at ?? null;

describe('the schedule tick', () => {
  it('fires a daily schedule at its hour in Europe/Berlin, not an hour before, and once in that hour', async () => {
    // 9:00 in Berlin is 08:00 UTC in winter (CET) and 07:00 UTC in summer (CEST).
    const id = await scheduled({ frequency: 'daily', hour: 9, timezone: 'Europe/Berlin' });
    expect(await tickThrough('2026-07-01T05:00:00Z', '2026-07-01T12:00:00Z')).toEqual(['2026-07-01T07:00:00.000Z']);
    expect(await tickThrough('2026-11-25T06:00:00Z', '2026-11-25T12:00:00Z')).toEqual(['2026-11-25T08:00:00.000Z']);
    const builds = await buildsOf(id);
    expect(builds.map((build) => build.trigger)).toEqual(['schedule', 'schedule']);
    // Before the first report there is no hash yet: the scheduled build carries the placeholder.
    expect(builds[0]!.buildHash).toBe('00000000');
    expect((await lastAt(id))?.toISOString()).toBe('2026-11-25T08:00:00.000Z');
  });

  it('makes nothing at a second tick in the same hour', async () => {
    const id = await scheduled({ frequency: 'daily', hour: 14, timezone: 'UTC' });
    expect(await tick('2026-11-25T14:20:00Z')).toMatchObject({ built: 1 });
    expect(await tick('2026-11-25T14:25:00Z')).toMatchObject({ due: 0, built: 0 });
    expect(await tick('2026-11-25T14:59:59Z')).toMatchObject({ due: 0 });
    expect(await buildsOf(id)).toHaveLength(1);
  });

  it('fires a weekly schedule on its weekday only', async () => {
    // Wednesdays (3) at 23:00 in New York: Thursday 04:00 UTC in winter, so the local weekday is the one that counts.
    const id = await scheduled({ frequency: 'weekly', hour: 23, weekday: 3, timezone: 'America/New_York' });
    expect(await buildsOf(id)).toHaveLength(0);
    expect(await tickThrough('2026-11-25T00:00:00Z', '2026-12-04T00:00:00Z', 60)).toEqual(['2026-11-26T04:00:00.000Z', '2026-12-03T04:00:00.000Z']);
  });

  it("never fires a schedule that is 'off'", async () => {
    const id = await scheduled({ frequency: 'off', hour: 10, timezone: 'UTC' });
    expect(await tickThrough('2026-11-25T00:00:00Z', '2026-11-27T00:00:00Z', 60)).toEqual([]);
    expect(await lastAt(id)).toBeNull();
  });

  it('makes one build when two ticks run at once', async () => {
    const id = await scheduled({ frequency: 'daily', hour: 6, timezone: 'Asia/Tokyo' });
    const outcomes = await Promise.all([tick('2026-11-24T21:05:00Z'), tick('2026-11-24T21:05:00Z'), tick('2026-11-24T21:06:00Z')]);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.built, 0)).toBe(1);
    expect(await buildsOf(id)).toHaveLength(1);
  });

  it('skips a project deleted between ticks', async () => {
    const kept = await scheduled({ frequency: 'daily', hour: 3, timezone: 'UTC' });
    const gone = await scheduled({ frequency: 'daily', hour: 3, timezone: 'UTC' });
    await database.db.delete(projects).where(eq(projects.id, gone));
    await tick('2026-11-26T03:00:00Z');
    expect(await buildsOf(kept)).toHaveLength(1);
    expect(await buildsOf(gone)).toHaveLength(0);
  });

  it('goes on past a failing project, hands its run back and makes it at the next tick', async () => {
    const failing = await scheduled({ frequency: 'daily', hour: 4, timezone: 'UTC' });
    const fine = await scheduled({ frequency: 'daily', hour: 4, timezone: 'UTC' });
    // The project disappears after the tick claimed it: its build fails on the missing row, as with a lost database.
    const flaky: MonitorTickDeps['continuous'] = {
      scheduledBuild: async (project) => {
        if (project.id === failing) throw new Error('the database went away');
        return continuous.scheduledBuild(project);
      },
    };
    logs.length = 0;
    expect(await tick('2026-11-26T04:00:00Z', { continuous: flaky })).toMatchObject({ built: 1, failed: 1 });
    expect(await buildsOf(fine)).toHaveLength(1);
    expect(await lastAt(failing)).toBeNull();
    expect(logs.find((entry) => entry.level === 'warn')).toMatchObject({ fields: { project: failing }, message: 'scheduled build failed' });
    expect(logs.find((entry) => entry.level === 'info')).toMatchObject({ fields: { due: 2, built: 1, failed: 1 } });
    expect(await tick('2026-11-26T04:05:00Z')).toMatchObject({ due: 1, built: 1 });
    expect(await buildsOf(failing)).toHaveLength(1);
    expect(await buildsOf(fine)).toHaveLength(1);
  });

  it('leaves out a project whose time zone PostgreSQL does not know, without failing the others', async () => {
    const known = await scheduled({ frequency: 'daily', hour: 5, timezone: 'UTC' });
    const unknown = await scheduled({ frequency: 'daily', hour: 5, timezone: 'UTC' });
    await database.db.update(projects).set({ monitorTimezone: 'Mars/Olympus_Mons' }).where(eq(projects.id, unknown));
    await tick('2026-11-26T05:00:00Z');
    expect(await buildsOf(known)).toHaveLength(1);
    expect(await buildsOf(unknown)).toHaveLength(0);
  });

  it('starts at most a batch per tick, the rest at the next tick of the hour', async () => {
    const ids = await Promise.all([0, 1, 2].map(() => scheduled({ frequency: 'daily', hour: 7, timezone: 'UTC' })));
    expect(await tick('2026-11-26T07:00:00Z', {}, 2)).toMatchObject({ due: 2, built: 2 });
    expect(await tick('2026-11-26T07:05:00Z', {}, 2)).toMatchObject({ due: 1, built: 1 });
    for (const id of ids) expect(await buildsOf(id)).toHaveLength(1);
  });

  it('fires once on the days daylight saving time starts and ends, even at an hour the change skips or repeats', async () => {
    // Every scheduled instant is on the hour, so ticks every 30 minutes see them all (5 minutes is tested above).
    // Berlin: 2026-03-29 02:00 CET jumps to 03:00 CEST (01:00 UTC); 2026-10-25 03:00 CEST falls back to 02:00 CET.
    const skipped = await scheduled({ frequency: 'daily', hour: 2, timezone: 'Europe/Berlin' });
    // The skipped 02:00 runs at the first instant after the jump, 03:00 CEST.
    expect(await tickThrough('2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z', 30)).toEqual(['2026-03-28T01:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:00:00.000Z']);
    expect(await buildsOf(skipped)).toHaveLength(3);
    await database.db.update(projects).set({ monitorFrequency: 'off' }).where(eq(projects.id, skipped));
    const repeated = await scheduled({ frequency: 'daily', hour: 2, timezone: 'Europe/Berlin' });
    // The repeated 02:00 runs once, at its second occurrence (02:00 CET).
    expect(await tickThrough('2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z', 30)).toEqual(['2026-10-24T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-26T01:00:00.000Z']);
    expect(await buildsOf(repeated)).toHaveLength(3);
  }, 20_000);

  it('claims with the database clock when no instant is given', async () => {
    const { rows } = await database.pool.query<{ hour: number }>(`select extract(hour from now() at time zone 'UTC')::int as hour`);
    const id = await scheduled({ frequency: 'daily', hour: rows[0]!.hour, timezone: 'UTC' });
    const claimed = await claimDueProjects(database.db, undefined);
    // Unless the hour turned between the two statements, the project is due now.
    if (claimed.length) expect(claimed.map((project) => project.id)).toContain(id);
    else expect((await database.pool.query<{ hour: number }>(`select extract(hour from now() at time zone 'UTC')::int as hour`)).rows[0]!.hour).not.toBe(rows[0]!.hour);
  });
});

describe("nextScheduledRun (the Overview's next run)", () => {
  const next = async (schedule: MonitorSchedule, now: string) => (await nextScheduledRun(database.db, schedule, new Date(now)))?.toISOString() ?? null;

  it('follows the local hour across daylight saving changes', async () => {
    const daily: MonitorSchedule = { frequency: 'daily', hour: 9, weekday: 0, timezone: 'Europe/Berlin' };
    expect(await next(daily, '2026-03-28T12:00:00Z')).toBe('2026-03-29T07:00:00.000Z');
    expect(await next(daily, '2026-03-28T07:59:59Z')).toBe('2026-03-28T08:00:00.000Z');
    expect(await next(daily, '2026-10-24T12:00:00Z')).toBe('2026-10-25T08:00:00.000Z');
    expect(await next(daily, '2026-10-25T08:00:00Z')).toBe('2026-10-26T08:00:00.000Z');
    // New York changes on other dates (2026-03-08, 2026-11-01).
    const weekly: MonitorSchedule = { frequency: 'weekly', hour: 23, weekday: 0, timezone: 'America/New_York' };
    expect(await next(weekly, '2026-03-02T12:00:00Z')).toBe('2026-03-09T03:00:00.000Z');
    expect(await next(weekly, '2026-03-09T03:00:00Z')).toBe('2026-03-16T03:00:00.000Z');
    expect(await next(weekly, '2026-10-30T12:00:00Z')).toBe('2026-11-02T04:00:00.000Z');
  });

  it('runs a monthly schedule on the first of its weekday in each month, however far that is', async () => {
    // The first Monday: March 2, April 6 (35 days later), May 4 (2026); 09:00 in Berlin.
    const monthly: MonitorSchedule = { frequency: 'monthly', hour: 9, weekday: 1, timezone: 'Europe/Berlin' };
    expect(await next(monthly, '2026-03-01T12:00:00Z')).toBe('2026-03-02T08:00:00.000Z');
    expect(await next(monthly, '2026-03-02T08:00:00Z')).toBe('2026-04-06T07:00:00.000Z');
    expect(await next(monthly, '2026-04-07T00:00:00Z')).toBe('2026-05-04T07:00:00.000Z');
    // Sunday 23:00 in New York is Monday in UTC: the local calendar decides (the first Sunday of November 2026 is the 1st).
    const sunday: MonitorSchedule = { frequency: 'monthly', hour: 23, weekday: 0, timezone: 'America/New_York' };
    expect(await next(sunday, '2026-10-05T04:00:00Z')).toBe('2026-11-02T04:00:00.000Z');
  });

  it('fires a monthly schedule once, on its day only', async () => {
    const schedule: MonitorSchedule = { frequency: 'monthly', hour: 9, weekday: 1, timezone: 'UTC' };
    const id = await scheduled(schedule);
    // Mondays March 2 (the first) and March 9 (the second): only the first fires.
    expect(await tickThrough('2026-03-02T08:00:00Z', '2026-03-02T11:00:00Z')).toEqual(['2026-03-02T09:00:00.000Z']);
    expect(await tickThrough('2026-03-09T08:00:00Z', '2026-03-09T11:00:00Z')).toEqual([]);
    expect(await buildsOf(id)).toHaveLength(1);
  });

  it('is the instant the tick fires, and null when off', async () => {
    const schedule: MonitorSchedule = { frequency: 'weekly', hour: 2, weekday: 0, timezone: 'Europe/Berlin' };
    const at = await next(schedule, '2026-03-25T00:00:00Z');
    const id = await scheduled(schedule);
    expect(await tickThrough('2026-03-28T22:00:00Z', '2026-03-29T03:00:00Z')).toEqual([at]);
    expect(await buildsOf(id)).toHaveLength(1);
    expect(await next({ ...schedule, frequency: 'off' }, '2026-03-25T00:00:00Z')).toBeNull();
  });

  it('agrees with the tick at every tick: a project fires exactly when the next run shown at the tick before has come', async () => {
    // Every 5 minutes, as the cron ticks, through the hours around each change.
    const cases: [MonitorSchedule, string, string][] = [
      // Berlin's 02:00 is skipped on 2026-03-29 and repeated on 2026-10-25.
      [{ frequency: 'daily', hour: 2, weekday: 0, timezone: 'Europe/Berlin' }, '2026-03-28T23:00:00Z', '2026-03-29T03:00:00Z'],
      [{ frequency: 'daily', hour: 2, weekday: 0, timezone: 'Europe/Berlin' }, '2026-10-24T22:30:00Z', '2026-10-25T03:00:00Z'],
      // Lord Howe Island moves its clocks by half an hour (2026-04-05 02:00 back to 01:30, 2026-10-04 02:00 to 02:30).
      [{ frequency: 'daily', hour: 1, weekday: 0, timezone: 'Australia/Lord_Howe' }, '2026-04-04T12:30:00Z', '2026-04-04T16:00:00Z'],
      [{ frequency: 'daily', hour: 2, weekday: 0, timezone: 'Australia/Lord_Howe' }, '2026-10-03T14:00:00Z', '2026-10-03T17:00:00Z'],
      // New York's 01:00 is repeated on Sunday 2026-11-01; Kolkata is 5:30 ahead of UTC.
      [{ frequency: 'weekly', hour: 1, weekday: 0, timezone: 'America/New_York' }, '2026-11-01T03:30:00Z', '2026-11-01T08:00:00Z'],
      [{ frequency: 'weekly', hour: 0, weekday: 3, timezone: 'Asia/Kolkata' }, '2026-11-24T17:00:00Z', '2026-11-24T20:00:00Z'],
      // Monthly: Tuesday 2026-12-01 is the first Tuesday of December in Kolkata while it is still November 30 in UTC.
      [{ frequency: 'monthly', hour: 0, weekday: 2, timezone: 'Asia/Kolkata' }, '2026-11-30T17:00:00Z', '2026-11-30T20:00:00Z'],
    ];
    for (const [schedule, from, to] of cases) {
      await database.db.update(projects).set({ monitorFrequency: 'off' });
      const id = await scheduled(schedule);
      const fired: string[] = [];
      const announced: string[] = [];
      for (let at = Date.parse(from); at < Date.parse(to); at += 5 * 60_000) {
        const shown = await nextScheduledRun(database.db, schedule, new Date(at - 5 * 60_000));
        if (shown && shown.getTime() <= at) announced.push(new Date(at).toISOString());
        if ((await tick(new Date(at).toISOString())).built) fired.push(new Date(at).toISOString());
      }
      expect(fired, `${schedule.timezone} from ${from}`).toEqual(announced);
      expect(fired.length, `${schedule.timezone} from ${from}`).toBeGreaterThan(0);
      expect(await buildsOf(id)).toHaveLength(fired.length);
    }
  }, 20_000);
});

describe('the pg-boss schedule in a running server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let boss: PgBoss;

  beforeAll(async () => {
    // The server shares this database (as `vibeeval serve` does in team mode); the test's own pg-boss client plays
    // the part of another process.
    server = await startTestServer({ DATABASE_URL: database.url, VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0' });
    boss = new PgBoss({
      db: { executeSql: (text: string, values: unknown[]) => database.pool.query(text, values) },
      schema: 'pgboss',
      schedule: false,
      supervise: false,
      migrate: false,
    });
    await boss.start();
  }, 60_000);

  afterAll(async () => {
    await boss?.stop({ graceful: false, close: false });
    await server?.stop();
  });

  it('registers one tick every 5 minutes, and a tick job as its cron sends it makes a schedule build', async () => {
    const schedules = await boss.getSchedules();
    expect(schedules.filter((entry) => entry.name === MONITOR_TICK_QUEUE)).toEqual([
      expect.objectContaining({ name: MONITOR_TICK_QUEUE, cron: MONITOR_TICK_CRON, timezone: 'UTC' }),
    ]);
    // The server keeps time for the schedules (this test's client does not): its timekeeper has checked the crons.
    const { rows: clock } = await database.pool.query<{ cron_on: Date | null }>('select cron_on from pgboss.version');
    expect(clock[0]?.cron_on).toBeInstanceOf(Date);

    const user = await signUp(server.origin, 'schedule');
    const headers = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.origin}/project`, { method: 'POST', headers, body: JSON.stringify({ url: 'https://shop.example', status: 'active', num_pages: 1 }) });
    expect(created.status).toBe(201);
    const projectId = ((await created.json()) as { id: string }).id;
    const hour = await scheduledHourNow();
    const put = await fetch(`${server.origin}/project/${projectId}/monitoring`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ frequency: 'daily', hour, weekday: 0, timezone: 'UTC' }),
    });
    expect(put.status).toBe(200);

    // Two ticks, as two processes' cron would send them: one build.
    const jobs = [await boss.send(MONITOR_TICK_QUEUE, {}), await boss.send(MONITOR_TICK_QUEUE, {})];
    for (const job of jobs) await completed(boss, job!);
    const list = await fetch(`${server.origin}/continuous_builds?project_id=${projectId}`, { headers });
    expect(list.status).toBe(200);
    const builds = continuousBuildSchema.array().parse(await list.json());
    expect(builds).toEqual([expect.objectContaining({ project_id: projectId, trigger: 'schedule', url: 'https://shop.example/' })]); // the address as stored: normalised
  }, 100_000);
});

/** The current UTC hour, after waiting out the last minute of an hour so that the tick runs in the same one. */
async function scheduledHourNow(): Promise<number> {
  const read = async () =>
    (
      await database.pool.query<{ hour: number; second: number }>(
        `select extract(hour from now() at time zone 'UTC')::int as hour, extract(epoch from now())::int % 3600 as second`,
      )
    ).rows[0]!;
  let now = await read();
  while (now.second > 3540) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    now = await read();
  }
  return now.hour;
}

async function completed(boss: PgBoss, id: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const job = await boss.getJobById(MONITOR_TICK_QUEUE, id);
    if (job?.state === 'completed') return;
    if (job?.state === 'failed' || Date.now() > deadline) throw new Error(`the tick job ended ${job?.state ?? 'nowhere'}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
