// Discovery apps, second part: a Supabase project the bundle never names as Supabase. A self-hosted instance (or a
// custom domain) whose URL the build inlined into a config chunk and whose anon key sits in the client's chunk, with
// no "supabase" in the URL or beside it: the scan takes the origin only once its /auth/v1/settings answers like
// GoTrue. An API that takes the same kind of key but has no GoTrue is not taken (its control would report its open
// table at high if it were). And a Next page no other page links to, named only in the build manifest's routes.
import { fakeJwt, fakeToken } from '../../fake-keys';
import { nextChunks, nextPage, VENDOR_CHUNK, VITE_CSS, viteIndex } from '../shapes';
import type { CorpusApp, CorpusResponse } from '../types';

const ORDERS = [
  { id: 1, customer_name: 'Ada Brennan', customer_email: 'ada@brennan.example', phone: '+1 555 0123', delivery_address: '12 Harbour Road, Leith', created_at: '2025-07-01T09:00:00Z' },
  { id: 2, customer_name: 'Rui Tanaka', customer_email: 'rui@tanaka.example', phone: '+1 555 0168', delivery_address: '4 Mill Lane, Ely', created_at: '2025-07-02T09:00:00Z' },
];

/** A self-hosted project's anon key: iss supabase, role anon, no project ref (nothing names a hosted URL). */
const selfHostedAnonKey = (seed: number): string => fakeJwt({ iss: 'supabase', role: 'anon', iat: 1_700_000_000, exp: 2_000_000_000 }, seed);

/**
 * A Lovable-style Vite build: `src/config.ts` exports `import.meta.env.VITE_API_URL` (inlined by Vite) to several
 * pages, so Rollup puts it in its own chunk; the client chunk inlines `import.meta.env.VITE_PUBLIC_KEY` and calls
 * createClient with the imported URL. Nothing in either chunk says "supabase".
 */
function splitEnvApp(title: string, url: string, key: string): Record<string, CorpusResponse> {
  return {
    '/': viteIndex(title),
    '/assets/index-C4mLq2Xa.js': {
      body:
        `import{c as Ut,r as c,j as s}from"./vendor-Ck2m9QpL.js";import{A as Au,N as Nm}from"./config-Hq3vR8kL.js";` +
        `const Kp="${key}",Db=Ut(Au,Kp,{auth:{storage:localStorage,persistSession:!0,autoRefreshToken:!0}});` +
        `async function Lo(){const{data:e,error:t}=await Db.from("orders").select("*").order("created_at",{ascending:!1});if(t)throw t;return e}` +
        `function App(){const[e,t]=c.useState([]);return c.useEffect(()=>{Lo().then(t)},[]),s.jsx("main",{children:[s.jsx("h1",{children:Nm}),e.map(n=>s.jsx("p",{children:n.id},n.id))]})}export{App as default};`,
    },
    '/assets/config-Hq3vR8kL.js': { body: `const e="${url}",t="${title}",n="https://docs.${title.toLowerCase()}.example/help";export{e as A,t as N,n as H};` },
    '/assets/vendor-Ck2m9QpL.js': VENDOR_CHUNK,
    '/assets/index-B7dPq1rS.css': VITE_CSS,
  };
}

const STRIPE_SECRET = 'sk_' + 'live_' + fakeToken(99, undefined, 61);
const STRIPE_PUBLISHABLE = 'pk_' + 'live_' + fakeToken(99, undefined, 62);
const BUILD_ID = 'kQ9x2LmPz7VbR1cT';

/**
 * A Next.js (pages router) app whose operations page is linked from nowhere: its server props carry a payment key,
 * so only a scan that opens /ops as a page sees it. The build manifest lists /ops (and a dynamic /ops/[ticket]).
 */
function unlinkedOpsApp(paymentKey: string): Record<string, CorpusResponse> {
  return {
    '/': nextPage('Crewdesk', '<main><h1>Crewdesk</h1><a href="/pricing">Pricing</a></main>', {}),
    '/pricing': nextPage('Pricing', '<main><h1>Pricing</h1></main>', { plans: [{ name: 'Team', price: 29 }] }, '/pricing'),
    '/ops': nextPage('Operations', '<main><h1>Refunds queue</h1></main>', { payments: { provider: 'stripe', key: paymentKey } }, '/ops'),
    [`/_next/static/${BUILD_ID}/_buildManifest.js`]: {
      body:
        'self.__BUILD_MANIFEST=function(s){return{__rewrites:{afterFiles:[],beforeFiles:[],fallback:[]},"/":[s,"static/chunks/pages/index-1a2b3c4d5e6f7a8b.js"],"/_error":["static/chunks/pages/_error-0f9e8d7c.js"],' +
        '"/ops":[s,"static/chunks/pages/ops-1a2b3c4d5e6f7a8b.js"],"/ops/[ticket]":[s],"/pricing":[s,"static/chunks/pages/pricing-1a2b3c4d5e6f7a8b.js"],sortedPages:["/","/_app","/_error","/ops","/ops/[ticket]","/pricing"]}}' +
        '("static/chunks/664-3c2b1a0f9e8d7c6b.js");self.__BUILD_MANIFEST_CB&&self.__BUILD_MANIFEST_CB();',
    },
    [`/_next/static/${BUILD_ID}/_ssgManifest.js`]: { body: 'self.__SSG_MANIFEST=new Set(["\\u002Fpricing"]);self.__SSG_MANIFEST_CB&&self.__SSG_MANIFEST_CB()' },
    '/_next/static/chunks/664-3c2b1a0f9e8d7c6b.js': { body: '(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[664],{21:function(e,t,n){"use strict";t.fmt=e=>e}}]);' },
    ...nextChunks({
      '/': 'var r=n(1);t.default=function(){return r.jsx("main",{})}',
      '/pricing': 'var r=n(1);t.default=function(e){return r.jsx("main",{children:e.plans.length})}',
      '/ops': 'var r=n(1);t.default=function(e){return r.jsx("main",{children:e.payments.provider})}',
    }),
  };
}

const VULNERABLE: CorpusApp[] = [
  {
    id: 'next-unlinked-page-secret',
    shape: 'next-supabase',
    title: 'Next.js operations page linked from nowhere (named only in _buildManifest) whose server props carry the live Stripe secret key',
    expect: [
      { checkId: 'secret-in-client', path: '/ops', minSeverity: 'critical' },
      { checkId: 'framework-server-data-leak', path: '/ops', minSeverity: 'high' },
    ],
    routes: () => unlinkedOpsApp(STRIPE_SECRET),
  },
  {
    id: 'vite-supabase-unnamed-origin',
    shape: 'vite-supabase',
    title: 'Self-hosted Supabase whose URL (inlined env, config chunk) and anon key (client chunk) are apart and never named Supabase; orders readable by anyone',
    supabase: { tables: { orders: ORDERS } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => splitEnvApp('Parcelly', ctx.supabaseUrl!, selfHostedAnonKey(41)),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'next-clean-unlinked-page',
    shape: 'next-supabase',
    title: 'clean control: the unlinked operations page with only the publishable Stripe key in its props',
    control: true,
    expect: [],
    routes: () => unlinkedOpsApp(STRIPE_PUBLISHABLE),
  },
  {
    id: 'vite-supabase-clean-unnamed-origin',
    shape: 'vite-supabase',
    title: 'clean control: the same split build on a self-hosted Supabase, orders behind row level security',
    control: true,
    expect: [],
    supabase: { tables: { orders: { rows: ORDERS, rls: true } } },
    routes: (ctx) => splitEnvApp('Parcelly', ctx.supabaseUrl!, selfHostedAnonKey(41)),
  },
  {
    id: 'vite-supabase-clean-not-gotrue',
    shape: 'vite-supabase',
    title: 'clean control: the same build against an API that takes an anon-shaped key but has no GoTrue (404 at /auth/v1/settings): not taken as Supabase',
    control: true,
    expect: [],
    // Its table would be reported at high if the scan took this origin for Supabase without GoTrue's answer.
    supabase: { tables: { orders: ORDERS }, auth: false },
    routes: (ctx) => splitEnvApp('Parcelly', ctx.supabaseUrl!, selfHostedAnonKey(42)),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];
