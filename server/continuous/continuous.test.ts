import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continuousBuildSchema, monitoringOverviewSchema } from '../../common/continuous';
import { callApi, signUp, type ApiOptions } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { buildMonitorScript, pickEncoding } from './script-route';
import { sameSite } from './service';

let server: Awaited<ReturnType<typeof startTestServer>>;
/** As the project stores it (site addresses are normalised: the root keeps its slash). */
const SITE = 'http://127.0.0.1:4321/';
const ELSEWHERE = 'https://shop.example';

beforeAll(async () => {
  // No scan workers: the re-scans the builds queue stay queued and the builds 'other' (judging: builds.test.ts).
  server = await startTestServer({ VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_SCAN_CONCURRENCY: '0' });
});
afterAll(async () => {
  await server?.stop();
});

const call = (method: string, path: string, options?: ApiOptions) => callApi(server.origin, method, path, options);

async function projectWithToken(token: string, url = SITE) {
  const created = await call('POST', '/project', { token, body: { url, status: 'active', num_pages: 1 } });
  expect(created.status).toBe(201);
  const id = (created.json as { id: string }).id;
  const detail = await call('GET', `/project/${id}`, { token });
  return { id, siteToken: (detail.json as { site_token: string }).site_token };
}

const report = (body: unknown, origin = 'https://shop.example') => call('POST', '/continuous-testing', { body, headers: { origin } });

describe('GET /latest.js', () => {
  it('serves the script compressed, cacheable for five minutes, with its version in the ETag', async () => {
    const script = buildMonitorScript();
    const gz = await fetch(`${server.origin}/latest.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.status).toBe(200);
    expect(gz.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(gz.headers.get('cache-control')).toBe('public, max-age=300');
    expect(gz.headers.get('etag')).toBe(script.etag);
    expect(gz.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await gz.text()).toBe(script.body.toString('utf8')); // fetch decodes the gzip it asked for
    expect(gunzipSync(script.gzip).equals(script.body)).toBe(true);
    expect(brotliDecompressSync(script.brotli).equals(script.body)).toBe(true);
    expect(script.gzip.length).toBeLessThanOrEqual(3 * 1024);
    const again = await fetch(`${server.origin}/latest.js`, { headers: { 'if-none-match': script.etag } });
    expect(again.status).toBe(304);
  });

  it('picks brotli, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('site tokens', () => {
  it('shows the token in the project detail and rotates it; the old one stops working', async () => {
    const user = await signUp(server.origin, 'rotate');
    const { id, siteToken } = await projectWithToken(user.token);
    expect(siteToken).toMatch(/^vst_[A-Za-z0-9_-]{24}$/);
    const rotated = await call('POST', `/project/${id}/site_token`, { token: user.token });
    expect(rotated.status).toBe(200);
    const fresh = (rotated.json as { site_token: string }).site_token;
    expect(fresh).toMatch(/^vst_[A-Za-z0-9_-]{24}$/);
    expect(fresh).not.toBe(siteToken);
    expect(((await call('GET', `/project/${id}`, { token: user.token })).json as { site_token: string }).site_token).toBe(fresh);
    expect((await report({ site_token: siteToken, hash: 'aaaaaaaa', hostname: '127.0.0.1' })).status).toBe(404);
    expect((await report({ site_token: fresh, hash: 'aaaaaaaa', hostname: '127.0.0.1' })).status).toBe(202);
    const other = await signUp(server.origin, 'rotate-other');
    expect(await call('POST', `/project/${id}/site_token`, { token: other.token })).toMatchObject({ status: 404, json: { detail: 'Project not found' } });
  });
});

describe('POST /continuous-testing', () => {
  it('answers the CORS preflight for any origin, on this route alone', async () => {
    const preflight = await call('OPTIONS', '/continuous-testing', {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const elsewhere = await call('OPTIONS', '/projects', { headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    const projects = await call('GET', '/projects', { headers: { origin: 'https://shop.example' } });
    expect(projects.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('validates the body with a detail, and reveals nothing about unknown tokens', async () => {
    const bad = await report({ site_token: 'vst_abcdefghijkl', hash: 'XYZ', hostname: 'shop.example' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ detail: expect.stringContaining('hash must be 8 lowercase hex digits') as unknown });
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
    expect((await report({ hash: 'abcdef01', hostname: 'shop.example' })).status).toBe(400);
    expect((await call('POST', '/continuous-testing', { body: 'not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect(await report({ site_token: 'vst_000000000000000000000000', hash: 'abcdef01', hostname: 'shop.example' })).toMatchObject({
      status: 404,
      json: { detail: 'Unknown site token' },
    });
  });

  it('refuses a hostname that is not the project site', async () => {
    const user = await signUp(server.origin, 'host');
    const { siteToken } = await projectWithToken(user.token);
    const refused = await report({ site_token: siteToken, hash: 'abcdef01', hostname: 'evil.example' });
    expect(refused).toMatchObject({ status: 403, json: { detail: "The hostname does not match the project's URL" } });
    expect(sameSite('www.shop.example', ELSEWHERE)).toBe(true);
    expect(sameSite('SHOP.example.', 'https://www.shop.example/path')).toBe(true);
    expect(sameSite('shop.example.evil', ELSEWHERE)).toBe(false);
    expect(sameSite('shop.example', 'not a url')).toBe(false);
  });

  it('makes a build for a new hash only, listed newest first for its owner alone', async () => {
    const user = await signUp(server.origin, 'builds');
    const { id, siteToken } = await projectWithToken(user.token);
    const first = await report({ site_token: siteToken, hash: '0badc0de', hostname: '127.0.0.1' });
    expect(first.status).toBe(202);
    expect(first.json).toEqual({ build_id: expect.any(String) as unknown, changed: true });
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(await report({ site_token: siteToken, hash: '0badc0de', hostname: '127.0.0.1' })).toMatchObject({ status: 200, json: { changed: false } });
    const second = await report({ site_token: siteToken, hash: 'feedface', hostname: '127.0.0.1' });
    expect(second.status).toBe(202);
    const list = await call('GET', '/continuous_builds', { token: user.token });
    expect(list.status).toBe(200);
    const builds = continuousBuildSchema.array().parse(list.json);
    expect(builds.map((build) => [build.build_hash, build.status, build.project_id, build.url])).toEqual([
      ['feedface', 'other', id, SITE],
      ['0badc0de', 'other', id, SITE],
    ]);
    expect(builds[0]!.id).toBe((second.json as { build_id: string }).build_id);
    const page = await call('GET', '/continuous_builds?limit=1', { token: user.token });
    expect((page.json as unknown[]).length).toBe(1);
    const cursor = page.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const rest = await call('GET', `/continuous_builds?limit=1&cursor=${encodeURIComponent(cursor!)}`, { token: user.token });
    expect((rest.json as { build_hash: string }[]).map((build) => build.build_hash)).toEqual(['0badc0de']);
    const other = await signUp(server.origin, 'builds-other');
    expect((await call('GET', '/continuous_builds', { token: other.token })).json).toEqual([]);
    expect((await call('GET', '/continuous_builds')).status).toBe(401);
  });

  it('limits reports per site token with a Retry-After', async () => {
    const user = await signUp(server.origin, 'limit');
    const { siteToken } = await projectWithToken(user.token);
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) answers.push((await report({ site_token: siteToken, hash: 'abcdef01', hostname: '127.0.0.1' })).status);
    expect(answers.filter((status) => status === 429)).toEqual([]);
    const limited = await report({ site_token: siteToken, hash: 'abcdef01', hostname: '127.0.0.1' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.json).toEqual({ detail: 'Too many reports for this site. Please try again later.' });
  });
});

describe('GET and PUT /project/{id}/monitoring', () => {
  const localParts = (iso: string, timeZone: string) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit', weekday: 'short' })
        .formatToParts(new Date(iso))
        .map((part) => [part.type, part.value]),
    );
    return { hour: Number(parts.hour), minute: Number(parts.minute), weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday!) };
  };

  it('shows the token, no build, the schedule off and the usage of this month, then the current build', async () => {
    const user = await signUp(server.origin, 'overview');
    const project = await projectWithToken(user.token, ELSEWHERE);
    const empty = monitoringOverviewSchema.parse((await call('GET', `/project/${project.id}/monitoring`, { token: user.token })).json);
    expect(empty).toMatchObject({ project_id: project.id, site_token: project.siteToken, current_build: null, last_scan: null, next_run_at: null });
    expect(empty.url.startsWith(ELSEWHERE)).toBe(true);
    expect(empty.schedule).toEqual({ frequency: 'off', hour: 9, weekday: 1, timezone: 'UTC' });
    expect(empty.usage).toEqual({ used: 0, limit: 1000, month: new Date().toISOString().slice(0, 7) });

    expect((await report({ site_token: project.siteToken, hash: 'aaaaaaa1', hostname: 'shop.example' })).status).toBe(202);
    expect((await report({ site_token: project.siteToken, hash: 'aaaaaaa1', hostname: 'shop.example' })).status).toBe(200);
    expect((await report({ site_token: project.siteToken, hash: 'aaaaaaa1', hostname: 'elsewhere.example' })).status).toBe(403);
    const after = monitoringOverviewSchema.parse((await call('GET', `/project/${project.id}/monitoring`, { token: user.token })).json);
    expect(after.current_build).toMatchObject({ build_hash: 'aaaaaaa1', trigger: 'script', project_id: project.id });
    // Both accepted reports count, changed or not; the refused one does not.
    expect(after.usage.used).toBe(2);
  });

  it('saves a daily or weekly schedule and says when it runs next, in the chosen time zone', async () => {
    const user = await signUp(server.origin, 'schedule');
    const project = await projectWithToken(user.token, ELSEWHERE);
    const daily = await call('PUT', `/project/${project.id}/monitoring`, { token: user.token, body: { frequency: 'daily', hour: 6, weekday: 0, timezone: 'Asia/Kolkata' } });
    expect(daily.status, JSON.stringify(daily.json)).toBe(200);
    const saved = monitoringOverviewSchema.parse(daily.json);
    expect(saved.schedule).toEqual({ frequency: 'daily', hour: 6, weekday: 0, timezone: 'Asia/Kolkata' });
    const next = Date.parse(saved.next_run_at!);
    expect(next).toBeGreaterThan(Date.now());
    expect(next - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect(localParts(saved.next_run_at!, 'Asia/Kolkata')).toMatchObject({ hour: 6, minute: 0 });

    const weekly = monitoringOverviewSchema.parse(
      (await call('PUT', `/project/${project.id}/monitoring`, { token: user.token, body: { frequency: 'weekly', hour: 23, weekday: 3, timezone: 'America/New_York' } })).json,
    );
    expect(localParts(weekly.next_run_at!, 'America/New_York')).toEqual({ hour: 23, minute: 0, weekday: 3 });
    expect(Date.parse(weekly.next_run_at!) - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600_000);
    expect(monitoringOverviewSchema.parse((await call('GET', `/project/${project.id}/monitoring`, { token: user.token })).json).schedule.frequency).toBe('weekly');

    const off = monitoringOverviewSchema.parse(
      (await call('PUT', `/project/${project.id}/monitoring`, { token: user.token, body: { frequency: 'off', hour: 23, weekday: 3, timezone: 'UTC' } })).json,
    );
    expect(off.next_run_at).toBeNull();
  });

  it('refuses a bad schedule with a detail naming the field, and keeps the saved one', async () => {
    const user = await signUp(server.origin, 'bad-schedule');
    const project = await projectWithToken(user.token, ELSEWHERE);
    const put = (body: unknown) => call('PUT', `/project/${project.id}/monitoring`, { token: user.token, body });
    const cases: [unknown, RegExp][] = [
      [{ frequency: 'hourly', hour: 9, weekday: 1, timezone: 'UTC' }, /frequency/],
      [{ frequency: 'daily', hour: 24, weekday: 1, timezone: 'UTC' }, /hour must be between 0 and 23/],
      [{ frequency: 'daily', hour: 9.5, weekday: 1, timezone: 'UTC' }, /hour must be a whole number/],
      [{ frequency: 'weekly', hour: 9, weekday: 7, timezone: 'UTC' }, /weekday must be between 0 \(Sunday\) and 6/],
      [{ frequency: 'daily', hour: 9, weekday: 1, timezone: 'Mars/Olympus' }, /timezone must be an IANA time zone/],
      [{ frequency: 'daily', hour: 9, weekday: 1 }, /timezone/],
    ];
    for (const [body, detail] of cases) {
      const answer = await put(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.json as { detail: string }).detail).toMatch(detail);
    }
    const kept = monitoringOverviewSchema.parse((await call('GET', `/project/${project.id}/monitoring`, { token: user.token })).json);
    expect(kept.schedule.frequency).toBe('off');
    expect((await call('GET', '/project/not-a-uuid/monitoring', { token: user.token })).status).toBe(404);
    expect((await call('GET', `/project/${project.id}/monitoring`)).status).toBe(401);
  });

  it('narrows the builds list to one project', async () => {
    const user = await signUp(server.origin, 'narrow');
    const first = await projectWithToken(user.token, ELSEWHERE);
    const second = await projectWithToken(user.token, ELSEWHERE);
    expect((await report({ site_token: first.siteToken, hash: 'bbbbbbb1', hostname: 'shop.example' })).status).toBe(202);
    expect((await report({ site_token: second.siteToken, hash: 'bbbbbbb2', hostname: 'shop.example' })).status).toBe(202);
    const listed = (await call('GET', `/continuous_builds?project_id=${first.id}`, { token: user.token })).json as { build_hash: string }[];
    expect(listed.map((build) => build.build_hash)).toEqual(['bbbbbbb1']);
    expect((await call('GET', '/continuous_builds', { token: user.token })).json).toHaveLength(2);
    expect((await call('GET', '/continuous_builds?project_id=nope', { token: user.token })).json).toEqual([]);
  });
});
