import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { Finding } from '../../common/scan';
import { databaseForTests } from '../testing/fresh-database';
import { continuousBuilds, projects, scans } from '../db/schema';
import { Sealer } from '../projects/sealed';
import { ProjectService } from '../projects/service';
import { ScenarioService } from '../scenarios/service';
import { BuildJudge } from './build-judge';
import { ContinuousBuilds } from './builds';
import { runMonitorTick } from './schedule';
import { ContinuousService } from './service';
import { personalWorkspace } from '../testing/workspace-rows';
import { HttpError } from '../http-errors';

// Judging against a real PostgreSQL, without the job queue: two processes finishing the same scan judge and
// announce each waiting build once; a scan still running judges nothing; a build whose re-scan cannot be queued
// stays 'other' and the report that made it is not failed.

const database = databaseForTests();

const finding = (n: number, severity: Finding['severity']): Finding => ({
  fingerprint: n.toString(16).padStart(16, '0'),
  checkId: 'exposed-env-file',
  family: 'exposed-files',
  title: `Finding ${n}`,
  severity,
  confidence: 'high',
  cwe: 538,
  owasp: 'A02',
  url: 'https://shop.example/.env',
  detail: 'x',
  evidence: {},
  remediation: 'y',
  references: [],
});

async function projectWithScans(currentState: 'running' | 'completed') {
  const userId = await personalWorkspace(database.pool, randomUUID());
  const workspaceId = userId;
  const [project] = await database.db.insert(projects).values({ userId, workspaceId, url: 'https://shop.example/' }).returning();
  const scan = (state: 'running' | 'completed', findings: Finding[], finishedAgoS: number | null) => ({
    projectId: project!.id,
    userId,
    workspaceId,
    url: project!.url,
    numPages: 1,
    state,
    grade: 'B',
    result: { findings } as Record<string, unknown>,
    finishedAt: finishedAgoS === null ? null : sql`now() - make_interval(secs => ${finishedAgoS})`,
  });
  const [before] = await database.db
    .insert(scans)
    .values(scan('completed', [finding(1, 'low')], 600))
    .returning();
  const [current] = await database.db
    .insert(scans)
    .values(scan(currentState, [finding(1, 'low'), finding(2, 'high')], currentState === 'completed' ? 1 : null))
    .returning();
  const made = await database.db
    .insert(continuousBuilds)
    .values([1, 2].map((n) => ({ userId, workspaceId, projectId: project!.id, buildHash: `0000000${n}`, url: project!.url, scanId: current!.id })))
    .returning();
  return { userId, project: project!, before: before!, current: current!, builds: made };
}

function judge() {
  const live = { publish: vi.fn(async () => {}) };
  const webhooks = { emit: vi.fn(async () => {}) };
  return { live, webhooks, judge: new BuildJudge({ db: database.db, live, webhooks }) };
}

describe('BuildJudge', () => {
  it('judges and announces each waiting build once when two processes finish the same scan', async () => {
    const { current, before, builds } = await projectWithScans('completed');
    const [a, b] = [judge(), judge()];
    await Promise.all([a.judge.judgeScan(current.id), b.judge.judgeScan(current.id), a.judge.judgeScan(current.id)]);
    const emitted = [...a.webhooks.emit.mock.calls, ...b.webhooks.emit.mock.calls] as unknown as [string, string, Record<string, unknown>][];
    expect(emitted.map(([, , data]) => data.build_id).sort()).toEqual(builds.map((build) => build.id).sort());
    expect(emitted.every(([, type, data]) => type === 'continuous_build.completed' && data.status === 'error' && data.new_count === 1)).toBe(true);
    expect(a.live.publish.mock.calls.length + b.live.publish.mock.calls.length).toBe(2);
    const rows = await database.db.select().from(continuousBuilds).where(eq(continuousBuilds.scanId, current.id));
    for (const row of rows) {
      expect(row.status).toBe('error');
      expect(row.finishedAt).not.toBeNull();
      expect(row.changes).toMatchObject({
        previous_scan_id: before.id,
        new_findings: [{ fingerprint: finding(2, 'high').fingerprint, severity: 'high' }],
        new_count: 1,
        fixed_count: 0,
      });
    }
  });

  it('leaves the builds of a scan still running waiting', async () => {
    const { current } = await projectWithScans('running');
    const { judge: running, webhooks } = judge();
    await running.judgeScan(current.id);
    expect(webhooks.emit).not.toHaveBeenCalled();
    const rows = await database.db.select().from(continuousBuilds).where(eq(continuousBuilds.scanId, current.id));
    expect(rows.map((row) => [row.status, row.finishedAt])).toEqual([
      ['other', null],
      ['other', null],
    ]);
  });
});

describe('builds left waiting by a stopped process', () => {
  it('are judged by the next schedule tick, once, while the builds of a running scan keep waiting', async () => {
    const finished = await projectWithScans('completed');
    const running = await projectWithScans('running');
    const { judge: catcher, webhooks } = judge();
    const logger = { info: vi.fn(), warn: vi.fn() };
    const tick = () => runMonitorTick({ db: database.db, continuous: { scheduledBuild: vi.fn() }, logger, builds: catcher });
    await tick();
    const statuses = async (scanId: string) => (await database.db.select().from(continuousBuilds).where(eq(continuousBuilds.scanId, scanId))).map((row) => row.status);
    expect(await statuses(finished.current.id)).toEqual(['error', 'error']);
    expect(await statuses(running.current.id)).toEqual(['other', 'other']);
    const announced = (webhooks.emit.mock.calls as unknown as [string, string, { build_id: string }][]).map(([, , data]) => data.build_id);
    expect(announced).toEqual(expect.arrayContaining(finished.builds.map((build) => build.id)));
    expect(logger.info.mock.calls.some(([, message]) => message === 'builds left waiting by a stopped process judged')).toBe(true);
    const calls = webhooks.emit.mock.calls.length;
    await tick();
    expect(webhooks.emit.mock.calls.length).toBe(calls);
    expect(await catcher.judgeMissed()).toBe(0);
  });
});

describe('ContinuousBuilds.start', () => {
  it('never throws: a build whose re-scan cannot be queued stays other, and the failure is logged', async () => {
    const { builds } = await projectWithScans('completed');
    const [build] = await database.db
      .insert(continuousBuilds)
      .values({ userId: builds[0]!.userId, workspaceId: builds[0]!.workspaceId, projectId: builds[0]!.projectId, buildHash: 'abcdef01', url: builds[0]!.url })
      .returning();
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    const starter = new ContinuousBuilds({
      db: database.db,
      projects: { queueScan: () => Promise.reject(new Error('connection terminated')) },
      scenarios: { queueAll: () => Promise.reject(new HttpError(500, 'unused')) },
      events: { record: vi.fn(async () => {}) },
      live: { publish: vi.fn(async () => {}) },
      enqueueScan: vi.fn(async () => {}),
      enqueueScenarioRun: vi.fn(async () => {}),
      logger,
    });
    await expect(starter.start(build!.id)).resolves.toBeUndefined();
    const logs = lines.map((line) => JSON.parse(line) as { build?: string; msg?: string; err?: { message?: string } });
    expect(logs).toMatchObject([{ build: build!.id, msg: 'could not start the re-scan of a continuous build', err: { message: 'connection terminated' } }]);
    const [row] = await database.db.select().from(continuousBuilds).where(eq(continuousBuilds.id, build!.id));
    expect(row).toMatchObject({ status: 'other', scanId: null, finishedAt: null });
  });

  it('starts a scheduled build like a reported one: one scan queued and announced, a second build joins it, both judged when it completes', async () => {
    const userId = await personalWorkspace(database.pool, randomUUID());
    const [project] = await database.db.insert(projects).values({ userId, workspaceId: userId, url: 'https://shop.example/' }).returning();
    const sealer = new Sealer('build-judge-test-secret');
    const enqueueScan = vi.fn(async (_id: string) => {});
    const record = vi.fn(async (_events: unknown[]) => {});
    const live = { publish: vi.fn(async (_user: string, _message: { type: string }) => {}) };
    const webhooks = { emit: vi.fn(async () => {}) };
    const starter = new ContinuousBuilds({
      db: database.db,
      projects: new ProjectService(database.db, database.pool, sealer, { allowPrivate: true }),
      scenarios: new ScenarioService(database.db, sealer, { allowPrivate: true }),
      events: { record },
      live,
      enqueueScan,
      enqueueScenarioRun: vi.fn(async () => {}),
      webhooks,
      logger: pino({ level: 'silent' }),
    });
    const continuous = new ContinuousService(database.db);
    continuous.starter = starter;
    const first = await continuous.scheduledBuild(project!);
    const second = await continuous.scheduledBuild(project!);
    const rows = await database.db.select().from(continuousBuilds).where(eq(continuousBuilds.projectId, project!.id));
    expect(rows.map((row) => row.trigger)).toEqual(['schedule', 'schedule']);
    const [scan] = await database.db.select().from(scans).where(eq(scans.projectId, project!.id));
    expect(rows.map((row) => row.scanId)).toEqual([scan!.id, scan!.id]);
    // The project's history says monitoring's schedule started it.
    expect(scan!.trigger).toBe('schedule');
    expect(enqueueScan.mock.calls).toEqual([[scan!.id]]);
    expect(record.mock.calls[0]![0]).toEqual([expect.objectContaining({ scanId: scan!.id, extra: { description: 'Scan queued (up to 1 page)', scan_id: scan!.id } })]);
    expect(live.publish.mock.calls.map(([, message]) => message.type)).toEqual(['scan.state', 'continuous.build', 'continuous.build']);

    await database.db
      .update(scans)
      .set({ state: 'completed', grade: 'A', result: { findings: [] }, finishedAt: sql`now()` })
      .where(eq(scans.id, scan!.id));
    await starter.judgeScan(scan!.id);
    const judged = await database.db.select().from(continuousBuilds).where(eq(continuousBuilds.projectId, project!.id));
    expect(judged.map((row) => [row.id, row.status]).sort()).toEqual(
      [
        [first, 'success'],
        [second, 'success'],
      ].sort(),
    );
    expect(webhooks.emit).toHaveBeenCalledTimes(2);
  });
});
