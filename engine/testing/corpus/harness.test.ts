import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../../common/scan';
import { Fetcher } from '../../retrieval/fetcher';
import { scan } from '../../scan';
import { defaultContentType, isWrite, judge, serveApp, supabaseWrites, type ServedApp } from './harness';
import type { CorpusApp } from './types';

const opened: ServedApp[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

const APP: CorpusApp = {
  id: 'test-app',
  shape: 'static',
  title: 'harness test',
  expect: [{ checkId: 'csp-missing' }],
  supabase: { tables: { notes: [{ id: 1 }] } },
  routes: (ctx) => ({
    '/': { body: `<p>${ctx.supabaseUrl}</p>` },
    '/search?q=1': { body: 'exact query', contentType: 'text/plain' },
    '/search': { body: 'any query', contentType: 'text/plain' },
    '/bare': { body: '<p>bare</p>', bareHeaders: true, headers: { 'X-Powered-By': 'Express' } },
    '/handler': (req, res) => {
      res.removeHeader('content-security-policy');
      res.end(`handled ${req.method}`);
    },
  }),
};

async function serve(): Promise<ServedApp> {
  const served = await serveApp(APP);
  opened.push(served);
  return served;
}

describe('serveApp', () => {
  it('routes by exact path and query, then path, adds the header baseline unless bare, and answers 404 otherwise', async () => {
    const { ctx } = await serve();
    const root = await fetch(`${ctx.origin}/`);
    expect(await root.text()).toBe(`<p>${ctx.supabaseUrl}</p>`);
    expect(root.headers.get('content-type')).toMatch(/text\/html/);
    expect(root.headers.get('content-security-policy')).toContain(`connect-src 'self' ${ctx.supabaseUrl}`);
    expect(root.headers.get('x-frame-options')).toBe('DENY');
    expect(await (await fetch(`${ctx.origin}/search?q=1`)).text()).toBe('exact query');
    expect(await (await fetch(`${ctx.origin}/search?q=2`)).text()).toBe('any query');
    const bare = await fetch(`${ctx.origin}/bare`);
    expect(bare.headers.get('content-security-policy')).toBeNull();
    expect(bare.headers.get('x-powered-by')).toBe('Express');
    const handled = await fetch(`${ctx.origin}/handler`);
    expect(await handled.text()).toBe('handled GET');
    expect(handled.headers.get('content-security-policy')).toBeNull();
    expect(handled.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${ctx.origin}/missing`)).status).toBe(404);
  });

  it('serves an app marked tls over HTTPS with a certificate for 127.0.0.1 from the CA it hands to the scan', async () => {
    const served = await serveApp({ ...APP, supabase: undefined, tls: true });
    opened.push(served);
    expect(served.ctx.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(served.ca).toContain('BEGIN CERTIFICATE');
    const { request } = await import('node:https');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request(`${served.ctx.origin}/search`, { ca: served.ca }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
  });

  it("answers every unknown path with the '*' route when the app has one (an SPA fallback)", async () => {
    const served = await serveApp({ ...APP, supabase: undefined, routes: () => ({ '/': { body: '<div id="root"></div>' }, '*': { body: '<div id="root"></div>' } }) });
    opened.push(served);
    const env = await fetch(`${served.ctx.origin}/.env`);
    expect(env.status).toBe(200);
    expect(await env.text()).toBe('<div id="root"></div>');
  });

  it('counts writes to the app and to the stand-in, but not reads or the Storage list call', async () => {
    const served = await serve();
    const { origin, supabaseUrl } = served.ctx;
    await fetch(`${origin}/`, { method: 'HEAD' });
    await fetch(`${origin}/`, { method: 'OPTIONS' });
    await fetch(`${supabaseUrl}/rest/v1/notes`, { headers: { apikey: 'k' } });
    expect(served.writes()).toEqual([]);
    await fetch(`${origin}/handler`, { method: 'POST', body: '{}' });
    await fetch(`${supabaseUrl}/rest/v1/notes`, { method: 'PATCH', body: '{}', headers: { apikey: 'k' } });
    await fetch(`${supabaseUrl}/storage/v1/object/list/avatars`, { method: 'POST', body: '{"prefix":""}', headers: { apikey: 'k' } });
    expect(served.writes()).toEqual([
      { server: 'app', method: 'POST', url: '/handler' },
      { server: 'supabase', method: 'PATCH', url: '/rest/v1/notes' },
    ]);
  });
});

describe("the Firebase stand-in under Google's names", () => {
  const FIREBASE_APP: CorpusApp = {
    ...APP,
    supabase: undefined,
    firebase: { projectId: 'demo-notes-1a2b', firestore: { users: { u1: { email: 'a@b.example' } } }, rules: { firestore: 'open' } },
  };
  const USERS = 'https://firestore.googleapis.com/v1/projects/demo-notes-1a2b/databases/(default)/documents/users?pageSize=1';

  it('reaches https://firestore.googleapis.com only through the resolveHost hook, with the certificate verified for that name', async () => {
    const served = await serveApp(FIREBASE_APP);
    opened.push(served);
    expect(served.resolveHost?.('firestore.googleapis.com')).toMatchObject({ address: '127.0.0.1' });
    expect(served.resolveHost?.('example.com')).toBeUndefined();
    const mapped = new Fetcher({ policy: { allowPrivate: true }, rateLimit: 0, timeoutMs: 2_000, trustedCa: [served.ca!], resolveHost: served.resolveHost });
    const answer = await mapped.fetch({ url: USERS });
    mapped.close();
    expect(answer.status).toBe(200);
    const list = JSON.parse(answer.body) as { documents: Array<{ fields: Record<string, unknown> }> };
    expect(list.documents[0]!.fields.email).toEqual({ stringValue: 'a@b.example' });
    expect(answer.tls?.authorized).toBe(true);
    expect(answer.tls?.subjectAltNames).toContain('firestore.googleapis.com');
    const seen = served.firebaseRequests!().length;
    expect(seen).toBe(1);
    // Without the hook the name goes to DNS, never to the stand-in.
    const plain = new Fetcher({ policy: { allowPrivate: true }, rateLimit: 0, timeoutMs: 2_000, trustedCa: [served.ca!] });
    await plain.fetch({ url: USERS });
    plain.close();
    expect(served.firebaseRequests!().length).toBe(seen);
  });

  it('refuses to serve a Firebase app marked render (Chromium would resolve the names itself)', async () => {
    await expect(serveApp({ ...FIREBASE_APP, render: true })).rejects.toThrow('test-app: an app with the Firebase stand-in is scanned without rendering (render: false)');
  });

  it('leaves the address policy in charge of the mapped address, and TLS unverified without the CA', async () => {
    const served = await serveApp(FIREBASE_APP);
    opened.push(served);
    const refusing = new Fetcher({ policy: { allowPrivate: false }, rateLimit: 0, timeoutMs: 2_000, trustedCa: [served.ca!], resolveHost: served.resolveHost });
    const refused = await refusing.fetch({ url: USERS });
    refusing.close();
    expect(refused.error).toMatch(/firestore\.googleapis\.com resolves to 127\.0\.0\.1/);
    const untrusting = new Fetcher({ policy: { allowPrivate: true }, rateLimit: 0, timeoutMs: 2_000, resolveHost: served.resolveHost });
    const unverified = await untrusting.fetch({ url: USERS });
    untrusting.close();
    expect(unverified.tls?.authorized).toBe(false);
    expect(served.firebaseRequests!().length).toBe(1);
  });

  it("answers a scan of a locked project with Google's 403, and the scan reports nothing", async () => {
    const served = await serveApp({
      ...FIREBASE_APP,
      firebase: { ...FIREBASE_APP.firebase!, rules: { firestore: 'locked' } },
      routes: () => ({
        '/': { body: '<script src="/a.js"></script>' },
        '/a.js': { body: `const c={apiKey:"AIza${'x'.repeat(35)}",projectId:"demo-notes-1a2b",authDomain:"demo-notes-1a2b.firebaseapp.com"};` },
      }),
    });
    opened.push(served);
    const statuses: number[] = [];
    const result = await scan(
      `${served.ctx.origin}/`,
      { render: false },
      {
        addressPolicy: { allowPrivate: true },
        chromiumPath: null,
        trustedCa: [served.ca!],
        resolveHost: served.resolveHost,
        onExchange: (exchange) => {
          if (exchange.url.startsWith('https://firestore.googleapis.com/')) statuses.push(exchange.status);
        },
      },
    );
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([403]));
    expect(result.findings.filter((f) => f.checkId.startsWith('firebase-'))).toEqual([]);
    expect(served.writes()).toEqual([]);
  });
});

describe('isWrite and defaultContentType', () => {
  it.each([
    ['GET', '/', false],
    ['DELETE', '/rest/v1/notes?id=eq.1', true],
    ['POST', '/storage/v1/object/list/avatars', false],
    ['POST', '/storage/v1/object/avatars/a.png', true],
    ['POST', '/rest/v1/rpc/list_users', true],
  ])('%s %s is a write: %s', (method, url, write) => {
    expect(isWrite(method, url)).toBe(write);
  });

  it.each([
    ['/', '<!doctype html>', 'text/html'],
    ['/assets/index.js?v=1', 'const a=1', 'application/javascript'],
    ['/api/users', '[{"id":1}]', 'application/json'],
    ['/.env', 'DB_PASSWORD=x', 'text/plain'],
  ])('%s answers %s', (path, body, type) => {
    expect(defaultContentType(path, body)).toContain(type);
  });
});

describe('supabaseWrites', () => {
  const signUp = { method: 'POST', url: '/auth/v1/signup' };
  const signIn = { method: 'POST', url: '/auth/v1/token?grant_type=password' };
  const signOut = { method: 'POST', url: '/auth/v1/logout' };
  const insert = { method: 'POST', url: '/rest/v1/profiles' };
  const read = { method: 'GET', url: '/rest/v1/profiles?select=*' };

  it('allows an active app exactly one sign-up, and its session calls', () => {
    expect(supabaseWrites({ active: true }, [read, signUp, signOut])).toEqual([]);
    expect(supabaseWrites({ active: true }, [signUp, signUp]).map((w) => w.url)).toEqual(['/auth/v1/signup']);
    expect(supabaseWrites({ active: true }, [insert]).map((w) => w.url)).toEqual(['/rest/v1/profiles']);
  });

  it('counts any sign-up of an app that is not active, signed in or not', () => {
    expect(supabaseWrites({}, [signUp]).map((w) => w.url)).toEqual(['/auth/v1/signup']);
    expect(supabaseWrites({ accounts: [{ login: 'a@example.test', password: 'pw-123456' }] }, [signIn, signUp, signOut]).map((w) => w.url)).toEqual(['/auth/v1/signup']);
    expect(supabaseWrites({}, [signIn, signOut]).map((w) => w.url)).toEqual(['/auth/v1/token?grant_type=password', '/auth/v1/logout']);
  });
});

describe('judge', () => {
  const finding = (checkId: string, severity: Finding['severity'], url = 'http://127.0.0.1/'): Finding =>
    ({ checkId, severity, url, family: 'headers', fingerprint: '0'.repeat(24) }) as Finding;
  const app = { ...APP, expect: [{ checkId: 'csp-missing' }, { checkId: 'exposed-env-file', path: '/.env', minSeverity: 'high' as const }] };

  it('counts a label found only when check, page and severity match, and medium+ findings off-label as false positives', () => {
    const verdict = judge(app, [finding('csp-missing', 'low'), finding('exposed-env-file', 'medium', 'http://127.0.0.1/.env'), finding('cors-reflected-origin', 'high')]);
    expect(verdict.found.map((l) => l.checkId)).toEqual(['csp-missing']);
    expect(verdict.missed.map((l) => l.checkId)).toEqual(['exposed-env-file']);
    expect(verdict.truePositives.map((f) => f.checkId)).toEqual(['exposed-env-file']);
    expect(verdict.falsePositives.map((f) => f.checkId)).toEqual(['cors-reflected-origin']);
  });
});
