// Team mode on a real PostgreSQL server (Debian's postgresql, started by scripts/team/postgres.mjs): two
// `vibeeval serve` instances that do not scan and two `vibeeval worker` processes, all the built CLI, sharing one
// database. Needs `npx electron-vite build` first (the processes run out/).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../engine/browser';
import { startPostgres, type RunningPostgres } from '../../scripts/team/postgres.mjs';
import { startVibeeval, type VibeevalProcess } from '../../scripts/team/processes.mjs';
import { startFixtureSite, type FixtureSite } from '../../tests/fixtures/sites';
import { callApi, signUp } from '../testing/http';

const SHARED_ENV = {
  VIBEEVAL_SCAN_RENDER: 'false',
  // Slow enough that a scan of SCAN_PAGES pages is still running when its worker is killed.
  VIBEEVAL_SCAN_RATE: '15',
  SIGNIN_MAX_PER_EMAIL: '4',
  SIGNIN_MAX_PER_IP: '1000',
  CREATE_MAX_PER_WINDOW: '1000',
  VIBEEVAL_UNSUBSCRIBED_TIER: 'basic',
  VIBEEVAL_API_PLAN: 'free',
  // A lost worker's scan is taken over within seconds rather than the deployed 45 s.
  VIBEEVAL_JOB_HEARTBEAT_MS: '1000',
  VIBEEVAL_JOB_STALE_AFTER_SECONDS: '4',
  VIBEEVAL_JOB_REAP_EVERY_MS: '1000',
};
const SCAN_PAGES = 12;

let postgres: RunningPostgres;
let database: pg.Pool;
let site: FixtureSite;
const servers: VibeevalProcess[] = [];
const workers: VibeevalProcess[] = [];
/** The team's address: a reverse proxy in front of both servers (their PUBLIC_URL, as in a deployment). */
let proxy: Awaited<ReturnType<typeof startFailoverProxy>>;

const startServer = (name: string) =>
  startVibeeval('serve', { name, env: { ...SHARED_ENV, DATABASE_URL: postgres.url, VIBEEVAL_SCAN_CONCURRENCY: '0', PUBLIC_URL: proxy.origin } });
const startWorker = (name: string) =>
  startVibeeval('worker', { name, env: { ...SHARED_ENV, DATABASE_URL: postgres.url, VIBEEVAL_SCAN_CONCURRENCY: '1', PUBLIC_URL: proxy.origin } });

async function api<T = unknown>(origin: string, token: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; json: T; text: string }> {
  const answer = await callApi(origin, method, path, { token: token ?? undefined, body, headers: { apikey: 'local' } });
  return { status: answer.status, json: answer.json as T, text: answer.text };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${[...servers, ...workers].map((p) => `--- ${p.name}\n${p.output().slice(-1500)}`).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A project (and its first scan, queued) made through `origin`: the project's and the scan's ids. */
async function createProject(origin: string, token: string, path: string): Promise<{ projectId: string; scanId: string }> {
  const created = await api<{ id: string }>(origin, token, 'POST', '/project', { url: `${site.origin}${path}`, num_pages: SCAN_PAGES });
  expect(created.status, created.text).toBe(201);
  const started = await api<{ scan_id: string }>(origin, token, 'PATCH', `/project_test/${created.json.id}`);
  expect(started.status, started.text).toBe(200);
  return { projectId: created.json.id, scanId: started.json.scan_id };
}

const scanState = async (scanId: string) => (await database.query<{ state: string; attempts: number }>('select state, attempts from scans where id = $1', [scanId])).rows[0];
const finished = (scanId: string) => async () => {
  const row = await scanState(scanId);
  return row && (row.state === 'completed' || row.state === 'failed') ? row : undefined;
};

/** Reads a live stream opened with a ticket from `ticketOrigin` on `streamOrigin`; its text so far. */
async function openStream(ticketOrigin: string, streamOrigin: string, token: string) {
  const { json } = await api<{ ticket: string }>(ticketOrigin, token, 'POST', '/live/ticket');
  const controller = new AbortController();
  const response = await fetch(`${streamOrigin}/live?ticket=${encodeURIComponent(json.ticket)}`, { signal: controller.signal });
  expect(response.status).toBe(200);
  let text = '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += Buffer.from(value).toString();
    }
  })().catch(() => undefined);
  return { text: () => text, close: () => controller.abort() };
}

beforeAll(async () => {
  postgres = await startPostgres();
  database = new pg.Pool({ connectionString: postgres.url, max: 2 });
  site = await startFixtureSite('generated', { pages: 40 });
  proxy = await startFailoverProxy(() => servers.map((server) => server.origin!));
  // Both servers start together: the migrations and the install's keys are made once, whoever comes first.
  servers.push(...(await Promise.all([startServer('serve-1'), startServer('serve-2')])));
  workers.push(...(await Promise.all([startWorker('worker-1'), startWorker('worker-2')])));
}, 180_000);

afterAll(async () => {
  await Promise.all([...servers, ...workers].map((p) => p.kill('SIGTERM')));
  await database?.end();
  await proxy?.close();
  await site?.close();
  await postgres?.stop();
});

describe('a team of two servers and two workers on one PostgreSQL', () => {
  it('accepts on one instance the tokens and signed links of the other', async () => {
    const [one, two] = servers as [VibeevalProcess, VibeevalProcess];
    const user = await signUp(one.origin!, 'team-keys');
    const mine = await api<{ id: string }[]>(two.origin!, user.token, 'GET', '/projects');
    expect(mine.status, mine.text).toBe(200);
    // One row per key in the database, and every process uses it.
    expect((await database.query('select name from install_secrets order by name')).rows).toEqual([{ name: 'jwt' }, { name: 'link' }]);

    const { projectId, scanId } = await createProject(one.origin!, user.token, '/keys');
    await waitFor('the first scan', finished(scanId));
    const started = await api<{ id: string }>(one.origin!, user.token, 'POST', '/reports', { project_id: projectId, type: 'security' });
    expect(started.status, started.text).toBe(201);
    const report = await waitFor('the report', async () => {
      const status = (await api<{ state: string; report_url: string | null }>(two.origin!, user.token, 'GET', `/reports/${started.json.id}`)).json;
      return status.state === 'completed' || status.state === 'failed' ? status : undefined;
    });
    expect(report.state).toBe('completed');
    const link = new URL(report.report_url!, one.origin);
    for (const server of servers) {
      const opened = await fetch(`${server.origin}${link.pathname}${link.search}`);
      expect(opened.status, `${server.name} opens the report link`).toBe(200);
      expect(await opened.text()).toContain('</html>');
    }
    // A link whose signature is off opens on neither.
    const forged = await fetch(`${two.origin}${link.pathname}${link.search.replace(/sig=[^&]+/, 'sig=AAAA')}`);
    expect(forged.status).not.toBe(200);
  });

  it('runs each queued scan once, whichever instance queued it', async () => {
    const users = await Promise.all([0, 1].map((i) => signUp(servers[i % 2]!.origin!, `team-once-${i}`)));
    // Two projects per user (the Basic plan's limit), queued alternately through both instances.
    const queued = await Promise.all(users.flatMap((user, i) => [0, 1].map((j) => createProject(servers[(i + j) % 2]!.origin!, user.token, `/once-${i}-${j}`))));
    const scanIds = queued.map((q) => q.scanId);
    const rows = await Promise.all(scanIds.map((id) => waitFor(`scan ${id}`, finished(id), 120_000)));
    expect(rows.map((row) => row.state)).toEqual(scanIds.map(() => 'completed'));
    expect(rows.map((row) => row.attempts)).toEqual(scanIds.map(() => 1));
    const starts = await database.query<{ scan_id: string; n: number }>(
      `select extra->>'scan_id' as scan_id, count(*)::int as n from events
        where extra->>'scan_id' = any($1) and extra->>'description' like 'Scan started%' group by 1`,
      [scanIds],
    );
    expect(starts.rows.map((row) => row.n)).toEqual(scanIds.map(() => 1));
    // Findings are stored once: no scan has two events for the same check.
    const doubled = await database.query(
      `select extra->>'scan_id', extra->>'check', count(*) from events
        where extra->>'scan_id' = any($1) and extra->>'check' is not null group by 1, 2 having count(*) > 1`,
      [scanIds],
    );
    expect(doubled.rows).toEqual([]);
  });

  it('sends the progress and the end of a scan queued through one instance to a stream on the other', async () => {
    const [one, two] = servers as [VibeevalProcess, VibeevalProcess];
    const user = await signUp(one.origin!, 'team-live');
    const stream = await openStream(one.origin!, one.origin!, user.token);
    try {
      const { scanId } = await createProject(two.origin!, user.token, '/live');
      await waitFor('the scan', finished(scanId), 90_000);
      const text = await waitFor('the completion on the stream', async () => (/"state":"completed"/.test(stream.text()) ? stream.text() : undefined), 10_000);
      expect(text).toContain('event: scan.progress');
      expect(text).toContain(`"scan_id":"${scanId}"`);
      expect(text).toMatch(/event: scan\.state\ndata: .*"state":"completed"/);
    } finally {
      stream.close();
    }
    // A ticket signed by one instance opens a stream on the other.
    const across = await openStream(two.origin!, one.origin!, user.token);
    across.close();
  });

  it('finishes the scan of a worker killed with -9 on the other worker once the heartbeat lapses', async () => {
    const [victim, survivor] = workers as [VibeevalProcess, VibeevalProcess];
    const user = await signUp(servers[0]!.origin!, 'team-kill');
    // The survivor is paused so that the victim takes the scan.
    process.kill(survivor.pid, 'SIGSTOP');
    let scanId: string;
    try {
      ({ scanId } = await createProject(servers[1]!.origin!, user.token, '/kill'));
      await waitFor('the victim to start the scan', async () => ((await scanState(scanId))?.state === 'running' ? true : undefined), 30_000);
    } finally {
      process.kill(survivor.pid, 'SIGCONT');
    }
    await victim.kill('SIGKILL');
    const killedAt = Date.now();
    const row = await waitFor('the survivor to finish the scan', finished(scanId), 90_000);
    expect(row).toEqual({ state: 'completed', attempts: 2 });
    // Taken over only after the lapse (4 s), not while the victim's heartbeat was fresh.
    expect(Date.now() - killedAt).toBeGreaterThan(2_000);
    const starts = await database.query<{ d: string }>(
      `select extra->>'description' as d from events where extra->>'scan_id' = $1 and extra->>'description' like 'Scan started%' order by 1`,
      [scanId],
    );
    // One start of the second attempt, and at most one of the first (the victim may die before it records its own).
    const attempts = starts.rows.map((r) => Number(/attempt (\d+)/.exec(r.d)?.[1]));
    expect(attempts.filter((n) => n === 2)).toHaveLength(1);
    expect(attempts.filter((n) => n !== 2).every((n) => n === 1)).toBe(true);
    expect(attempts.length).toBeLessThanOrEqual(2);
    workers[0] = await startWorker('worker-3');
  });

  it('holds the sign-in limit, the plan quota and the API daily count across instances', async () => {
    const [one, two] = servers as [VibeevalProcess, VibeevalProcess];
    // Sign-in: 4 attempts an email in the window, counted together whichever instance is asked.
    const user = await signUp(one.origin!, 'team-limits');
    const attempt = (origin: string) => api(origin, null, 'POST', '/auth/v1/token?grant_type=password', { email: user.email, password: 'wrong' });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt(servers[i % 2]!.origin!)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);

    // Basic plan: 2 projects, even when 6 creations race through both instances.
    const racer = await signUp(two.origin!, 'team-race');
    const created = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => api(servers[i % 2]!.origin!, racer.token, 'POST', '/project', { url: `${site.origin}/race-${i}` })));
    expect(created.filter((answer) => answer.status === 201)).toHaveLength(2);
    expect((await database.query('select count(*)::int as n from projects where user_id = $1', [racer.id])).rows[0]).toEqual({ n: 2 });

    // The API's daily count (free: 100 a day) is one count for both instances.
    const key = (await api<{ key: string }>(one.origin!, user.token, 'POST', '/api_keys', { name: 'team' })).json.key;
    const calls = async (origin: string, n: number) => {
      const answers = [];
      for (let i = 0; i < n; i++) answers.push((await api(origin, key, 'GET', '/v1/projects')).status);
      return answers;
    };
    const first = await calls(one.origin!, 60);
    await new Promise((resolve) => setTimeout(resolve, 600)); // one instance's count reaches the database
    const second = await calls(two.origin!, 60);
    expect(first.every((status) => status === 200)).toBe(true);
    expect(second.filter((status) => status === 200)).toHaveLength(40);
    expect(second.slice(40).every((status) => status === 429)).toBe(true);
  });

  it('keeps a browser on the dashboard receiving live updates through a proxy when the server it streams from is killed', async () => {
    await browserFailover();
  }, 180_000);
});

/** A reverse proxy in front of the servers that sends each request to the first one that takes the connection. */
async function startFailoverProxy(upstreams: () => string[]) {
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const tryUpstream = (index: number) => {
        const target = upstreams()[index];
        if (!target) {
          response.writeHead(502).end('no server answers');
          return;
        }
        const { hostname, port } = new URL(target);
        const upstream = http.request({ host: hostname, port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          // A stream cut by the server's death ends the browser's connection too, so that it reconnects.
          answer.on('close', () => {
            if (!answer.complete) response.destroy();
          });
        });
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (!response.headersSent && (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET')) tryUpstream(index + 1);
          else response.destroy();
        });
        upstream.end(body);
      };
      tryUpstream(0);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => proxy.close(() => resolve())) };
}

/** Records in the page every live message and every stream opened, whatever the app does with them. */
const RECORD_LIVE = `(() => {
  const Native = window.EventSource;
  window.__live = [];
  window.__liveOpens = [];
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      this.addEventListener('open', () => { window.__liveOpens.push(Date.now()); });
      for (const name of ['scan.progress', 'scan.state']) this.addEventListener(name, (event) => window.__live.push(event.data));
    }
  };
})();`;

async function browserFailover() {
  const [one, two] = servers as [VibeevalProcess, VibeevalProcess];
  let browser: Browser | undefined;
  try {
    const user = await signUp(proxy.origin, 'team-browser');
    browser = await chromium.launch({ executablePath: findChromium().path ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
    const page = await browser.newPage();
    await page.addInitScript(RECORD_LIVE);
    await page.goto(`${proxy.origin}/login`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
    await waitFor('the live stream', async () => (await page.evaluate<number[]>('window.__liveOpens')).length >= 1 || undefined, 30_000);
    const live = async () => await page.evaluate<string[]>('window.__live');

    const before = await createProject(two.origin!, user.token, '/browser-before');
    await waitFor(
      'the first scan on the page',
      async () => ((await live()).some((m) => m.includes(before.scanId) && m.includes('"state":"completed"')) ? true : undefined),
      90_000,
    );

    // The instance the page streams from (the proxy's first choice) dies.
    await one.kill('SIGKILL');
    const killedAt = Date.now();
    const after = await createProject(two.origin!, user.token, '/browser-after');
    await waitFor(
      'the second scan on the page',
      async () => ((await live()).some((m) => m.includes(after.scanId) && m.includes('"state":"completed"')) ? true : undefined),
      90_000,
    );
    expect((await live()).some((m) => m.includes(after.scanId) && m.includes('"progress"'))).toBe(true);
    // The page opened a second stream (through the proxy, on the live instance) after the kill.
    const opens = await page.evaluate<number[]>('window.__liveOpens');
    expect(opens.filter((at) => at > killedAt)).toHaveLength(1);
  } finally {
    await browser?.close();
  }
}
