import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectScanResponseSchema, reportStatusSchema } from '../common/projects';
import { clusterDir } from './db/embedded';
import { scrubText, scrubUrl } from './log-scrub';
import { createLogger, requestLoggerFactory, serializeError } from './logging';
import { startServer, type RunningServer } from './server';
import { startSmtpCapture } from './testing/smtp-capture';

describe('log scrubbing', () => {
  it('drops the query of capability URLs and blanks secret parameters elsewhere', () => {
    expect(scrubUrl('/reports/0b6f1c1e-0000-4000-8000-000000000000/view?exp=1&sig=abc')).toBe('/reports/0b6f1c1e-0000-4000-8000-000000000000/view?[redacted]');
    expect(scrubUrl('/report-preview?signed_url=%2Freports%2Fx%3Fsig%3Dabc')).toBe('/report-preview?[redacted]');
    expect(scrubUrl('/live?ticket=u.1.sig')).toBe('/live?[redacted]');
    expect(scrubUrl('/v2/vibe-scanner/abc/report?exp=1&sig=x')).toBe('/v2/vibe-scanner/abc/report?[redacted]');
    expect(scrubUrl('/auth/v1/verify?token=t0k&type=recovery')).toBe('/auth/v1/verify?[redacted]');
    expect(scrubUrl('/events/recent?limit=30')).toBe('/events/recent?limit=30');
    expect(scrubUrl('/anything?limit=3&access_token=abc')).toBe('/anything?limit=3&access_token=[redacted]');
  });

  it("keeps an error's kind and code, without the failed query's parameters or PostgreSQL's detail", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
      code: '23505',
      constraint: 'users_email_unique',
      detail: 'Key (email)=(someone@example.com) already exists.',
    });
    const error = Object.assign(
      new Error('Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: someone@example.com,scrypt$32768$8$1$c2FsdA$aGFzaA'),
      {
        query: 'insert into "users" ...',
        params: ['someone@example.com', 'scrypt$32768$8$1$c2FsdA$aGFzaA'],
        cause,
      },
    );
    const text = JSON.stringify(serializeError(error));
    expect(text).toContain('Failed query: insert into \\"users\\"');
    expect(text).toContain('params: [redacted]');
    expect(text).toContain('23505');
    expect(text).toContain('users_email_unique');
    expect(text).not.toContain('someone@example.com');
    expect(text).not.toContain('scrypt$');
    expect(scrubText('DETAIL:  Key (email)=(a@b.c) already exists.')).toBe('DETAIL:  Key (email)=([redacted]) already exists.');
  });

  it('redacts secret keys of logged objects and scrubs message texts', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'trace', destination: { write: (line: string) => void lines.push(line) } });
    logger.info({ password: 'pw-1', nested: { refresh_token: 'rt-1' }, url: 'http://h/reports/x/view?exp=1&sig=s1' }, 'opened http://h/live?ticket=tk-1 with Bearer abc.def');
    logger.error(new Error('Failed query: select 1\nparams: pm-1'));
    const text = lines.join('');
    for (const secret of ['pw-1', 'rt-1', 's1', 'tk-1', 'abc.def', 'pm-1']) expect(text).not.toContain(secret);
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 50, msg: 'Failed query: select 1\nparams: [redacted]' });
    expect(text).toContain('opened http://h/live?[redacted]');
  });

  it("writes a request's lines with its id through the redacting logger, and makes no child for a request that logs nothing", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    // pino calls onChild for every child made, of the logger or of its children.
    let children = 0;
    logger.onChild = () => void children++;
    const app = Fastify({ loggerInstance: logger, disableRequestLogging: true, childLoggerFactory: requestLoggerFactory });
    app.get('/quiet', async (request) => ({ level: request.log.level }));
    app.get('/loud', async (request) => {
      request.log.warn({ token: 'tk-2', route: 'loud' }, 'with Bearer abc.def');
      request.log.child({ part: 'inner' }).info('inner line');
      return {};
    });
    await app.ready();
    const atStart = children;
    expect((await app.inject('/quiet')).json()).toEqual({ level: 'info' });
    expect(children - atStart).toBe(0);
    await app.inject('/loud');
    // The request's logger, made at its first line, and the child the route made of it.
    expect(children - atStart).toBe(2);
    await app.close();
    const [warned, inner] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warned).toMatchObject({ level: 40, reqId: 'req-2', token: '[redacted]', route: 'loud', msg: 'with Bearer [redacted]' });
    expect(inner).toMatchObject({ level: 30, reqId: 'req-2', part: 'inner', msg: 'inner line' });
  });
});

// A full run of the product with logs at the most verbose level: no secret it creates may appear in them.
describe('logs of a full run', () => {
  let site: http.Server;
  let siteUrl: string;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let server: RunningServer;
  let dataDir: string;
  let db: pg.Client;
  const lines: string[] = [];
  const secrets = new Map<string, string>();
  const keep = (name: string, value: string | null | undefined) => {
    expect(value, name).toBeTruthy();
    secrets.set(name, value!);
    return value!;
  };

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      if (req.url === '/login') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>Shop</title><label>User <input name="u"></label><label>Password <input type="password" name="p"></label>');
        return;
      }
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Shop</title><h1>Shop</h1>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    smtp = await startSmtpCapture();
    dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-logs-'));
    const env = {
      PATH: process.env.PATH,
      LOG_LEVEL: 'trace',
      PORT: '0',
      VIBEEVAL_DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      VIBEEVAL_SCAN_RENDER: 'false',
      VIBEEVAL_SCAN_RATE: '0',
      VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise',
    };
    server = await startServer(env, { logDestination: { write: (line: string) => void lines.push(line) } });
    const installed = JSON.parse(await readFile(join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    for (const [name, value] of Object.entries(installed)) keep(`install ${name}`, value);
    // The test's own connection to the embedded database: to read the stored hash and to make a users write fail.
    const pid = await readFile(join(await clusterDir(join(dataDir, 'pg')), 'postmaster.pid'), 'utf8');
    db = new pg.Client({ host: '127.0.0.1', port: Number(pid.split('\n')[3]), user: 'vibeeval', password: installed.pgPassword, database: 'vibeeval' });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await server?.close();
    await smtp?.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const json = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
    const response = await fetch(`${server.origin}${path}`, {
      method: init.method ?? 'GET',
      headers: { apikey: 'local', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const fetchText = async (url: string) => {
    const response = await fetch(url, { redirect: 'manual' });
    await response.arrayBuffer();
    return response;
  };

  it("writes none of the run's secrets, and logs a failed users write without its parameters", async () => {
    // Sign-up, sign-in, refresh.
    const email = `owner${Date.now()}@example.com`;
    const password = keep('password', `pw-${randomBytes(9).toString('base64url')}`);
    const signup = await json('/auth/v1/signup', { method: 'POST', body: { email, password } });
    expect(signup.status).toBe(200);
    const signin = await json('/auth/v1/token?grant_type=password', { method: 'POST', body: { email, password } });
    const token = keep('access token', signin.body.access_token as string);
    const refreshed = await json('/auth/v1/token?grant_type=refresh_token', {
      method: 'POST',
      body: { refresh_token: keep('refresh token', signin.body.refresh_token as string) },
    });
    keep('refreshed access token', refreshed.body.access_token as string);
    keep('refreshed refresh token', refreshed.body.refresh_token as string);
    const stored = await db.query<{ password_hash: string }>('select password_hash from users where email = $1', [email]);
    keep('password hash', stored.rows[0]?.password_hash);

    // Password recovery: the mailed token and the session its link opens.
    expect((await json('/auth/v1/recover', { method: 'POST', body: { email } })).status).toBe(200);
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(email)).text)![0];
    keep('recovery token', new URL(link).searchParams.get('token'));
    const landing = await fetchText(link);
    const fragment = new URLSearchParams(new URL(landing.headers.get('location')!).hash.slice(1));
    keep('recovery access token', fragment.get('access_token'));
    keep('recovery refresh token', fragment.get('refresh_token'));

    // A project with secret credentials, its scan, its report viewed through the signed links.
    const credentials = keep('project credentials', `admin@example.com / cr-${randomBytes(9).toString('base64url')}`);
    const project = await json('/project', { method: 'POST', token, body: { url: siteUrl, secret_instruction: credentials } });
    const projectId = project.body.id as string;
    expect((await json(`/project_test/${projectId}`, { method: 'PATCH', token })).status).toBe(200);
    for (const started = Date.now(); ;) {
      const view = projectScanResponseSchema.parse((await json(`/project/${projectId}/scan`, { token })).body);
      if (view.scan?.state === 'completed') break;
      expect(view.scan?.state).not.toBe('failed');
      expect(Date.now() - started).toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await json(`/projects`, { token });
    const report = reportStatusSchema.parse((await json('/reports', { method: 'POST', token, body: { project_id: projectId, type: 'security' } })).body);
    const reportUrl = keep('report link', report.report_url);
    keep('report signature', new URL(reportUrl).searchParams.get('sig'));
    expect((await fetchText(reportUrl)).status).toBe(200);
    expect((await fetchText(keep('preview link', report.preview_url))).status).toBe(200);
    const exportUrl = new URL(reportUrl);
    exportUrl.pathname = exportUrl.pathname.replace(/\/view$/, '/export/json');
    expect((await fetchText(exportUrl.toString())).status).toBe(200);

    // A browser scenario that types the project's credentials into the sign-in form.
    const scenario = await json('/scenarios', {
      method: 'POST',
      token,
      body: {
        project_id: projectId,
        website: siteUrl,
        actions: [
          { type: 'goto', url: '/login' },
          { type: 'fill', target: { by: 'label', text: 'User' }, value: { credential: 'username' } },
          { type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } },
          { type: 'expect_title', text: 'Shop' },
        ],
      },
    });
    expect(scenario.status).toBe(201);
    expect((await json(`/scenario/${scenario.body.id as string}/run`, { method: 'POST', token })).status).toBe(202);
    for (const started = Date.now(); ;) {
      const runs = (await json(`/scenario/${scenario.body.id as string}`, { token })).body.runs as { status: string; error: string | null }[];
      if (runs[0]?.status === 'passed') break;
      expect(runs[0]?.status, runs[0]?.error ?? '').not.toBe('failed');
      expect(Date.now() - started).toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    keep('scenario password', credentials.split(' / ')[1]);

    // A live ticket, used.
    const ticket = keep('live ticket', (await json('/live/ticket', { method: 'POST', token })).body.ticket as string);
    keep('live ticket signature', ticket.split('.').at(-1));
    const stream = new AbortController();
    const live = await fetch(`${server.origin}/live?ticket=${encodeURIComponent(ticket)}`, { signal: stream.signal });
    expect(live.status).toBe(200);
    stream.abort();

    // A public scan and its mailed report link.
    const visitor = `visitor${Date.now()}@example.com`;
    expect((await json('/v2/vibe-scanner', { method: 'POST', body: { url: siteUrl, email: visitor } })).status).toBe(202);
    const publicLink = /https?:\/\/\S+\/v2\/vibe-scanner\/\S+\/report\?exp=\d+&sig=\S+/.exec((await smtp.next(visitor, 60_000)).text)![0];
    keep('public report signature', new URL(publicLink).searchParams.get('sig'));
    expect((await fetchText(publicLink)).status).toBe(200);

    // A users write that fails in the database: its log line names the failure, not the email or the hash.
    await db.query(`create function refuse_signup() returns trigger language plpgsql as $$ begin
      if new.email like 'refused%' then raise exception 'signups are closed' using errcode = '23514'; end if; return new; end $$`);
    await db.query('create trigger refuse_signup before insert on users for each row execute function refuse_signup()');
    const refusedEmail = keep('refused email', `refused${Date.now()}@example.com`);
    const refusedPassword = keep('refused password', `pw-${randomBytes(9).toString('base64url')}`);
    const refused = await json('/auth/v1/signup', { method: 'POST', body: { email: refusedEmail, password: refusedPassword } });
    expect(refused.status).toBe(500);
    await db.query('drop trigger refuse_signup on users');

    await new Promise((resolve) => setTimeout(resolve, 500));
    const text = lines.join('');
    const failure = lines
      .map((line) => JSON.parse(line) as { level: number; err?: { message?: string; code?: string } })
      .find((line) => line.level >= 50 && line.err?.message?.includes('insert into "users"'));
    expect(failure?.err?.message).toContain('params: [redacted]');
    expect(failure?.err?.code).toBeUndefined(); // the wrapper has no code; its cause carries the database's
    expect(JSON.stringify(failure)).toContain('23514');
    // The run did log at the most verbose level: requests, including the capability routes.
    expect(text).toContain('/reports/');
    expect(text).toContain('/live?[redacted]');
    expect(text).toContain('/report-preview?[redacted]');
    expect(lines.length).toBeGreaterThan(50);
    for (const [name, secret] of secrets) {
      expect(text.includes(secret) || text.includes(encodeURIComponent(secret)), `${name} appears in the logs`).toBe(false);
    }
    expect(text).not.toMatch(/scrypt\$/);
  }, 120_000);
});
