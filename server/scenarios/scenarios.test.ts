import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readEventStream, type StreamEvent } from '../../common/event-stream';
import { NEXT_CURSOR_HEADER } from '../../common/pagination';
import { scenarioDetailSchema, scenarioProposalsSchema, scenarioSchema, stepsSchema, type ScenarioDetail, type ScenarioRun } from '../../common/scenarios';
import { readZip } from '../../engine/scenarios/zip';
import { startRestlessSite } from '../../engine/testing/restless-site';
import { SCENARIO_SITE_USER, startScenarioSite, type ScenarioSite } from '../../engine/testing/scenario-site';
import { startServer, type RunningServer } from '../server';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { apiCaller, rawRequest, signUp } from '../testing/http';
import { MEMBERSHIP_SETTLE_MS, removeMember, sharedWorkspace } from '../testing/workspace-rows';
import pg from 'pg';

// The scenario calls against a real server (embedded PostgreSQL, pg-boss, headless Chromium through the engine) and
// a small site with a login (engine/testing/scenario-site.ts).

const ENV = { PATH: process.env.PATH, PORT: '0', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise' };

const LOGIN_STEPS = [
  { type: 'goto', url: '/login' },
  { type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'username' } },
  { type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } },
  { type: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } },
  { type: 'expect_url', pattern: '/dashboard$' },
  { type: 'expect_text', target: { by: 'test_id', id: 'account' }, text: SCENARIO_SITE_USER.username },
];
const HOME_STEPS = [
  { type: 'goto', url: '/' },
  { type: 'expect_title', text: 'Acme Notes' },
];

let site: ScenarioSite;
let server: RunningServer;
let dataDir: string;
let database: FreshDatabase;
const logLines: string[] = [];
let user: { token: string; id: string };
let other: { token: string; id: string };
let projectId: string;

const call = apiCaller(() => server.origin);

async function waitForRun(token: string, scenarioId: string, runId: string, timeoutMs = 60_000): Promise<ScenarioRun> {
  const started = Date.now();
  for (;;) {
    const detail = scenarioDetailSchema.parse((await call(token, 'GET', `/scenario/${scenarioId}`)).json);
    const run = detail.runs.find((candidate) => candidate.id === runId);
    if (run && (run.status === 'passed' || run.status === 'failed')) return run;
    if (Date.now() - started > timeoutMs) throw new Error(`run ${runId} not finished in ${timeoutMs} ms: ${run?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const create = async (body: Record<string, unknown>, token = user.token) => {
  const answer = await call(token, 'POST', '/scenarios', body);
  expect(answer.status, answer.text).toBe(201);
  return scenarioSchema.parse(answer.json);
};

beforeAll(async () => {
  site = await startScenarioSite();
  dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-scenarios-'));
  database = await freshDatabase();
  server = await startServer(
    { ...ENV, LOG_LEVEL: 'debug', VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url },
    { logDestination: { write: (line: string) => void logLines.push(line) } },
  );
  user = await signUp(server.origin, 'scenarios');
  other = await signUp(server.origin, 'scenarios-other');
  const project = await call(user.token, 'POST', '/project', { url: site.url, secret_instruction: `${SCENARIO_SITE_USER.username} / ${SCENARIO_SITE_USER.password}` });
  projectId = (project.json as { id: string }).id;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await database?.drop();
  await site?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('saving scenarios', () => {
  it('saves, lists newest first in pages, shows and deletes a scenario', async () => {
    const first = await create({ project_id: projectId, website: site.url, actions: HOME_STEPS, summarized_actions: 'Home page loads' });
    expect(first).toMatchObject({ project_id: projectId, website: site.url, summarized_actions: 'Home page loads', last_run: null });
    expect(JSON.parse(first.actions)).toEqual(HOME_STEPS);
    expect(first.scenario_code).toContain('@playwright/test');
    // actions may also come JSON-encoded (the spec's server shape); the name is derived from the steps when absent.
    const second = await create({ website: site.url, actions: JSON.stringify(LOGIN_STEPS) });
    expect(second.summarized_actions).toMatch(/^Open \/login, Fill Email, Fill Password \+3 steps$/);
    expect(second.scenario_code).not.toContain(SCENARIO_SITE_USER.password);

    const page1 = await call(user.token, 'GET', '/scenarios?limit=1');
    expect((page1.json as { id: string }[]).map((s) => s.id)).toEqual([second.id]);
    const cursor = page1.headers.get(NEXT_CURSOR_HEADER);
    expect(cursor).toEqual(expect.any(String));
    const page2 = await call(user.token, 'GET', `/scenarios?limit=1&cursor=${cursor}`);
    expect((page2.json as { id: string }[]).map((s) => s.id)).toContain(first.id);
    const ofProject = (await call(user.token, 'GET', `/scenarios?project_id=${projectId}`)).json as { id: string }[];
    expect(ofProject.map((s) => s.id)).toContain(first.id);
    expect(ofProject.map((s) => s.id)).not.toContain(second.id);

    const detail = scenarioDetailSchema.parse((await call(user.token, 'GET', `/scenario/${second.id}`)).json);
    expect(detail).toMatchObject({ id: second.id, runs: [], last_run: null });
    expect((await call(other.token, 'GET', `/scenario/${second.id}`)).status).toBe(404);
    expect((await call(other.token, 'DELETE', `/scenario/${second.id}`)).status).toBe(404);
    expect((await call(user.token, 'DELETE', `/scenario/${second.id}`)).status).toBe(204);
    expect((await call(user.token, 'GET', `/scenario/${second.id}`)).json).toEqual({ detail: 'Scenario not found' });
    expect(((await call(user.token, 'GET', '/scenarios')).json as { id: string }[]).map((s) => s.id)).not.toContain(second.id);
  });

  it('refuses what does not validate with a detail naming the field', async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ website: site.url, actions: [] }, 400, /^actions: must have at least one step$/],
      [{ website: site.url, actions: 'not json' }, 400, /^actions: must be a list of steps$/],
      [{ website: site.url, actions: [{ type: 'teleport' }] }, 400, /^actions\[0\]/],
      [{ website: site.url, actions: [{ type: 'click' }] }, 400, /^actions\[0\]\.target/],
      [{ website: site.url, actions: [{ type: 'expect_url', pattern: '(' }] }, 400, /^pattern: must be a valid regular expression$/],
      [{ website: site.url, actions: [{ type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'token' } }] }, 400, /^actions\[0\]\.value/],
      [{ website: 'ftp://example.com/', actions: HOME_STEPS }, 400, /^website: must be an http or https URL$/],
      [{ website: site.url, actions: HOME_STEPS, summarized_actions: 'x'.repeat(201) }, 400, /^summarized_actions: cannot exceed 200 characters$/],
      [{ project_id: 'nope', website: site.url, actions: HOME_STEPS }, 400, /^project_id: must be a project id$/],
      [{ website: site.url, actions: HOME_STEPS, extra: 1 }, 400, /extra/],
    ];
    for (const [body, status, detail] of cases) {
      const answer = await call(user.token, 'POST', '/scenarios', body);
      expect({ status: answer.status, body: JSON.stringify(body).slice(0, 80) }).toEqual({ status, body: JSON.stringify(body).slice(0, 80) });
      expect((answer.json as { detail: string }).detail).toMatch(detail);
    }
    // Another user's project does not exist for this one.
    const theirs = await call(other.token, 'POST', '/scenarios', { project_id: projectId, website: site.url, actions: HOME_STEPS });
    expect({ status: theirs.status, body: theirs.json }).toEqual({ status: 404, body: { detail: 'Project not found' } });
  });
});

describe('running scenarios', () => {
  it('passes a login scenario in Chromium and keeps its steps, screenshot, trace and events, never the password', async () => {
    const scenario = await create({ project_id: projectId, website: site.url, actions: LOGIN_STEPS, summarized_actions: 'Sign in' });
    const started = await call(user.token, 'POST', `/scenario/${scenario.id}/run`);
    expect(started.status).toBe(202);
    const { run_id: runId } = started.json as { run_id: string };
    const run = await waitForRun(user.token, scenario.id, runId);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'passed', failed_step: null, error: null });
    expect(run.steps.map((step) => step.status)).toEqual(LOGIN_STEPS.map(() => 'passed'));
    expect(run.duration_ms).toBeGreaterThan(0);

    const screenshot = await call(user.token, 'GET', run.screenshot_url!);
    expect(screenshot.headers.get('content-type')).toBe('image/png');
    expect(screenshot.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const trace = await call(user.token, 'GET', run.trace_url!);
    expect(trace.headers.get('content-type')).toBe('application/zip');
    expect(trace.headers.get('content-disposition')).toBe(`attachment; filename="trace-${runId.slice(0, 8)}.zip"`);
    expect(trace.bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const traceText = readZip(trace.bytes)
      .map((entry) => entry.data.toString('latin1'))
      .join('\n');
    expect(traceText.length).toBeGreaterThan(1000);
    expect(traceText).not.toContain(SCENARIO_SITE_USER.password);
    expect((await call(other.token, 'GET', run.trace_url!)).status).toBe(404);

    // The run is marked finished before its summary event is written: wait for that event a little.
    type Listed = { event_name: string; extra: { run_id?: string; description?: string } };
    const summarised = (listed: Listed[]) => listed.some((event) => event.extra.run_id === runId && /^Scenario passed in \d+ ms$/.test(event.extra.description ?? ''));
    let events: Listed[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      events = (await call(user.token, 'GET', `/events/project/${projectId}?limit=500`)).json as Listed[];
      if (summarised(events)) break;
    }
    const ofRun = events.filter((event) => event.extra.run_id === runId);
    const kinds = new Set(ofRun.map((event) => event.event_name));
    for (const kind of ['page_view', 'other']) expect(kinds, JSON.stringify([...kinds])).toContain(kind);
    expect(kinds.has('button_click') || kinds.has('form_submit')).toBe(true);
    expect(summarised(events)).toBe(true);
    expect(JSON.stringify(events)).not.toContain(SCENARIO_SITE_USER.password);
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.join('\n')).not.toContain(SCENARIO_SITE_USER.password);
  }, 90_000);

  it('fails at the step that no longer matches the page, with a screenshot of the failure', async () => {
    const scenario = await create({ project_id: projectId, website: site.url, actions: LOGIN_STEPS });
    site.setVariant('changed'); // the sign-in button now reads 'Log in now'
    try {
      const { run_id: runId } = (await call(user.token, 'POST', `/scenario/${scenario.id}/run`)).json as { run_id: string };
      const run = await waitForRun(user.token, scenario.id, runId);
      expect(run.status).toBe('failed');
      expect(run.failed_step).toBe(3);
      expect(run.error).toEqual(expect.any(String));
      expect(run.steps.slice(0, 3).map((step) => step.status)).toEqual(['passed', 'passed', 'passed']);
      expect(run.steps[3]?.status).toBe('failed');
      const screenshot = await call(user.token, 'GET', run.screenshot_url!);
      expect(screenshot.bytes.subarray(1, 4).toString()).toBe('PNG');
      const detail = scenarioDetailSchema.parse((await call(user.token, 'GET', `/scenario/${scenario.id}`)).json);
      expect(detail.last_run?.id).toBe(runId);
    } finally {
      site.setVariant('original');
    }
  }, 90_000);

  it('runs one run at a time per scenario, and runs all scenarios counting real results', async () => {
    const runner = await signUp(server.origin, 'run-all');
    expect((await call(runner.token, 'POST', '/scenarios/run-all', {})).json).toEqual({ detail: 'No test scenarios to run. Create or generate a scenario first.' });
    const good = [
      await create({ website: site.url, actions: HOME_STEPS }, runner.token),
      await create({ website: site.url, actions: [{ type: 'goto', url: '/pricing' }] }, runner.token),
    ];
    const bad = await create(
      {
        website: site.url,
        actions: [
          { type: 'goto', url: '/' },
          { type: 'expect_title', text: 'Not this title' },
        ],
      },
      runner.token,
    );

    const first = await call(runner.token, 'POST', `/scenario/${bad.id}/run`);
    expect(first.status).toBe(202);
    const second = await call(runner.token, 'POST', `/scenario/${bad.id}/run`);
    expect(second.status).toBe(409);
    expect((second.json as { detail: string }).detail).toMatch(/already running/);

    // The scenario already running is skipped; the two others start.
    const all = await call(runner.token, 'POST', '/scenarios/run-all');
    expect(all.status).toBe(202);
    const runs = (all.json as { runs: { scenario_id: string; run_id: string }[] }).runs;
    expect(runs.map((run) => run.scenario_id).sort()).toEqual(good.map((s) => s.id).sort());
    // One batch (one summary mail when the last finishes); the run queued alone before is in none.
    const batches = new pg.Pool({ connectionString: database.url, max: 1 });
    const batchIds = (
      await batches.query<{ batch_id: string | null }>('select batch_id from scenario_runs where id = any($1::uuid[])', [
        [...runs.map((run) => run.run_id), (first.json as { run_id: string }).run_id],
      ])
    ).rows.map((row) => row.batch_id);
    await batches.end();
    expect(new Set(batchIds.filter(Boolean)).size).toBe(1);
    expect(batchIds.filter((id) => id === null)).toHaveLength(1);
    const results = await Promise.all(
      [...runs, { scenario_id: bad.id, run_id: (first.json as { run_id: string }).run_id }].map((run) => waitForRun(runner.token, run.scenario_id, run.run_id)),
    );
    expect(results.filter((run) => run.status === 'passed')).toHaveLength(2);
    expect(results.filter((run) => run.status === 'failed')).toHaveLength(1);
    // Finished: it may run again.
    expect((await call(runner.token, 'POST', `/scenario/${bad.id}/run`)).status).toBe(202);
    // Another user's project cannot be run.
    expect((await call(other.token, 'POST', '/scenarios/run-all', { project_id: projectId })).status).toBe(404);
  }, 120_000);

  it('answers 404 for the screenshot and trace of a run that has none, and for unknown runs', async () => {
    const scenario = await create({ website: site.url, actions: HOME_STEPS });
    const detail = (await call(user.token, 'GET', `/scenario/${scenario.id}`)).json as ScenarioDetail;
    expect(detail.runs).toEqual([]);
    expect((await call(user.token, 'GET', '/scenario-run/00000000-0000-4000-8000-000000000000/trace')).json).toEqual({ detail: 'Run not found' });
    expect((await call(user.token, 'GET', '/scenario-run/not-a-run/screenshot')).status).toBe(404);
  });
});

describe('proposals and the live stream', () => {
  it('proposes scenarios for a project from its site, saving nothing', async () => {
    const before = ((await call(user.token, 'GET', '/scenarios?limit=200')).json as unknown[]).length;
    const answer = await call(user.token, 'POST', '/scenarios/generate', { project_id: projectId });
    expect(answer.status, answer.text).toBe(200);
    const { proposals } = scenarioProposalsSchema.parse(answer.json);
    expect(proposals.length).toBeGreaterThan(0);
    for (const proposal of proposals) {
      expect(stepsSchema.safeParse(JSON.parse(proposal.actions)).success, proposal.actions).toBe(true);
      expect(new URL(proposal.website).origin).toBe(site.origin);
      expect(proposal.summarized_actions.length).toBeGreaterThan(0);
    }
    expect(JSON.stringify(proposals)).not.toContain(SCENARIO_SITE_USER.password);
    expect(((await call(user.token, 'GET', '/scenarios?limit=200')).json as unknown[]).length).toBe(before);
    expect((await call(other.token, 'POST', '/scenarios/generate', { project_id: projectId })).json).toEqual({ detail: 'Project not found' });
    expect((await call(user.token, 'POST', '/scenarios/generate', { project_id: 'x' })).json).toEqual({ detail: 'project_id: must be a project id' });
  }, 90_000);

  it('answers with proposals when the page redirects by script, and 422 saying so when it keeps navigating', async () => {
    const restless = await startRestlessSite();
    try {
      const projectOf = async (url: string) => ((await call(user.token, 'POST', '/project', { url })).json as { id: string }).id;
      const redirecting = await call(user.token, 'POST', '/scenarios/generate', { project_id: await projectOf(`${restless.url}/`) });
      expect(redirecting.status, redirecting.text).toBe(200);
      expect(scenarioProposalsSchema.parse(redirecting.json).proposals.map((p) => p.summarized_actions)).toContain(
        'Elsewhere: loads with its title, no console error and no failed request',
      );
      // Pages that move while being read, clicked or sent: proposals or the same refusal, never a 500.
      for (const after of [50, 200, 400]) {
        const drifting = await call(user.token, 'POST', '/scenarios/generate', { project_id: await projectOf(`${restless.url}/drifting?after=${after}`) });
        expect([200, 422], `after ${after} ms: ${drifting.status} ${drifting.text}`).toContain(drifting.status);
      }
      const restlessUrl = `${restless.url}/restless`;
      const moving = await call(user.token, 'POST', '/scenarios/generate', { project_id: await projectOf(restlessUrl) });
      expect({ status: moving.status, body: moving.json }).toEqual({
        status: 422,
        body: { detail: `${restlessUrl} kept navigating away by script and would not stay long enough to be read, so no scenario could be proposed` },
      });
    } finally {
      await restless.close();
    }
  }, 120_000);

  it("tells the owner's live stream, and only it, each state of a run", async () => {
    const streams: Record<'mine' | 'theirs', StreamEvent[]> = { mine: [], theirs: [] };
    const open = async (token: string, into: keyof typeof streams, signal: AbortSignal) => {
      const { ticket } = (await call(token, 'POST', '/live/ticket')).json as { ticket: string };
      const response = await fetch(`${server.origin}/live?ticket=${ticket}`, { signal });
      readEventStream(response.body as unknown as AsyncIterable<Uint8Array>, { onEvent: (event) => streams[into].push(event) }).catch(() => undefined);
    };
    const statuses = (runId: string) =>
      streams.mine
        .filter((event) => event.event === 'scenario.run')
        .map((event) => JSON.parse(event.data) as { run?: { id: string; status: string } })
        .filter((message) => message.run?.id === runId)
        .map((message) => message.run!.status);
    const stop = new AbortController();
    try {
      await open(user.token, 'mine', stop.signal);
      await open(other.token, 'theirs', stop.signal);
      const scenario = await create({ website: site.url, actions: HOME_STEPS });
      const { run_id: runId } = (await call(user.token, 'POST', `/scenario/${scenario.id}/run`)).json as { run_id: string };
      await waitForRun(user.token, scenario.id, runId);
      await vi.waitFor(() => expect(statuses(runId)).toEqual(['queued', 'running', 'passed']), { timeout: 10_000 });
      expect(streams.theirs.filter((event) => event.data.includes(runId))).toEqual([]);
    } finally {
      stop.abort();
    }
  }, 60_000);
});

describe('scenarios of a shared workspace', () => {
  it('are shared by its members, run by any of them in its name, and out of reach of a former member and a stranger', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    try {
      const member = await signUp(server.origin, 'scenarios-member');
      const former = await signUp(server.origin, 'scenarios-former');
      const workspace = await sharedWorkspace(pool, user.id, [member.id, former.id]);
      const inW = { 'x-vibeeval-workspace': workspace };
      const made = await call(user.token, 'POST', '/scenarios', { website: site.url, actions: HOME_STEPS, summarized_actions: 'Team home page' }, inW);
      expect(made.status, made.text).toBe(201);
      const scenario = scenarioSchema.parse(made.json);
      expect(((await call(member.token, 'GET', '/scenarios', undefined, inW)).json as { id: string }[]).map((s) => s.id)).toEqual([scenario.id]);
      expect(((await call(user.token, 'GET', '/scenarios')).json as { id: string }[]).map((s) => s.id)).not.toContain(scenario.id);

      // A member runs it: the run is the workspace's and names the member who started it.
      const started = await call(member.token, 'POST', `/scenario/${scenario.id}/run`, undefined, inW);
      expect(started.status, started.text).toBe(202);
      const { run_id: runId } = started.json as { run_id: string };
      const get = async () => scenarioDetailSchema.parse((await call(user.token, 'GET', `/scenario/${scenario.id}`, undefined, inW)).json);
      let run = (await get()).runs[0];
      for (let i = 0; i < 400 && run?.status !== 'passed' && run?.status !== 'failed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        run = (await get()).runs[0];
      }
      expect(run).toMatchObject({ id: runId, status: 'passed' });
      expect((await pool.query('select user_id, workspace_id from scenario_runs where id = $1', [runId])).rows).toEqual([{ user_id: member.id, workspace_id: workspace }]);
      const runEvents = await pool.query<{ workspace_id: string }>("select distinct workspace_id from events where extra->>'run_id' = $1", [runId]);
      expect(runEvents.rows).toEqual([{ workspace_id: workspace }]);
      expect((await call(member.token, 'GET', run!.screenshot_url!, undefined, inW)).status).toBe(200);

      await removeMember(pool, workspace, former.id);
      await new Promise((resolve) => setTimeout(resolve, MEMBERSHIP_SETTLE_MS));
      for (const outsider of [former, other]) {
        for (const [method, path] of [
          ['GET', '/scenarios'],
          ['GET', `/scenario/${scenario.id}`],
          ['POST', `/scenario/${scenario.id}/run`],
          ['GET', run!.screenshot_url!],
          ['DELETE', `/scenario/${scenario.id}`],
        ] as const) {
          expect((await call(outsider.token, method, path, undefined, inW)).status, `${method} ${path} in the workspace`).toBe(404);
          if (path !== '/scenarios') expect((await call(outsider.token, method, path)).status, `${method} ${path}`).toBe(404);
        }
        expect(((await call(outsider.token, 'GET', '/scenarios')).json as { id: string }[]).map((s) => s.id)).not.toContain(scenario.id);
      }
      expect((await call(member.token, 'DELETE', `/scenario/${scenario.id}`, undefined, inW)).status).toBe(204);
      expect((await call(user.token, 'GET', `/scenario/${scenario.id}`, undefined, inW)).status).toBe(404);
    } finally {
      await pool.end();
    }
  }, 90_000);
});

describe('a run across a server restart', () => {
  it('puts a run interrupted by a stop back in the queue and finishes it after the restart', async () => {
    // A page that takes 4 s to answer: the run is still on it when the server stops.
    const slow = http.createServer((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Slow page</title><h1>Slow</h1>'), 4_000);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
    const restartDir = await mkdtemp(join(tmpdir(), 'vibeeval-scenario-restart-'));
    // Both starts on one data dir and one database, as a restarted process finds them.
    const restartDatabase = await freshDatabase();
    try {
      const first = await startServer({ ...ENV, LOG_LEVEL: 'warn', VIBEEVAL_DATA_DIR: restartDir, DATABASE_URL: restartDatabase.url });
      const owner = await signUp(first.origin, 'restart');
      const post = (origin: string, path: string, body?: unknown) =>
        rawRequest(origin, { method: 'POST', path, headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
      const scenario = (
        await post(first.origin, '/scenarios', {
          website: slowUrl,
          actions: [
            { type: 'goto', url: '/' },
            { type: 'expect_title', text: 'Slow page' },
          ],
        })
      ).json as { id: string };
      const { run_id: runId } = (await post(first.origin, `/scenario/${scenario.id}/run`)).json as { run_id: string };
      const get = async (origin: string) =>
        scenarioDetailSchema.parse((await rawRequest(origin, { method: 'GET', path: `/scenario/${scenario.id}`, headers: { authorization: `Bearer ${owner.token}` } })).json);
      for (let i = 0; i < 100 && (await get(first.origin)).runs[0]?.status !== 'running'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await get(first.origin)).runs[0]?.status).toBe('running');
      await first.close();

      const second = await startServer({ ...ENV, LOG_LEVEL: 'warn', VIBEEVAL_DATA_DIR: restartDir, DATABASE_URL: restartDatabase.url });
      try {
        let run = (await get(second.origin)).runs[0];
        for (let i = 0; i < 600 && run?.status !== 'passed' && run?.status !== 'failed'; i++) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          run = (await get(second.origin)).runs[0];
        }
        expect(run).toMatchObject({ id: runId, status: 'passed' });
        const events = (await rawRequest(second.origin, { method: 'GET', path: '/events/recent?limit=500', headers: { authorization: `Bearer ${owner.token}` } })).json as {
          extra: { description?: string };
        }[];
        expect(events.some((event) => event.extra.description === 'Scenario run interrupted by a server restart; it will run again')).toBe(true);
        expect(events.filter((event) => /^Scenario run started/.test(event.extra.description ?? ''))).toHaveLength(2);
      } finally {
        await second.close();
      }
    } finally {
      await new Promise<void>((resolve) => {
        slow.closeAllConnections();
        slow.close(() => resolve());
      });
      await restartDatabase.drop();
      await rm(restartDir, { recursive: true, force: true });
    }
  }, 150_000);
});
