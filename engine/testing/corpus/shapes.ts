// Building blocks for corpus apps: the HTML shells and bundle fragments the common AI-tool stacks emit, so each app
// file only spells out what makes it vulnerable (or clean).
import { fakeSupabaseKey } from '../fake-keys';
import type { CorpusResponse } from './types';

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
