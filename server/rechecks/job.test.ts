import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_TEXTS } from '../../common/rechecks';
import type { Finding } from '../../common/scan';
import { scan } from '../../engine/scan';
import type { Database } from '../db';
import { EventService } from '../events/service';
import { openFreshDatabase } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { runRecheckJob, type RecheckJobDeps } from './job';

// One check again's job on the real database and engine against a local site: the answer stored and recorded once
// (a second job for the same row finds nothing to do), a site that never answers stopped at the time limit and failed
// for good with the limit's words, and an address the policy refuses answered 'could not tell' with the reason.

let database: Database;
let userId: string;
let site: http.Server;
let siteUrl: string;
/** Requests to /.env wait for this while set. */
let hold: Promise<void> | undefined;
/** The site's exposed .env as a scan finds it. */
let env: Finding;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const answer = () => {
      if (req.url === '/.env') res.writeHead(200, { 'content-type': 'text/plain' }).end('APP_ENV=production\nDB_PASSWORD=correct-horse-battery-staple\n');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><h1>Shop</h1>');
    };
    if (req.url === '/.env' && hold) void hold.then(answer);
    else answer();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const result = await scan(siteUrl, { maxPages: 1, render: false, rateLimit: 0 }, { addressPolicy: { allowPrivate: true } });
  env = result.findings.find((f) => f.checkId === 'exposed-env-file')!;
  database = await openFreshDatabase();
  userId = await personalWorkspace(database.pool, randomUUID());
}, 60_000);
afterAll(async () => {
  await database?.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

const deps = (extra: Partial<RecheckJobDeps> = {}): RecheckJobDeps => ({
  db: database.db,
  events: new EventService(database.db),
  logger: pino({ level: 'silent' }),
  policy: { allowPrivate: true },
  rateLimit: 0,
  render: false,
  ...extra,
});
const context = () => ({ signal: new AbortController().signal, finalAttempt: false });

/** A queued check again of the site's .env finding, in a project of its own. */
async function queued(): Promise<{ id: string; projectId: string }> {
  const { pool } = database;
  const project = await pool.query<{ id: string }>(`insert into projects (user_id, workspace_id, url) values ($1, $1, $2) returning id`, [userId, siteUrl]);
  const projectId = project.rows[0]!.id;
  const { rows } = await pool.query<{ id: string }>(
    `insert into finding_rechecks (workspace_id, user_id, project_id, fingerprint, check_id, title, url) values ($1, $1, $2, $3, $4, $5, $6) returning id`,
    [userId, projectId, env.fingerprint, env.checkId, env.title, env.url],
  );
  return { id: rows[0]!.id, projectId };
}

const rowOf = async (id: string) =>
  (
    await database.pool.query<{ state: string; status: string | null; reason: string | null; error: string | null; attempts: number }>(
      'select state, status, reason, error, attempts from finding_rechecks where id = $1',
      [id],
    )
  ).rows[0]!;
const eventsOf = async (projectId: string) =>
  (await database.pool.query<{ description: string }>(`select extra->>'description' as description from events where project_id = $1`, [projectId])).rows.map(
    (row) => row.description,
  );

describe('runRecheckJob', () => {
  it('stores the answer and records it once: a second job for the row finds nothing to do', async () => {
    const { id, projectId } = await queued();
    expect(await runRecheckJob(id, deps(), context())).toBe('completed');
    expect(await rowOf(id)).toMatchObject({ state: 'completed', status: 'still_there', reason: null, error: null, attempts: 1 });
    expect(await runRecheckJob(id, deps(), context())).toBe('skipped');
    expect(await eventsOf(projectId)).toEqual([RECHECK_TEXTS.event(env.title, 'still_there')]);
  }, 30_000);

  it('stops a check the site never answers at the time limit, failed for good without a retry', async () => {
    const { id, projectId } = await queued();
    let release = () => undefined as void;
    hold = new Promise((resolve) => (release = resolve));
    try {
      expect(await runRecheckJob(id, deps({ timeoutMs: 500 }), context())).toBe('failed');
    } finally {
      release();
      hold = undefined;
    }
    expect(await rowOf(id)).toMatchObject({ state: 'failed', status: null, error: RECHECK_TEXTS.timedOut, attempts: 1 });
    expect(await eventsOf(projectId)).toEqual([]);
  }, 30_000);

  it("answers 'could not tell', with the reason, for a site the address policy refuses", async () => {
    const { id } = await queued();
    expect(await runRecheckJob(id, deps({ policy: { allowPrivate: false } }), context())).toBe('completed');
    const row = await rowOf(id);
    expect(row).toMatchObject({ state: 'completed', status: 'unknown' });
    expect(row.reason).toEqual(expect.any(String));
  }, 30_000);
});
