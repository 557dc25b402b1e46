// Discovery apps: the backend is there to find only if the scan reads the shape the build left it in. Client settings
// in an env object, behind `||` fallbacks split across chunks, in separate statements on a custom domain; queries in
// chunks no page links to, named only by a Next build manifest (the page redirects to a login) or a Remix manifest.
// The Supabase stand-in listens on 127.0.0.1, an origin with no supabase.co in it: a custom domain as the scan sees it.
// Each vulnerable app has a twin built the same way with row level security on.
import { anonKey, nextChunks, nextPage, VENDOR_CHUNK, VITE_CSS, viteIndex } from '../shapes';
import type { CorpusApp, CorpusResponse } from '../types';

const CLIENTS = [
  { id: 1, full_name: 'Mara Quinn', email: 'mara@quinnlaw.example', phone: '+1 555 0142', created_at: '2025-05-01T10:00:00Z' },
  { id: 2, full_name: 'Tom Adeyemi', email: 'tom@adeyemi.example', phone: '+1 555 0177', created_at: '2025-05-02T10:00:00Z' },
];
const BOOKINGS = [
  { id: 1, guest_name: 'Lena Park', guest_email: 'lena@park.example', guest_phone: '+1 555 0190', starts_at: '2025-06-01T09:00:00Z', created_at: '2025-05-20T09:00:00Z' },
];
const INVOICES = [{ id: 1, customer_email: 'billing@northwind.example', customer_name: 'Northwind Ltd', amount_cents: 129900, iban: 'DE89370400440532013000', created_at: '2025-04-01T09:00:00Z' }];
const PATIENTS = [{ id: 1, full_name: 'Iris Novak', date_of_birth: '1984-02-11', email: 'iris@novak.example', phone: '+1 555 0111', created_at: '2025-03-03T09:00:00Z' }];
const PLANS = [{ id: 1, name: 'Starter', price_cents: 900 }];

/** How a page runs a query once the client exists (the shape supabase-js calls leave in a minified chunk). */
const query = (client: string, table: string) =>
  `async function load_${table}(){const{data:e,error:t}=await ${client}.from("${table}").select("*").order("created_at",{ascending:!1});if(t)throw t;return e}`;

/** A Vite app from its entry chunk and any further chunks (path → body). */
function viteFiles(title: string, entry: string, chunks: Record<string, string> = {}): Record<string, CorpusResponse> {
  const files: Record<string, CorpusResponse> = {
    '/': viteIndex(title),
    '/assets/index-C4mLq2Xa.js': { body: entry },
    '/assets/vendor-Ck2m9QpL.js': VENDOR_CHUNK,
    '/assets/index-B7dPq1rS.css': VITE_CSS,
  };
  for (const [path, body] of Object.entries(chunks)) files[path] = { body };
  return files;
}

/** `import.meta.env` replaced by the object Vite builds, the client made from its fields, the key listed first. */
const envObjectApp = (url: string, key: string) =>
  viteFiles(
    'Casebook',
    `import{c as Ut}from"./vendor-Ck2m9QpL.js";const Re={BASE_URL:"/",MODE:"production",DEV:!1,PROD:!0,SSR:!1,VITE_SUPABASE_PROJECT_ID:"casebook",VITE_SUPABASE_PUBLISHABLE_KEY:"${key}",VITE_SUPABASE_URL:"${url}"};` +
      `const Ve=Ut(Re.VITE_SUPABASE_URL,Re.VITE_SUPABASE_PUBLISHABLE_KEY,{auth:{storage:localStorage,persistSession:!0}});` +
      query('Ve', 'clients'),
  );

/** `import.meta.env.VITE_SUPABASE_URL || "…"` built into a config chunk, the key's fallback in the entry. */
const fallbackSplitApp = (url: string, key: string) =>
  viteFiles(
    'SlotBook',
    `import{c as Ut}from"./vendor-Ck2m9QpL.js";import{u as Su}from"./config-Pq7LmX2a.js";const Sk=void 0||"${key}",Ve=Ut(Su,Sk);` + query('Ve', 'bookings'),
    { '/assets/config-Pq7LmX2a.js': `const e={BASE_URL:"/",MODE:"production",DEV:!1,PROD:!0,SSR:!1}.VITE_SUPABASE_URL||"${url}";export{e as u};` },
  );

/** Next inlined `process.env.NEXT_PUBLIC_SUPABASE_URL` and `…_ANON_KEY` as two statements of the page chunk. */
const nextStatementsApp = (url: string, key: string) => ({
  '/': nextPage('Guildhall', '<main><h1>Guildhall</h1><p>Members area.</p></main>', {}),
  ...nextChunks({ '/': `var r=n(1),i=n(2);const o="${url}";let a="${key}";const s=(0,i.createBrowserClient)(o,a);${query('s', 'members')}t.default=function(){return r.jsx("main",{})}` }),
});

const BUILD_ID = 'hT4mZq8LxC2vNw7R';
/**
 * A Next app whose /dashboard redirects to /login: the dashboard's chunk is public, named only in the build manifest,
 * and queries a table no page of the crawl mentions.
 */
const nextLoginApp = (url: string, key: string) => ({
  '/': nextPage('Ledgerly', '<main><h1>Ledgerly</h1><a href="/dashboard">Open dashboard</a> <a href="/login">Log in</a></main>', {}, '/', BUILD_ID),
  '/login': nextPage('Log in', '<main><form><input name="email"/><input type="password" name="password"/></form></main>', {}, '/login', BUILD_ID),
  '/dashboard': { status: 307, headers: { location: '/login' }, body: '' },
  [`/_next/static/${BUILD_ID}/_buildManifest.js`]: {
    body:
      `self.__BUILD_MANIFEST=function(s,c){return{__rewrites:{afterFiles:[],beforeFiles:[],fallback:[]},"/":[s,"static/chunks/pages/index-1a2b3c4d5e6f7a8b.js"],"/_error":["static/chunks/pages/_error-0f9e8d7c.js"],` +
      `"/dashboard":[s,c,"static/chunks/pages/dashboard-7f3c1a9e2b4d6f80.js"],"/login":[s,"static/chunks/pages/login-1a2b3c4d5e6f7a8b.js"],sortedPages:["/","/_app","/_error","/dashboard","/login"]}}` +
      `("static/chunks/664-3c2b1a0f9e8d7c6b.js","static/css/7c1e3b5a9d2f4e60.css"),self.__BUILD_MANIFEST_CB&&self.__BUILD_MANIFEST_CB();`,
  },
  [`/_next/static/${BUILD_ID}/_ssgManifest.js`]: { body: 'self.__SSG_MANIFEST=new Set([]);self.__SSG_MANIFEST_CB&&self.__SSG_MANIFEST_CB()' },
  '/_next/static/chunks/664-3c2b1a0f9e8d7c6b.js': { body: `(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[664],{21:function(e,t,n){"use strict";const i=n(2);t.sb=(0,i.createClient)("${url}","${key}")}}]);` },
  '/_next/static/chunks/pages/dashboard-7f3c1a9e2b4d6f80.js': {
    body: `(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[512],{31:function(e,t,n){"use strict";var r=n(1),o=n(21);${query('o.sb', 'client_invoices')}t.default=function(){return r.jsx("table",{})}}}]);`,
  },
  ...nextChunks({ '/': 'var r=n(1);t.default=function(){return r.jsx("main",{})}', '/login': 'var r=n(1);t.default=function(){return r.jsx("form",{})}' }),
});

/** A Remix app: the route module of /admin is named only in the manifest the page preloads. */
const remixApp = (url: string, key: string) => ({
  '/': {
    body:
      '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Clinicly</title><link rel="modulepreload" href="/build/manifest-8D2F4A1C.js"/><link rel="modulepreload" href="/build/entry.client-K7QW2M3N.js"/><link rel="modulepreload" href="/build/root-P4ZL8X1V.js"/><link rel="modulepreload" href="/build/routes/_index-T6YH3B9C.js"/></head>' +
      '<body><main><h1>Clinicly</h1><a href="/admin">Staff</a></main><script>window.__remixContext = {"url":"/","state":{"loaderData":{"root":null,"routes/_index":null}},"future":{}};</script>' +
      '<script type="module" async="">import "/build/manifest-8D2F4A1C.js";import * as route0 from "/build/root-P4ZL8X1V.js";import * as route1 from "/build/routes/_index-T6YH3B9C.js";window.__remixRouteModules = {"root":route0,"routes/_index":route1};import("/build/entry.client-K7QW2M3N.js");</script></body></html>',
  },
  '/admin': { status: 302, headers: { location: '/login?redirectTo=%2Fadmin' }, body: '' },
  '/login': { body: '<!DOCTYPE html><html><head><title>Staff login</title></head><body><form method="post"><input name="email"/><input type="password" name="password"/></form></body></html>' },
  '/build/manifest-8D2F4A1C.js': {
    body:
      'window.__remixManifest={"entry":{"module":"/build/entry.client-K7QW2M3N.js","imports":["/build/_shared/chunk-G5WX7XH2.js"]},"routes":{"root":{"id":"root","path":"","module":"/build/root-P4ZL8X1V.js","hasLoader":true},' +
      '"routes/_index":{"id":"routes/_index","parentId":"root","index":true,"module":"/build/routes/_index-T6YH3B9C.js"},"routes/admin":{"id":"routes/admin","parentId":"root","path":"admin","module":"/build/routes/admin-Q2RM5N8J.js","imports":["/build/_shared/chunk-S8UP4B2K.js"],"hasLoader":true}},"url":"/build/manifest-8D2F4A1C.js","version":"8d2f4a1c"};',
  },
  '/build/entry.client-K7QW2M3N.js': { body: 'import"/build/_shared/chunk-G5WX7XH2.js";window.__remixRouter=null;' },
  '/build/_shared/chunk-G5WX7XH2.js': { body: 'export const jsx=(e,t)=>({e,t});' },
  '/build/root-P4ZL8X1V.js': { body: 'import{jsx as e}from"/build/_shared/chunk-G5WX7XH2.js";export default function(){return e("html",{})}' },
  '/build/routes/_index-T6YH3B9C.js': { body: 'import{jsx as e}from"/build/_shared/chunk-G5WX7XH2.js";export default function(){return e("main",{})}' },
  '/build/_shared/chunk-S8UP4B2K.js': { body: `import{c as Ut}from"/build/_shared/supabase-V3XK9L2M.js";export const sb=Ut("${url}","${key}");` },
  '/build/_shared/supabase-V3XK9L2M.js': VENDOR_CHUNK,
  '/build/routes/admin-Q2RM5N8J.js': { body: `import{sb as Ve}from"/build/_shared/chunk-S8UP4B2K.js";${query('Ve', 'patient_records')}export default function(){return null}` },
});

const VULNERABLE: CorpusApp[] = [
  {
    id: 'vite-supabase-env-object',
    shape: 'vite-supabase',
    title: 'Vite app built with import.meta.env replaced by an object (key listed before URL); its clients table has no row level security',
    supabase: { tables: { clients: CLIENTS } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => envObjectApp(ctx.supabaseUrl!, anonKey('casebook', 31)),
  },
  {
    id: 'vite-supabase-fallback-split',
    shape: 'vite-supabase',
    title: 'Supabase URL as an `||` fallback in a config chunk, the key as a fallback in the entry; bookings readable by anyone',
    supabase: { tables: { bookings: BOOKINGS } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => fallbackSplitApp(ctx.supabaseUrl!, anonKey('slotbook', 32)),
  },
  {
    id: 'next-supabase-custom-domain',
    shape: 'next-supabase',
    title: 'Next.js app on a Supabase custom domain, URL and key inlined as two statements; members readable by anyone',
    supabase: { tables: { members: CLIENTS } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => nextStatementsApp(ctx.supabaseUrl!, anonKey('guildhall', 33)),
  },
  {
    id: 'next-supabase-login-chunk',
    shape: 'next-supabase',
    title: 'Next.js dashboard behind a login redirect whose public chunk, named only in _buildManifest, reads a table with no RLS',
    supabase: { tables: { plans: { rows: PLANS, rls: true }, client_invoices: INVOICES } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => nextLoginApp(ctx.supabaseUrl!, anonKey('ledgerly', 34)),
  },
  {
    id: 'remix-supabase-manifest-route',
    shape: 'remix',
    title: 'Remix staff route behind a login redirect, its module named only in the Remix manifest, reads patient records with no RLS',
    supabase: { tables: { patient_records: PATIENTS } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => remixApp(ctx.supabaseUrl!, anonKey('clinicly', 35)),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'vite-supabase-clean-env-object',
    shape: 'vite-supabase',
    title: 'clean control: the env-object build with row level security on its clients table',
    control: true,
    expect: [],
    supabase: { tables: { clients: { rows: CLIENTS, rls: true } } },
    routes: (ctx) => envObjectApp(ctx.supabaseUrl!, anonKey('casebook', 31)),
  },
  {
    id: 'vite-supabase-clean-fallback-split',
    shape: 'vite-supabase',
    title: 'clean control: the fallback build split across chunks, bookings behind row level security',
    control: true,
    expect: [],
    supabase: { tables: { bookings: { rows: BOOKINGS, rls: true } } },
    routes: (ctx) => fallbackSplitApp(ctx.supabaseUrl!, anonKey('slotbook', 32)),
  },
  {
    id: 'next-supabase-clean-custom-domain',
    shape: 'next-supabase',
    title: 'clean control: the custom-domain Next.js app with row level security on members',
    control: true,
    expect: [],
    supabase: { tables: { members: { rows: CLIENTS, rls: true } } },
    routes: (ctx) => nextStatementsApp(ctx.supabaseUrl!, anonKey('guildhall', 33)),
  },
  {
    id: 'next-supabase-clean-login-chunk',
    shape: 'next-supabase',
    title: 'clean control: the Next.js dashboard behind a login, its invoices table behind row level security',
    control: true,
    expect: [],
    supabase: { tables: { plans: { rows: PLANS, rls: true }, client_invoices: { rows: INVOICES, rls: true } } },
    routes: (ctx) => nextLoginApp(ctx.supabaseUrl!, anonKey('ledgerly', 34)),
  },
  {
    id: 'remix-clean-supabase-manifest-route',
    shape: 'remix',
    title: 'clean control: the Remix staff route with row level security on patient records',
    control: true,
    expect: [],
    supabase: { tables: { patient_records: { rows: PATIENTS, rls: true } } },
    routes: (ctx) => remixApp(ctx.supabaseUrl!, anonKey('clinicly', 35)),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];
