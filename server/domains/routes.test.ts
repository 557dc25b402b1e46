import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_TEXTS, TXT_PREFIX, type Domain } from '../../common/domains';
import { apiCaller, signUp } from '../testing/http';
import { startTestServer, type TestServer } from '../testing/test-server';
import { startTokenSite, StandInTxtResolver } from './testing';

// The domain routes and the active-mode gate of POST /v1/scans on a shared server (private addresses refused, the
// token site's 127.0.0.1 allow-listed as an administrator would), with the DNS stand-in and a site on 127.0.0.1
// that serves the token files of every name under example.test.

let server: TestServer;
let site: Awaited<ReturnType<typeof startTokenSite>>;
const resolver = new StandInTxtResolver();

beforeAll(async () => {
  site = await startTokenSite();
  server = await startTestServer(
    {
      VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false',
      VIBEEVAL_SCAN_ALLOWLIST: '127.0.0.1',
      VIBEEVAL_SCAN_CONCURRENCY: '0',
      VIBEEVAL_SCENARIO_CONCURRENCY: '0',
      VIBEEVAL_API_PLAN: 'enterprise',
    },
    {
      domainVerifier: {
        resolver,
        siteOrigin: (domain) => `http://${domain}`,
        resolveHost: (host) => (host.endsWith('.example.test') ? { address: '127.0.0.1', port: site.port } : undefined),
      },
    },
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await site?.close();
});

const call = apiCaller(() => server.origin);

describe('domain routes', () => {
  it('adds, lists, verifies by DNS, removes; validates names with clear messages', async () => {
    const user = await signUp(server.origin, 'domains');
    const added = await call(user.token, 'POST', '/domains', { domain: 'Shop.Example.test.' });
    expect(added.status, added.text).toBe(201);
    const domain = added.json as Domain;
    expect(domain).toMatchObject({ domain: 'shop.example.test', state: 'pending', txt_record: `${TXT_PREFIX}${domain.token}` });
    expect((await call(user.token, 'POST', '/domains', { domain: 'shop.example.test' })).json).toEqual({ detail: DOMAIN_TEXTS.duplicate });
    expect((await call(user.token, 'POST', '/domains', { domain: 'https://shop.example.test/x' })).json).toEqual({ detail: DOMAIN_TEXTS.invalid });
    expect((await call(user.token, 'POST', '/domains', { domain: '' })).json).toEqual({ detail: DOMAIN_TEXTS.required });
    expect((await call(user.token, 'POST', '/domains', { domain: 'a.example.test', verified_at: 'now' })).status).toBe(400);

    await call(user.token, 'POST', '/domains', { domain: 'second.example.test' });
    const first = await call(user.token, 'GET', '/domains?limit=1');
    expect((first.json as Domain[]).map((d) => d.domain)).toEqual(['second.example.test']);
    expect((await call(user.token, 'GET', '/domains?limit=1000')).json).toEqual({ detail: 'limit: cannot exceed 100' });

    const failed = await call(user.token, 'POST', `/domains/${domain.id}/verify`);
    expect(failed.status).toBe(200);
    expect(failed.json).toMatchObject({ state: 'failed' });
    expect((failed.json as Domain).last_error).toContain('answered 404');
    resolver.records.set('shop.example.test', [[`${TXT_PREFIX}${domain.token}`]]);
    expect((await call(user.token, 'POST', `/domains/${domain.id}/verify`)).json).toMatchObject({ state: 'verified', last_error: null });

    expect((await call(user.token, 'DELETE', `/domains/${domain.id}`)).status).toBe(204);
    expect((await call(user.token, 'POST', `/domains/${domain.id}/verify`)).json).toEqual({ detail: DOMAIN_TEXTS.notFound });
    expect((await call(user.token, 'DELETE', '/domains/not-an-id')).status).toBe(404);
  });

  it("another account's domain is invisible: not listed, not verifiable, not removable", async () => {
    const a = await signUp(server.origin, 'domains-a');
    const b = await signUp(server.origin, 'domains-b');
    const own = (await call(a.token, 'POST', '/domains', { domain: 'a-only.example.test' })).json as Domain;
    expect((await call(b.token, 'GET', '/domains')).json).toEqual([]);
    expect((await call(b.token, 'POST', `/domains/${own.id}/verify`)).status).toBe(404);
    expect((await call(b.token, 'DELETE', `/domains/${own.id}`)).status).toBe(404);
    expect(((await call(a.token, 'GET', '/domains')).json as Domain[]).map((d) => d.id)).toEqual([own.id]);
  });
});

describe('POST /v1/scans with active mode on a shared server', () => {
  it('answers 400 with the reason until the domain is verified, then queues an active scan', async () => {
    const user = await signUp(server.origin, 'active-api');
    const key = ((await call(user.token, 'POST', '/api_keys', { name: 'ci' })).json as { key: string }).key;
    const url = 'https://app.gated.example.test/';
    const refused = await call(key, 'POST', '/v1/scans', { url, options: { active: true } });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ detail: DOMAIN_TEXTS.activeNeedsVerifiedDomain('app.gated.example.test') });

    const domain = (await call(user.token, 'POST', '/domains', { domain: 'gated.example.test' })).json as Domain;
    site.tokens.set('gated.example.test', domain.token);
    expect((await call(user.token, 'POST', `/domains/${domain.id}/verify`)).json).toMatchObject({ state: 'verified' });
    const queued = await call(key, 'POST', '/v1/scans', { url, options: { active: true } });
    expect(queued.status, queued.text).toBe(202);
    const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
    try {
      const { rows } = await pool.query<{ active: boolean }>('select active from scans where id = $1', [(queued.json as { id: string }).id]);
      expect(rows).toEqual([{ active: true }]);
    } finally {
      await pool.end();
    }
    // Without active mode nothing is asked of the domains.
    expect((await call(key, 'POST', '/v1/scans', { url: 'https://elsewhere.example.test/' })).status).toBe(202);
  });
});

describe("a project's active mode and permission confirmation", () => {
  it('are set by PATCH /project/{id}, shown by GET, and Run Test queues the scan as active', async () => {
    const user = await signUp(server.origin, 'active-project');
    const project = (await call(user.token, 'POST', '/project', { url: 'https://mode.example.test/' })).json as { id: string };
    const before = (await call(user.token, 'GET', `/project/${project.id}`)).json;
    expect(before).toMatchObject({ active_mode: false, permission_confirmed_at: null });
    expect((await call(user.token, 'PATCH', `/project/${project.id}`, { permission_confirmed: false })).json).toEqual({ detail: 'permission_confirmed: can only be true' });
    expect((await call(user.token, 'PATCH', `/project/${project.id}`, { active_mode: 'yes' })).json).toEqual({ detail: 'active_mode: must be true or false' });
    expect((await call(user.token, 'PATCH', `/project/${project.id}`, { active_mode: true, permission_confirmed: true })).status).toBe(200);
    const confirmed = (await call(user.token, 'GET', `/project/${project.id}`)).json as { active_mode: boolean; permission_confirmed_at: string };
    expect(confirmed.active_mode).toBe(true);
    expect(Date.parse(confirmed.permission_confirmed_at)).not.toBeNaN();
    // Confirming again keeps the first time: it is when permission was first stated.
    await call(user.token, 'PATCH', `/project/${project.id}`, { permission_confirmed: true });
    expect(((await call(user.token, 'GET', `/project/${project.id}`)).json as { permission_confirmed_at: string }).permission_confirmed_at).toBe(confirmed.permission_confirmed_at);

    expect((await call(user.token, 'PATCH', `/project_test/${project.id}`)).status).toBe(200);
    const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
    try {
      const { rows } = await pool.query<{ active: boolean }>('select active from scans where project_id = $1', [project.id]);
      expect(rows).toEqual([{ active: true }]);
    } finally {
      await pool.end();
    }
  });
});
