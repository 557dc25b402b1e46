import { describe, expect, it } from 'vitest';
import { FRAMEWORK_PROBE } from '../analysis/frameworks';
import { fakeSupabaseKey, fakeToken } from '../testing/fake-keys';
import { makeSite, plannedProbes } from '../testing/site';
import { frameworkServerDataLeak } from './framework-server-data-leak';

const ORIGIN = 'https://shop.example';
const SERVICE = fakeSupabaseKey('abcdefghijklmnopqrst', 'service_role');
const ANON = fakeSupabaseKey('abcdefghijklmnopqrst', 'anon');
const DB_PASSWORD = fakeToken(20, undefined, 3);
const DB_URL = `postgresql://postgres:${DB_PASSWORD}@db.abcdefghijklmnopqrst.supabase.co:5432/postgres`;
const SESSION_SECRET = fakeToken(40, undefined, 5);

const nextData = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `<!DOCTYPE html><html><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: props }, page: '/', buildId: 'b1', ...extra })}</script></body></html>`;

const run = (body: string, probes: Record<string, { url: string; body: string; contentType?: string; status?: number }> = {}) =>
  frameworkServerDataLeak.run(makeSite({ root: { url: `${ORIGIN}/`, body }, probes }));

describe('framework-server-data-leak', () => {
  const vulnerable: Array<{ name: string; body: string; severity: string; title: RegExp; secret: string }> = [
    {
      name: 'service_role key in __NEXT_DATA__ props',
      body: nextData({ supabaseKey: SERVICE, supabaseUrl: 'https://abcdefghijklmnopqrst.supabase.co' }),
      severity: 'critical',
      title: /"supabaseKey" in Next\.js/,
      secret: SERVICE,
    },
    { name: 'DATABASE_URL in runtimeConfig', body: nextData({}, { runtimeConfig: { DATABASE_URL: DB_URL } }), severity: 'critical', title: /DATABASE_URL/, secret: DB_PASSWORD },
    {
      name: 'SESSION_SECRET in props (whole process.env passed down)',
      body: nextData({ env: { NODE_ENV: 'production', SESSION_SECRET } }),
      severity: 'high',
      title: /SESSION_SECRET/,
      secret: SESSION_SECRET,
    },
    {
      name: 'private runtimeConfig key in window.__NUXT__',
      body: `<html><body><script>window.__NUXT__={};window.__NUXT__.config={public:{apiBase:"/api"},app:{baseURL:"/"},stripeSecretKey:"sk_live_${fakeToken(24)}"}</script></body></html>`,
      severity: 'critical',
      title: /Nuxt/,
      secret: `sk_live_${fakeToken(24)}`,
    },
    {
      name: 'DATABASE_URL in SvelteKit loader data',
      body: `<html><body><script>__sveltekit_abc = { base: "" }; const data = [null,{type:"data",data:{posts:[],config:{databaseUrl:"${DB_URL}"}},uses:{}}]; kit.start(app, element, { node_ids: [0, 2], data });</script></body></html>`,
      severity: 'critical',
      title: /databaseUrl/,
      secret: DB_PASSWORD,
    },
    {
      name: 'server secret in app router flight data',
      body: `<html><body><script>self.__next_f.push([1,${JSON.stringify(`1:["$","div",null,{"config":{"JWT_SECRET":"${SESSION_SECRET}"}}]\n`)}])</script></body></html>`,
      severity: 'high',
      title: /JWT_SECRET/,
      secret: SESSION_SECRET,
    },
    {
      name: 'a private key in Remix loader data',
      body: `<html><body><script>window.__remixContext = {"state":{"loaderData":{"root":{"firebaseAdmin":{"privateKey":"-----BEGIN PRIVATE KEY-----\\n${fakeToken(64, undefined, 9)}\\n-----END PRIVATE KEY-----\\n"}}}}};</script></body></html>`,
      severity: 'critical',
      title: /privateKey.*Remix/,
      secret: fakeToken(64, undefined, 9),
    },
  ];
  for (const c of vulnerable) {
    it(`reports ${c.name}`, () => {
      const findings = run(c.body);
      expect(findings).toHaveLength(1);
      expect(findings[0]!.severity).toBe(c.severity);
      expect(findings[0]!.title).toMatch(c.title);
      const shown = JSON.stringify(findings[0]!.evidence) + findings[0]!.detail;
      expect(shown).not.toContain(c.secret);
    });
  }

  const clean: Array<{ name: string; body: string }> = [
    {
      name: 'only public values (anon key, NEXT_PUBLIC_*)',
      body: nextData({ NEXT_PUBLIC_SUPABASE_URL: 'https://abcdefghijklmnopqrst.supabase.co', NEXT_PUBLIC_SUPABASE_ANON_KEY: ANON, supabaseAnonKey: ANON }),
    },
    { name: 'a Stripe PaymentIntent client secret', body: nextData({ clientSecret: `pi_3NxYz${fakeToken(16)}_secret_${fakeToken(20)}` }) },
    { name: 'placeholders under secret names', body: nextData({ passwordHint: 'use 12 characters', secret: 'changeme', form: { password: '' } }) },
    {
      name: 'Nuxt public runtimeConfig',
      body: '<html><body><script>window.__NUXT__={};window.__NUXT__.config={public:{apiBase:"https://api.shop.example",stripeKey:"pk_live_51Habc"},app:{baseURL:"/"}}</script></body></html>',
    },
    { name: 'a page without framework data', body: `<html><body><p>DATABASE_URL is documented in our guide</p></body></html>` },
  ];
  for (const c of clean) {
    it(`stays quiet on ${c.name}`, () => {
      expect(run(c.body)).toEqual([]);
    });
  }

  it('reports a Vite development server answering /@vite/client', () => {
    const site = makeSite({ root: { url: `${ORIGIN}/`, body: '<html><head><script type="module" src="/@vite/client"></script></head></html>' } });
    expect(plannedProbes(frameworkServerDataLeak, site).map((p) => p.url)).toEqual([`${ORIGIN}/@vite/client`]);
    const client = {
      url: `${ORIGIN}/@vite/client`,
      contentType: 'text/javascript',
      body: 'import "/node_modules/vite/dist/client/env.mjs";\nconsole.debug("[vite] connecting...");',
    };
    const findings = run('<html></html>', { [FRAMEWORK_PROBE.viteClient]: client });
    expect(findings.map((f) => [f.title, f.severity])).toEqual([['Vite development server in production', 'high']]);
    expect(run('<html></html>', { [FRAMEWORK_PROBE.viteClient]: { ...client, status: 404, body: 'Not found' } })).toEqual([]);
  });
});
