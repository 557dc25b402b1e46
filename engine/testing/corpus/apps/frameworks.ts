// Framework apps: server values serialised into hydration data (Next.js, Nuxt, SvelteKit), a Next.js whose
// middleware can be skipped with x-middleware-subrequest, a Vite dev server on the internet, a Create React App
// build with old libraries, and clean controls that look like them done right. Keys are assembled at run time
// (engine/testing/fake-keys.ts), so nothing key-shaped is committed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fakeSupabaseKey, fakeToken } from '../../fake-keys';
import { anonKey, htmlPage, nextChunks, nextPage } from '../shapes';
import type { CorpusApp, CorpusResponse } from '../types';

const DB_PASSWORD = fakeToken(24, undefined, 41);
const NUXT_STRIPE_SECRET = 'sk_' + 'live_' + fakeToken(99, undefined, 42);
const SESSION_SECRET = fakeToken(48, undefined, 43);

/** A Next.js app router document: the chunks, the flight data pushes, and the runtime's version string. */
function nextAppRouterPage(title: string, markup: string, flight: string): CorpusResponse {
  return {
    body:
      `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>${title}</title>` +
      '<script src="/_next/static/chunks/webpack-3f2a1b0c9d8e7f60.js" async=""></script><script src="/_next/static/chunks/main-app-9a8b7c6d5e4f3a2b.js" async=""></script></head>' +
      `<body>${markup}<script>(self.__next_f=self.__next_f||[]).push([0]);self.__next_f.push([2,null])</script>` +
      `<script>self.__next_f.push([1,${JSON.stringify(flight)}])</script></body></html>`,
  };
}

function nextAppChunks(version: string): Record<string, CorpusResponse> {
  return {
    '/_next/static/chunks/webpack-3f2a1b0c9d8e7f60.js': { body: '!function(){"use strict";var e={};function t(r){return e[r]}self.__webpack_require__=t}();' },
    '/_next/static/chunks/main-app-9a8b7c6d5e4f3a2b.js': { body: `(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[744],{1:function(e,t,n){"use strict";window.next={version:"${version}",appDir:!0}}}]);` },
  };
}

/**
 * The guard a Next.js 14.1 middleware.ts gives /dashboard, including the flaw of CVE-2025-29927: a request whose
 * x-middleware-subrequest header names the middleware five times is treated as internal and skips it.
 */
function middlewareGuard(vulnerable: boolean, page: CorpusResponse): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const subrequest = String(req.headers['x-middleware-subrequest'] ?? '');
    const depth = subrequest.split(':').filter((name) => name === 'middleware' || name === 'src/middleware').length;
    const signedIn = /(?:^|;\s*)session=/.test(String(req.headers.cookie ?? ''));
    if (!signedIn && !(vulnerable && depth >= 5)) {
      res.writeHead(307, { location: '/login', 'x-powered-by': 'Next.js' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-powered-by': 'Next.js' });
    res.end(req.method === 'HEAD' ? undefined : page.body);
  };
}

const loginPage = nextAppRouterPage('Sign in', '<main><h1>Sign in</h1><form><input name="email" type="email"/><button>Send magic link</button></form></main>', '1:["$","main",null,{"children":"Sign in"}]\n');
const dashboardPage = nextAppRouterPage('Dashboard', '<main><h1>Revenue</h1><table><tr><td>ACME Corp</td><td>$12,400</td></tr></table></main>', '1:["$","main",null,{"children":"Revenue"}]\n');

/** A Nuxt 3 server-rendered page: the app div, its /_nuxt/ entry, the payload and the runtime config. */
function nuxtPage(title: string, config: string): CorpusResponse {
  return {
    body:
      `<!DOCTYPE html><html><head><title>${title}</title><link rel="modulepreload" as="script" crossorigin href="/_nuxt/entry.B3kLm9Qx.js"><script type="module" src="/_nuxt/entry.B3kLm9Qx.js" crossorigin></script></head>` +
      `<body><div id="__nuxt"><main><h1>${title}</h1></main></div><script type="application/json" id="__NUXT_DATA__" data-ssr="true">[{"state":1},{}]</script>` +
      `<script>window.__NUXT__={};window.__NUXT__.config=${config}</script></body></html>`,
  };
}

/** A SvelteKit page with its loader data inlined into kit.start, as adapter-node renders it. */
function svelteKitPage(title: string, data: string): CorpusResponse {
  return {
    body:
      `<!doctype html><html lang="en"><head><meta charset="utf-8"/><link rel="modulepreload" href="/_app/immutable/entry/start.Cx81LmQa.js"><link rel="modulepreload" href="/_app/immutable/entry/app.D9sPq2Lk.js"><title>${title}</title></head>` +
      `<body data-sveltekit-preload-data="hover"><div style="display: contents"><h1>${title}</h1>` +
      `<script>{__sveltekit_1wq7xz = { base: new URL(".", location).pathname.slice(0, -1) };const element = document.currentScript.parentElement;` +
      `Promise.all([import("/_app/immutable/entry/start.Cx81LmQa.js"),import("/_app/immutable/entry/app.D9sPq2Lk.js")]).then(([kit, app]) => {kit.start(app, element, {node_ids: [0, 2],data: ${data},form: null,error: null});});}</script></div></body></html>`,
  };
}

const VITE_DEV_CLIENT =
  'import "/node_modules/vite/dist/client/env.mjs";\nclass HMRContext { constructor(hmrClient, ownerPath) { this.hmrClient = hmrClient; } }\n' +
  'const hmrPort = __HMR_PORT__ ?? null;\nconsole.debug("[vite] connecting...");\nexport function createHotContext(ownerPath) { return new HMRContext(null, ownerPath); }\n';

const VULNERABLE: CorpusApp[] = [
  {
    id: 'next-supabase-service-role-in-next-data',
    shape: 'next-supabase',
    title: 'v0-style Next.js pages router app whose getServerSideProps passes the service_role key to the page as a prop',
    expect: [
      { checkId: 'framework-server-data-leak', minSeverity: 'critical' },
      { checkId: 'supabase-service-key', minSeverity: 'critical' },
    ],
    routes: () => ({
      '/': nextPage('InvoiceHub', '<main><h1>Invoices</h1></main>', {
        supabaseUrl: 'https://invoicehub.supabase.co',
        supabaseKey: fakeSupabaseKey('invoicehub', 'service_role', 44),
        invoices: [{ id: 1, total: 120 }],
      }),
      ...nextChunks({ '/': 'n.r(t)' }),
    }),
  },
  {
    id: 'nuxt-private-runtime-config',
    shape: 'nuxt',
    title: 'Nuxt 3 app with the Stripe secret key and database URL put under runtimeConfig.public',
    expect: [{ checkId: 'framework-server-data-leak', minSeverity: 'critical' }, { checkId: 'secret-in-client', minSeverity: 'critical' }],
    routes: () => ({
      '/': nuxtPage(
        'ShopNow',
        `{public:{apiBase:"/api",stripeSecretKey:"${NUXT_STRIPE_SECRET}",databaseUrl:"postgresql://shop:${DB_PASSWORD}@db.shopnow.internal:5432/shop"},app:{baseURL:"/",buildAssetsDir:"/_nuxt/",cdnURL:""}}`,
      ),
      '/_nuxt/entry.B3kLm9Qx.js': { body: 'import{createApp as e}from"./vue.runtime.js";e({}).mount("#__nuxt");' },
    }),
  },
  {
    id: 'next-middleware-bypass',
    shape: 'next-supabase',
    title: 'Next.js 14.1 app router SaaS whose /dashboard is guarded only by middleware, skippable with x-middleware-subrequest',
    expect: [{ checkId: 'framework-vulnerable-version', minSeverity: 'critical' }],
    routes: () => ({
      '/': nextAppRouterPage('Metricly', '<main><h1>Metricly</h1><a href="/dashboard">Dashboard</a> <a href="/login">Sign in</a></main>', '1:["$","main",null,{"children":"Metricly"}]\n'),
      '/login': loginPage,
      '/dashboard': middlewareGuard(true, dashboardPage),
      ...nextAppChunks('14.1.0'),
    }),
  },
  {
    id: 'vite-dev-server-exposed',
    shape: 'vite-supabase',
    title: 'Bolt-style app deployed by running `npm run dev` on a VPS: the Vite development server answers the internet',
    expect: [{ checkId: 'framework-server-data-leak', minSeverity: 'high' }],
    routes: () => ({
      '/': {
        body: '<!doctype html><html lang="en"><head><script type="module" src="/@vite/client"></script><meta charset="UTF-8" /><title>Bookly</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>',
      },
      '/@vite/client': { body: VITE_DEV_CLIENT, contentType: 'text/javascript' },
      '/src/main.tsx': { body: 'import { createRoot } from "/node_modules/.vite/deps/react-dom_client.js?v=4c2a1b9e";\nimport App from "/src/App.tsx";\ncreateRoot(document.getElementById("root")).render(App());\n', contentType: 'text/javascript' },
      '/src/App.tsx': { body: 'export default function App() { return null; }\n', contentType: 'text/javascript' },
    }),
  },
  {
    id: 'sveltekit-database-url-in-loader-data',
    shape: 'sveltekit',
    title: 'SvelteKit app whose +page.server.ts load returns the whole config, DATABASE_URL and session secret included',
    expect: [{ checkId: 'framework-server-data-leak', minSeverity: 'critical' }, { checkId: 'secret-in-client', minSeverity: 'high' }],
    routes: () => ({
      '/': svelteKitPage(
        'Trailnotes',
        `[null,{type:"data",data:{posts:[{id:1,title:"Hello"}],config:{DATABASE_URL:"postgres://trail:${DB_PASSWORD}@db.trailnotes.internal:5432/trail",SESSION_SECRET:"${SESSION_SECRET}",siteName:"Trailnotes"}},uses:{}}]`,
      ),
      '/_app/immutable/entry/start.Cx81LmQa.js': { body: 'export function start(app, target, opts) { return opts; }' },
      '/_app/immutable/entry/app.D9sPq2Lk.js': { body: 'export const nodes = []; export const dictionary = {};' },
    }),
  },
  {
    id: 'cra-old-lodash-jquery',
    shape: 'cra',
    title: 'Create React App build bundling lodash 4.17.4 and jQuery 2.2.4',
    expect: [{ checkId: 'vulnerable-js-library', minSeverity: 'high' }],
    routes: () => ({
      '/': htmlPage('Lumen CRM', '<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>', '<script defer="defer" src="/static/js/main.8c4f2a1b.js"></script>'),
      '/static/js/main.8c4f2a1b.js': {
        body:
          '/*! For license information please see main.8c4f2a1b.js.LICENSE.txt */\n(()=>{var e={1:function(e,t,n){var r;(function(){var i,o="4.17.4",a=200,u="Unsupported core-js use. Try https://npms.io/search?q=ponyfill.",s="Expected a function",c="__lodash_hash_undefined__";}).call(this)},' +
          '2:function(e,t){/*! jQuery v2.2.4 | (c) jQuery Foundation | jquery.org/license */!function(a,b){a.jQuery=b}(window,function(){return{fn:{jquery:"2.2.4"}}})}};})();',
      },
      '/asset-manifest.json': { body: JSON.stringify({ files: { 'main.js': '/static/js/main.8c4f2a1b.js', 'index.html': '/index.html' }, entrypoints: ['static/js/main.8c4f2a1b.js'] }) },
    }),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'next-clean-1',
    shape: 'next-supabase',
    title: 'clean control: current Next.js app router app with only NEXT_PUBLIC values and a dashboard its middleware guards',
    control: true,
    expect: [],
    routes: () => ({
      '/': nextAppRouterPage(
        'Metricly',
        '<main><h1>Metricly</h1><a href="/dashboard">Dashboard</a></main>',
        `1:["$","main",null,{"children":"Metricly","config":{"NEXT_PUBLIC_SUPABASE_URL":"https://metricly.supabase.co","NEXT_PUBLIC_SUPABASE_ANON_KEY":"${anonKey('metricly')}"}}]\n`,
      ),
      '/login': loginPage,
      '/dashboard': middlewareGuard(false, dashboardPage),
      ...nextAppChunks('16.2.6'),
    }),
  },
  {
    id: 'astro-clean-1',
    shape: 'astro',
    title: 'clean control: Astro 5 static marketing site with an island',
    control: true,
    expect: [],
    routes: () => ({
      '/': htmlPage(
        'Northwind Studio',
        '<header><h1>Northwind Studio</h1></header><astro-island uid="Z1xq8" component-url="/_astro/Counter.BcX1a9Lm.js" renderer-url="/_astro/client.Dk28LqPa.js" client="visible"><button>0</button></astro-island><p><a href="/about">About</a></p>',
        '<meta name="generator" content="Astro v5.16.0"><script type="module" src="/_astro/hoisted.Ab12Cd34.js"></script>',
      ),
      '/about': htmlPage('About', '<h1>About us</h1><p>We design calm software.</p>', '<meta name="generator" content="Astro v5.16.0">'),
      '/_astro/hoisted.Ab12Cd34.js': { body: 'document.documentElement.classList.add("js");' },
      '/_astro/Counter.BcX1a9Lm.js': { body: 'export default function Counter(){return null}' },
      '/_astro/client.Dk28LqPa.js': { body: 'export default (el)=>()=>{};' },
    }),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];
