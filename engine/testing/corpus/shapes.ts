// Building blocks for corpus apps: the HTML shells and bundle fragments the common AI-tool stacks emit, so each app
// file only spells out what makes it vulnerable (or clean).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fakeSupabaseKey } from '../fake-keys';
import type { CorpusHandler, CorpusResponse } from './types';

/** Vite's index.html: one hashed module entry, a stylesheet, a root div. */
export function viteIndex(title: string, entry = '/assets/index-C4mLq2Xa.js', extraHead = ''): CorpusResponse {
  return {
    body: `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>${title}</title>
    <script type="module" crossorigin src="${entry}"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-B7dPq1rS.css">${extraHead}
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`,
  };
}

/** A plain HTML page with a heading, paragraphs and links: a marketing or docs page. */
export function htmlPage(title: string, body: string, head = ''): CorpusResponse {
  return {
    body: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${head}</head>
<body>
${body}
</body>
</html>
`,
  };
}

/** The stylesheet Vite emits, so the shell's link resolves. */
export const VITE_CSS: CorpusResponse = { body: ':root{font-family:Inter,system-ui,sans-serif}body{margin:0}', contentType: 'text/css; charset=utf-8' };

/** A Supabase project's anon key for the stand-in (the role the browser client is meant to hold). */
export const anonKey = (ref: string, seed = 11): string => fakeSupabaseKey(ref, 'anon', seed);

/**
 * The minified entry chunk of a Vite + React + supabase-js app (what Lovable and Bolt generate): the client made
 * from the project URL and key, then the queries each page runs.
 */
export function supabaseBundle(url: string, key: string, tables: string[], extra = ''): string {
  const queries = tables
    .map((table, i) => `async function q${i}(){const{data:e,error:t}=await Ve.from("${table}").select("*").order("created_at",{ascending:!1});if(t)throw t;return e}`)
    .join('');
  return (
    `import{r as c,j as s,c as Ut}from"./vendor-Ck2m9QpL.js";` +
    `const Pt="${url}",Qt="${key}",Ve=Ut(Pt,Qt,{auth:{storage:localStorage,persistSession:!0,autoRefreshToken:!0}});` +
    queries +
    `function App(){const[e,t]=c.useState([]);return c.useEffect(()=>{q0().then(t)},[]),s.jsx("main",{children:e.map(n=>s.jsx("p",{children:n.id},n.id))})}` +
    extra
  );
}

/** The vendor chunk Vite splits out (React, supabase-js): opaque, no secrets. */
export const VENDOR_CHUNK: CorpusResponse = {
  body: 'function Ut(e,t,n){return{from:r=>({select:()=>({order:async()=>({data:[],error:null})})})}}const c={useState:e=>[e,()=>{}],useEffect:()=>{}},s={jsx:(e,t)=>({e,t})};export{c as r,s as j,Ut as c};',
};

/** The files of a Vite app: shell, entry chunk, vendor chunk, stylesheet. */
export function viteApp(title: string, entryBody: string, extraHead = ''): Record<string, CorpusResponse> {
  return {
    '/': viteIndex(title, '/assets/index-C4mLq2Xa.js', extraHead),
    '/assets/index-C4mLq2Xa.js': { body: entryBody },
    '/assets/vendor-Ck2m9QpL.js': VENDOR_CHUNK,
    '/assets/index-B7dPq1rS.css': VITE_CSS,
  };
}

/** A Next.js (pages router) document: the rendered markup, its chunks, and __NEXT_DATA__ with the page props. */
export function nextPage(title: string, markup: string, props: Record<string, unknown>, page = '/', buildId = 'kQ9x2LmPz7VbR1cT'): CorpusResponse {
  const data = { props: { pageProps: props, __N_SSG: true }, page, query: {}, buildId, isFallback: false, gsp: true, scriptLoader: [] };
  const chunk = page === '/' ? 'index' : page.slice(1);
  return {
    body: `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width"/><title>${title}</title><link rel="preload" href="/_next/static/css/7c1e3b5a9d2f4e60.css" as="style"/><link rel="stylesheet" href="/_next/static/css/7c1e3b5a9d2f4e60.css" data-n-g=""/><script src="/_next/static/chunks/webpack-59c5c889f52620d6.js" defer=""></script><script src="/_next/static/chunks/framework-2c79e2a64abdb08b.js" defer=""></script><script src="/_next/static/chunks/main-0a1b2c3d4e5f6a7b.js" defer=""></script><script src="/_next/static/chunks/pages/_app-8f7e6d5c4b3a2918.js" defer=""></script><script src="/_next/static/chunks/pages/${chunk}-1a2b3c4d5e6f7a8b.js" defer=""></script></head><body><div id="__next">${markup}</div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data)}</script></body></html>`,
  };
}

/** The framework chunks every Next.js page loads (opaque runtime code). */
export function nextChunks(pages: Record<string, string>): Record<string, CorpusResponse> {
  const files: Record<string, CorpusResponse> = {
    '/_next/static/css/7c1e3b5a9d2f4e60.css': { body: 'body{margin:0;font-family:system-ui}', contentType: 'text/css; charset=utf-8' },
    '/_next/static/chunks/webpack-59c5c889f52620d6.js': {
      body: '!function(){"use strict";var e={},t={};function n(r){var o=t[r];if(void 0!==o)return o.exports;var u=t[r]={exports:{}};return e[r](u,u.exports,n),u.exports}n.m=e}();',
    },
    '/_next/static/chunks/framework-2c79e2a64abdb08b.js': {
      body: '"use strict";(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[774],{6:function(e,t,n){e.exports=n(7)}}]);',
    },
    '/_next/static/chunks/main-0a1b2c3d4e5f6a7b.js': {
      body: '(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[179],{8:function(e,t,n){"use strict";window.next={router:null}}}]);',
    },
    '/_next/static/chunks/pages/_app-8f7e6d5c4b3a2918.js': { body: '(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[888],{9:function(e,t,n){"use strict";n.r(t)}}]);' },
  };
  for (const [page, body] of Object.entries(pages)) {
    const chunk = page === '/' ? 'index' : page.slice(1);
    files[`/_next/static/chunks/pages/${chunk}-1a2b3c4d5e6f7a8b.js`] = {
      body: `(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[405],{10:function(e,t,n){"use strict";${body}}}]);`,
    };
  }
  return files;
}

type Policy = { origins: 'reflect-any' | readonly string[]; credentials: boolean };

/**
 * An Express route behind the `cors` middleware: with `origins: 'reflect-any'` it is `cors({ origin: true })`, the
 * setting AI tools reach for to make a CORS error go away; with a list it echoes only those origins.
 */
export function withCors(policy: Policy, answer: (req: IncomingMessage) => CorpusResponse): CorpusHandler {
  return (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin;
    const allowed = typeof origin === 'string' && (policy.origins === 'reflect-any' || policy.origins.includes(origin));
    if (allowed) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('vary', 'Origin');
      if (policy.credentials) res.setHeader('access-control-allow-credentials', 'true');
    }
    if (req.method === 'OPTIONS') {
      if (allowed) res.setHeader('access-control-allow-methods', 'GET,HEAD,PUT,PATCH,POST,DELETE');
      res.writeHead(204).end();
      return;
    }
    const out = answer(req);
    const type = out.contentType ?? (out.body.trimStart().startsWith('<') ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8');
    res.writeHead(out.status ?? 200, { 'content-type': type, ...out.headers });
    res.end(req.method === 'HEAD' ? undefined : out.body);
  };
}

/** Express's JSON 401, what an API route behind an auth middleware answers without a session. */
export const UNAUTHORIZED: CorpusResponse = { status: 401, body: JSON.stringify({ error: 'Unauthorized', message: 'Missing or invalid session' }) };
