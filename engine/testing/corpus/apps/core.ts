// Core apps: weaknesses the existing checks cover (headers, cookies, CORS, exposed files, secrets, libraries,
// Supabase), in the shapes AI coding tools produce, and the clean controls that look like them done right.
// Keys are assembled at run time from a prefix and a generated body (engine/testing/fake-keys.ts), so nothing
// key-shaped is committed.
import { fakeSupabaseKey, fakeToken, HEX } from '../../fake-keys';
import { anonKey, htmlPage, nextChunks, nextPage, supabaseBundle, UNAUTHORIZED, viteApp, withCors } from '../shapes';
import { baselineHeaders } from '../harness';
import type { CorpusApp, CorpusResponse } from '../types';

const PROFILES = [
  { id: 1, email: 'ann@petpal.example', full_name: 'Ann Lee', phone: '+1 555 0100', created_at: '2025-03-01T10:00:00Z' },
  { id: 2, email: 'bo@petpal.example', full_name: 'Bo Chen', phone: '+1 555 0101', created_at: '2025-03-02T10:00:00Z' },
];
const POSTS = [{ id: 1, title: 'Launch day', body: 'We are live.', created_at: '2025-04-01T09:00:00Z' }];

const OPENAI_KEY = 'sk-' + 'proj-' + fakeToken(120, undefined, 21);
const STRIPE_SECRET = 'sk_' + 'live_' + fakeToken(99, undefined, 22);
const STRIPE_PUBLISHABLE = 'pk_' + 'live_' + fakeToken(99, undefined, 23);
const FIREBASE_WEB_KEY = 'AIza' + fakeToken(35, undefined, 24);
const SENTRY_DSN = `https://${fakeToken(32, HEX, 25)}@o450123.ingest.us.sentry.io/4507123456789`;
const DB_PASSWORD = fakeToken(24, undefined, 26);
const GITHUB_TOKEN = 'ghp_' + fakeToken(36, undefined, 27);

const text = (body: string, extra: Partial<CorpusResponse> = {}): CorpusResponse => ({ body, contentType: 'text/plain; charset=utf-8', ...extra });

/** An Express app's landing page that links to its API, as a generated README-style index does. */
const apiLanding = (name: string, links: string[]) =>
  htmlPage(name, `<h1>${name} API</h1><p>Server is running.</p><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul>`);

const VULNERABLE: CorpusApp[] = [
  {
    id: 'vite-supabase-rls-off',
    shape: 'vite-supabase',
    title: 'Lovable-style app whose profiles table has no row level security, read with the anon key',
    supabase: { tables: { profiles: PROFILES, posts: { rows: POSTS, rls: true } } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => viteApp('PetPal', supabaseBundle(ctx.supabaseUrl!, anonKey('petpal'), ['profiles', 'posts'])),
  },
  {
    id: 'vite-supabase-service-key',
    shape: 'vite-supabase',
    title: 'Bolt-style admin page that builds its Supabase client with the service_role key in the bundle',
    supabase: { tables: { profiles: { rows: PROFILES, rls: true } } },
    expect: [{ checkId: 'supabase-service-key', minSeverity: 'critical' }],
    routes: (ctx) => ({
      ...viteApp(
        'TaskFlow',
        supabaseBundle(ctx.supabaseUrl!, anonKey('taskflow'), ['profiles'], `const Ad=()=>import("./admin-Hx81LqPz.js");`),
      ),
      '/assets/admin-Hx81LqPz.js': {
        body: `import{c as Ut}from"./vendor-Ck2m9QpL.js";const adminClient=Ut("${ctx.supabaseUrl}","${fakeSupabaseKey('taskflow', 'service_role', 12)}",{auth:{persistSession:!1}});export async function deleteUser(e){return adminClient.auth.admin.deleteUser(e)}`,
      },
    }),
  },
  {
    id: 'vite-supabase-public-bucket',
    shape: 'vite-supabase',
    title: 'Supabase app whose invoices bucket is public and listable with the anon key',
    supabase: {
      tables: { invoices: { rows: [{ id: 1, amount: 120 }], rls: true } },
      buckets: [{ name: 'invoices', public: true, files: { 'inv-2025-001.pdf': '%PDF-1.7 invoice' } }],
    },
    expect: [{ checkId: 'supabase-bucket-listable', minSeverity: 'medium' }],
    routes: (ctx) =>
      viteApp('InvoiceNinja Lite', supabaseBundle(ctx.supabaseUrl!, anonKey('invoicer'), ['invoices'], `const Dl=e=>Ve.storage.from("invoices").getPublicUrl(e);`)),
  },
  {
    id: 'vite-openai-key-in-bundle',
    shape: 'vite-supabase',
    title: 'AI chat app calling the OpenAI API from the browser with a project key in the bundle',
    expect: [{ checkId: 'secret-in-client', minSeverity: 'critical' }],
    routes: () =>
      viteApp(
        'ChatPal',
        `import{r as c,j as s}from"./vendor-Ck2m9QpL.js";const Ke="${OPENAI_KEY}";async function ask(e){const t=await fetch("https://api.openai.com/v1/chat/completions",{method:"POST",headers:{"Content-Type":"application/json",Authorization:\`Bearer \${Ke}\`},body:JSON.stringify({model:"gpt-4o-mini",messages:e})});return(await t.json()).choices[0].message}export{ask};`,
      ),
  },
  {
    id: 'next-stripe-secret-in-bundle',
    shape: 'next-supabase',
    title: 'Next.js checkout page that creates Stripe sessions from the browser with the live secret key',
    expect: [{ checkId: 'secret-in-client', path: '/_next/static/chunks/pages/checkout', minSeverity: 'critical' }],
    routes: () => ({
      '/': nextPage('ShopNow', '<main><h1>ShopNow</h1><a href="/checkout">Checkout</a></main>', { products: [{ id: 'p1', name: 'Mug', price: 12 }] }),
      '/checkout': nextPage('Checkout', '<main><h1>Checkout</h1></main>', {}, '/checkout'),
      ...nextChunks({
        '/': 'var r=n(1);t.default=function(){return r.jsx("main",{})}',
        '/checkout': `var r=n(1),o=n(2);const i=new o.Stripe("${STRIPE_SECRET}",{apiVersion:"2024-06-20"});t.default=async function(){const e=await i.checkout.sessions.create({mode:"payment"});window.location=e.url}`,
      }),
    }),
  },
  {
    id: 'vite-exposed-env',
    shape: 'vite-supabase',
    title: 'Vite app deployed with its .env in the public folder: database URL, service key, Stripe secret',
    expect: [{ checkId: 'exposed-env-file', path: '/.env', minSeverity: 'high' }],
    routes: () => ({
      ...viteApp('Bookly', 'import{r as c}from"./vendor-Ck2m9QpL.js";export default function App(){return null}'),
      '/.env': text(
        `VITE_APP_NAME=Bookly\nDATABASE_URL=postgresql://postgres:${DB_PASSWORD}@db.internal.bookly.example:5432/postgres\nSTRIPE_SECRET_KEY=${STRIPE_SECRET}\nJWT_SECRET=${fakeToken(40, undefined, 31)}\n`,
      ),
    }),
  },
  {
    id: 'static-exposed-git',
    shape: 'static',
    title: 'Site deployed by copying the repository, .git included, with a token in the remote URL',
    expect: [{ checkId: 'exposed-git', minSeverity: 'high' }],
    routes: () => ({
      '/': htmlPage('Nimbus Studio', '<h1>Nimbus Studio</h1><p>Design and code for startups.</p><a href="/work.html">Work</a>'),
      '/work.html': htmlPage('Work', '<h1>Selected work</h1><a href="/">Home</a>'),
      '/.git/HEAD': text('ref: refs/heads/main\n'),
      '/.git/config': text(
        `[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote "origin"]\n\turl = https://nimbus-deploy:${GITHUB_TOKEN}@github.com/nimbus-studio/site.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n`,
      ),
    }),
  },
  {
    id: 'vite-source-map-exposed',
    shape: 'vite-supabase',
    title: 'Vite production build shipped with source maps that carry the original source',
    expect: [{ checkId: 'exposed-source-map', path: '.map' }],
    routes: () => {
      const source = `import { useState } from 'react';\n\n// Pricing calculator\nexport default function App() {\n  const [seats, setSeats] = useState(3);\n  return <p>{seats * 12} USD</p>;\n}\n`;
      return {
        ...viteApp('SeatCalc', 'import{r as c,j as s}from"./vendor-Ck2m9QpL.js";function App(){const[e,t]=c.useState(3);return s.jsx("p",{children:e*12})}export{App};\n//# sourceMappingURL=index-C4mLq2Xa.js.map'),
        '/assets/index-C4mLq2Xa.js.map': {
          body: JSON.stringify({ version: 3, file: 'index-C4mLq2Xa.js', sources: ['../../src/App.tsx'], sourcesContent: [source], names: [], mappings: 'AAAA,OAAS' }),
        },
      };
    },
  },
  {
    id: 'vite-source-map-commented-key',
    shape: 'vite-supabase',
    title: 'Source map whose original source keeps a commented-out OpenAI key the minifier stripped from the bundle',
    expect: [
      { checkId: 'exposed-source-map', path: '.map', minSeverity: 'medium' },
      { checkId: 'secret-in-client', minSeverity: 'critical' },
    ],
    routes: () => {
      const source = `// Moved the call to the edge function "chat"; keep the key handy for local testing\n// const OPENAI_API_KEY = "${OPENAI_KEY}";\nimport { supabase } from './lib/supabase';\n\nexport async function ask(messages) {\n  const { data } = await supabase.functions.invoke('chat', { body: { messages } });\n  return data;\n}\n`;
      return {
        ...viteApp('StoryBot', 'import{r as c}from"./vendor-Ck2m9QpL.js";async function ask(e){return(await fetch("/functions/v1/chat",{method:"POST",body:JSON.stringify({messages:e})})).json()}export{ask};\n//# sourceMappingURL=index-C4mLq2Xa.js.map'),
        '/assets/index-C4mLq2Xa.js.map': {
          body: JSON.stringify({ version: 3, file: 'index-C4mLq2Xa.js', sources: ['../../src/chat.ts'], sourcesContent: [source], names: [], mappings: 'AAAA,OAAS' }),
        },
      };
    },
  },
  {
    id: 'static-jquery-cdn-no-sri',
    shape: 'static',
    title: 'Landing page loading jQuery 1.12.4 and lodash 4.17.4 from CDNs without integrity',
    expect: [
      { checkId: 'vulnerable-js-library', path: 'jquery-1.12.4', minSeverity: 'medium' },
      { checkId: 'vulnerable-js-library', path: 'lodash.js/4.17.4', minSeverity: 'medium' },
      { checkId: 'subresource-integrity', minSeverity: 'medium' },
    ],
    routes: (ctx) => {
      const csp = `default-src 'self'; script-src 'self' https://code.jquery.com https://cdnjs.cloudflare.com; object-src 'none'; base-uri 'self'; frame-ancestors 'none'`;
      return {
        '/': {
          ...htmlPage(
            'Sunrise Yoga',
            '<h1>Sunrise Yoga</h1><p>Classes every morning.</p><a href="/schedule.html">Schedule</a>',
            '<script src="https://code.jquery.com/jquery-1.12.4.min.js"></script><script src="https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.4/lodash.min.js"></script><script src="/js/main.js"></script>',
          ),
          headers: { 'content-security-policy': csp },
        },
        '/schedule.html': { ...htmlPage('Schedule', '<h1>Schedule</h1><a href="/">Home</a>'), headers: { 'content-security-policy': csp } },
        '/js/main.js': { body: `$(function(){$(".menu").on("click",function(){$(this).toggleClass("open")});console.log("${ctx.origin}")});` },
      };
    },
  },
  {
    id: 'static-polyfill-io',
    shape: 'static',
    title: 'Old template still loading polyfill.io, the CDN taken over to serve malware',
    expect: [
      { checkId: 'malicious-script-host', minSeverity: 'critical' },
      { checkId: 'subresource-integrity', minSeverity: 'medium' },
    ],
    routes: () => ({
      '/': {
        ...htmlPage('Harbor Dental', '<h1>Harbor Dental</h1><p>Book your check-up.</p>', '<script src="https://cdn.polyfill.io/v3/polyfill.min.js?features=default"></script>'),
        headers: { 'content-security-policy': "default-src 'self'; script-src 'self' https://cdn.polyfill.io; object-src 'none'; base-uri 'self'; frame-ancestors 'none'" },
      },
    }),
  },
  {
    id: 'express-cors-reflected-credentials',
    shape: 'express-api',
    title: "Express API with cors({ origin: true, credentials: true }): any site can read a signed-in user's data",
    // origin: true echoes every Origin, the literal 'null' of sandboxed frames and file: pages included.
    expect: [
      { checkId: 'cors-reflected-origin', path: '/api/', minSeverity: 'high' },
      { checkId: 'cors-reflected-origin', minSeverity: 'high' },
      { checkId: 'cors-null-origin', minSeverity: 'high' },
    ],
    routes: () => {
      const cors = { origins: 'reflect-any' as const, credentials: true };
      return {
        '/': withCors(cors, () => apiLanding('Tasky', ['/api/health', '/api/me'])),
        '/api/health': withCors(cors, () => ({ body: JSON.stringify({ status: 'ok' }) })),
        '/api/me': withCors(cors, () => UNAUTHORIZED),
      };
    },
  },
  {
    id: 'express-cors-null-origin',
    shape: 'express-api',
    title: "Express API whose CORS allow-list includes 'null' (added for local file testing), with credentials",
    expect: [{ checkId: 'cors-null-origin', minSeverity: 'high' }],
    routes: () => {
      const cors = { origins: ['https://app.notely.example', 'null'], credentials: true };
      return {
        '/': withCors(cors, () => apiLanding('Notely', ['/api/health', '/api/notes'])),
        '/api/health': withCors(cors, () => ({ body: JSON.stringify({ status: 'ok' }) })),
        '/api/notes': withCors(cors, () => UNAUTHORIZED),
      };
    },
  },
  {
    id: 'express-missing-headers',
    shape: 'express-api',
    title: 'Express server-rendered app behind a stock Ubuntu nginx with no security headers at all (no helmet)',
    expect: [
      { checkId: 'csp-missing', minSeverity: 'medium' },
      { checkId: 'clickjacking', minSeverity: 'medium' },
      { checkId: 'x-content-type-options' },
      { checkId: 'server-version-disclosure' },
    ],
    routes: () => {
      const bare = (page: CorpusResponse): CorpusResponse => ({ ...page, bareHeaders: true, headers: { server: 'nginx/1.18.0 (Ubuntu)', 'x-powered-by': 'Express', etag: 'W/"1b4-abc"' } });
      return {
        '/': bare(htmlPage('FitTrack', '<h1>FitTrack</h1><p>Log your workouts.</p><a href="/about">About</a>')),
        '/about': bare(htmlPage('About FitTrack', '<h1>About</h1><a href="/">Home</a>')),
      };
    },
  },
  {
    id: 'vite-csp-unsafe-inline-eval',
    shape: 'vite-supabase',
    title: "CSP pasted from a forum answer: script-src 'unsafe-inline' 'unsafe-eval' plus a wildcard",
    expect: [{ checkId: 'csp-weak', minSeverity: 'medium' }],
    routes: () => {
      const files = viteApp('Recipe Box', 'import{r as c}from"./vendor-Ck2m9QpL.js";export default function App(){return null}');
      const root = files['/']!;
      return {
        ...files,
        '/': { ...root, headers: { 'content-security-policy': "default-src * 'unsafe-inline' 'unsafe-eval'; script-src * 'unsafe-inline' 'unsafe-eval'" } },
      };
    },
  },
  {
    id: 'express-session-cookie-flags',
    shape: 'express-api',
    title: 'express-session with default cookie options changed to httpOnly: false so the SPA can read it',
    expect: [{ checkId: 'cookie-httponly', minSeverity: 'medium' }, { checkId: 'cookie-samesite' }, { checkId: 'login-form-no-csrf', path: '/login' }],
    routes: () => ({
      '/': {
        ...htmlPage('ClubHub', '<h1>ClubHub</h1><a href="/login">Sign in</a>'),
        headers: { 'set-cookie': `connect.sid=s%3A${fakeToken(32, undefined, 41)}.${fakeToken(43, undefined, 42)}; Path=/; Expires=Wed, 24 Dec 2026 07:00:00 GMT` },
      },
      '/login': htmlPage('Sign in', '<form method="post" action="/login"><input name="email"><input type="password" name="password"><button>Sign in</button></form>'),
    }),
  },
  {
    id: 'static-directory-listing',
    shape: 'static',
    title: 'nginx with autoindex on: the uploads folder lists every customer file',
    expect: [{ checkId: 'directory-listing', path: '/uploads/', minSeverity: 'medium' }],
    routes: () => ({
      '/': htmlPage('PrintShop', '<h1>PrintShop</h1><p>Upload your artwork and we print it.</p>'),
      '/uploads/': htmlPage(
        'Index of /uploads/',
        '<h1>Index of /uploads/</h1><hr><pre><a href="../">../</a>\n<a href="invoice-0042.pdf">invoice-0042.pdf</a>                                   12-Mar-2025 10:11              48213\n<a href="passport-scan-jlee.jpg">passport-scan-jlee.jpg</a>                             14-Mar-2025 16:40             912044\n</pre><hr>',
      ),
    }),
  },
  {
    id: 'express-error-stack-trace',
    shape: 'express-api',
    title: 'Express app running with NODE_ENV unset: an error page shows the stack trace and file paths',
    expect: [{ checkId: 'error-disclosure', path: '/orders/', minSeverity: 'medium' }],
    routes: () => ({
      '/': htmlPage('OrderDesk', '<h1>OrderDesk</h1><a href="/orders/recent">Recent orders</a>'),
      '/orders/recent': {
        status: 500,
        ...htmlPage(
          'Error',
          "<pre>TypeError: Cannot read properties of undefined (reading 'customerId')<br> &nbsp; &nbsp;at /srv/orderdesk/server/routes/orders.js:42:31<br> &nbsp; &nbsp;at Layer.handle [as handle_request] (/srv/orderdesk/node_modules/express/lib/router/layer.js:95:5)<br> &nbsp; &nbsp;at next (/srv/orderdesk/node_modules/express/lib/router/route.js:149:13)<br> &nbsp; &nbsp;at Route.dispatch (/srv/orderdesk/node_modules/express/lib/router/route.js:119:3)</pre>",
        ),
      },
    }),
  },
  {
    id: 'vite-ai-tool-files',
    shape: 'vite-supabase',
    title: 'Cursor and Claude Code instruction files published with the build, naming internal services',
    expect: [
      { checkId: 'exposed-ai-tool-files', path: '/.cursorrules' },
      { checkId: 'exposed-ai-tool-files', path: '/CLAUDE.md' },
    ],
    routes: () => ({
      ...viteApp('Lingo Cards', 'import{r as c}from"./vendor-Ck2m9QpL.js";export default function App(){return null}'),
      '/.cursorrules': text(
        '# Project rules\n- Use React 18, Tailwind and shadcn/ui.\n- All data goes through Supabase; admin actions call the edge function `admin-ops`.\n- Never remove the `isAdmin` check in src/lib/auth.ts.\n',
      ),
      '/CLAUDE.md': text(
        '# CLAUDE.md\n\n## Commands\n- `npm run dev` starts Vite on 5173\n- `npm run deploy` pushes dist/ to the bucket\n\n## Architecture\n- Staging API: https://staging-api.lingocards.example (basic auth in 1Password)\n- Admin panel at /admin, guarded only on the client\n',
      ),
    }),
  },
  {
    id: 'static-suspicious-comments',
    shape: 'static',
    title: 'HTML comments left by the generator: a to-do about auth and a staging password',
    expect: [{ checkId: 'suspicious-comments' }],
    routes: () => ({
      '/': htmlPage(
        'Parkly',
        `<!-- TODO: re-enable auth check on /admin before launch -->\n<!-- staging login: admin / password="${fakeToken(16, undefined, 51)}" -->\n<h1>Parkly</h1><p>Find parking near you.</p>`,
      ),
    }),
  },
  {
    id: 'vite-exposed-sql-dump',
    shape: 'vite-supabase',
    title: 'Database dump left in the public folder after a migration',
    expect: [{ checkId: 'exposed-backup', path: '/backup.sql', minSeverity: 'high' }],
    routes: () => ({
      ...viteApp('Tutorly', 'import{r as c}from"./vendor-Ck2m9QpL.js";export default function App(){return null}'),
      '/backup.sql': text(
        "--\n-- PostgreSQL database dump\n--\n\n-- Dumped from database version 15.8\n\nSET statement_timeout = 0;\nSET client_encoding = 'UTF8';\n\nCREATE TABLE public.users (\n    id uuid NOT NULL,\n    email text NOT NULL,\n    password_hash text\n);\n\nCOPY public.users (id, email, password_hash) FROM stdin;\n7d1c...\tann@tutorly.example\t$2b$10$abcdefghijklmnopqrstuv\n\\.\n",
        { contentType: 'application/sql' },
      ),
    }),
  },
  {
    id: 'express-exposed-config-json',
    shape: 'express-api',
    title: 'Express app serving its project root statically: config.json with the database password is public',
    expect: [{ checkId: 'exposed-config-json', path: '/config.json', minSeverity: 'medium' }],
    routes: () => ({
      '/': apiLanding('Rentals', ['/api/health']),
      '/api/health': { body: JSON.stringify({ status: 'ok' }) },
      '/config.json': {
        body: JSON.stringify({ port: 3000, database: { host: 'db.rentals.internal', user: 'rentals', password: DB_PASSWORD, name: 'rentals' }, jwtSecret: fakeToken(40, undefined, 61), smtp: { host: 'smtp.mailgun.org', user: 'postmaster@rentals.example' } }, null, 2),
      },
    }),
  },
  {
    id: 'next-supabase-rls-off',
    shape: 'next-supabase',
    title: 'Next.js + Supabase app (v0-style) whose orders table has no row level security',
    supabase: { tables: { orders: [{ id: 101, customer_email: 'kim@shop.example', total: 54.9, address: '12 Elm St', created_at: '2025-05-01T12:00:00Z' }] } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => ({
      '/': nextPage('Crate & Co', '<main><h1>Crate &amp; Co</h1><a href="/orders">My orders</a></main>', { featured: [{ id: 'c1', name: 'Oak crate' }] }),
      '/orders': nextPage('My orders', '<main><h1>My orders</h1></main>', {}, '/orders'),
      ...nextChunks({
        '/': 'var r=n(1);t.default=function(){return r.jsx("main",{})}',
        '/orders': `var r=n(1),o=n(2);const i=(0,o.createClient)("${ctx.supabaseUrl}","${anonKey('crateco', 14)}");t.default=function(){return i.from("orders").select("*").then(e=>r.jsx("ul",{children:e.data}))}`,
      }),
    }),
  },
  {
    id: 'cra-github-token-in-bundle',
    shape: 'cra',
    title: 'Create React App that reads a private repository from the browser with REACT_APP_GITHUB_TOKEN inlined',
    expect: [{ checkId: 'secret-in-client', path: '/static/js/main.', minSeverity: 'high' }],
    routes: () => ({
      '/': htmlPage(
        'Changelog Viewer',
        '<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>',
        '<script defer="defer" src="/static/js/main.8f2c1a9e.js"></script><link href="/static/css/main.5b1d3e7a.css" rel="stylesheet">',
      ),
      '/static/js/main.8f2c1a9e.js': {
        body: `/*! For license information please see main.8f2c1a9e.js.LICENSE.txt */(()=>{"use strict";const e="${GITHUB_TOKEN}";async function t(){return(await fetch("https://api.github.com/repos/acme/internal-roadmap/releases",{headers:{Authorization:"token "+e}})).json()}t().then(console.log)})();`,
      },
      '/static/css/main.5b1d3e7a.css': { body: 'body{margin:0}', contentType: 'text/css; charset=utf-8' },
    }),
  },
  {
    id: 'astro-no-frame-protection',
    shape: 'astro',
    title: 'Astro site on a static host with a CSP but neither frame-ancestors nor X-Frame-Options: its sign-in can be framed',
    expect: [{ checkId: 'clickjacking', minSeverity: 'medium' }],
    routes: () => {
      const headers = {
        'content-security-policy': "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'",
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'permissions-policy': 'camera=(), microphone=()',
      };
      const page = (title: string, body: string): CorpusResponse => ({
        ...htmlPage(title, body, '<link rel="stylesheet" href="/_astro/index.DfR2pQ8x.css"><script type="module" src="/_astro/hoisted.Bk9mT2aZ.js"></script>'),
        bareHeaders: true,
        headers,
      });
      return {
        '/': page('Mapleleaf Bank', '<h1>Mapleleaf</h1><a href="/login/">Sign in</a>'),
        '/login/': page('Sign in', '<form method="post" action="/api/login"><input type="hidden" name="csrf" value="k2Pq"><input name="user"><input type="password" name="password"><button>Sign in</button></form>'),
        '/_astro/index.DfR2pQ8x.css': { body: 'body{margin:0}', contentType: 'text/css; charset=utf-8', bareHeaders: true, headers },
        '/_astro/hoisted.Bk9mT2aZ.js': { body: 'document.querySelector("form")?.addEventListener("submit",()=>{});', bareHeaders: true, headers },
      };
    },
  },
  {
    id: 'vite-session-cookie-set-by-script',
    shape: 'vite-supabase',
    title: 'SPA that signs in against its own API and keeps the session token in a cookie written by JavaScript',
    // The cookie only exists once the bundle runs: seen by rendering in Chromium.
    render: true,
    expect: [{ checkId: 'cookie-httponly', minSeverity: 'medium' }],
    routes: () =>
      viteApp(
        'Habitly',
        `const k="${fakeToken(40, undefined, 81)}";document.cookie="auth_token="+k+"; path=/; max-age=2592000";document.getElementById("root").textContent="Welcome back";`,
      ),
  },
  {
    id: 'express-https-cookie-not-secure',
    shape: 'express-api',
    title: 'HTTPS Express app whose session cookie lacks Secure (cookie: { secure: false } copied from a local setup)',
    tls: true,
    expect: [{ checkId: 'cookie-secure', minSeverity: 'medium' }],
    routes: () => ({
      '/': {
        ...htmlPage('Potluck', '<h1>Potluck</h1><a href="/login">Sign in</a>'),
        headers: { 'set-cookie': `sid=${fakeToken(40, undefined, 91)}; Path=/; HttpOnly; SameSite=Lax` },
      },
      '/login': htmlPage('Sign in', '<form method="post" action="/login"><input type="hidden" name="_csrf" value="p0Tq"><input name="email"><input type="password" name="password"><button>Sign in</button></form>'),
    }),
  },
  {
    id: 'static-https-mixed-content',
    shape: 'static',
    title: 'HTTPS landing page embedding an old chat widget over plain http://',
    tls: true,
    expect: [
      { checkId: 'mixed-content', minSeverity: 'high' },
      { checkId: 'subresource-integrity', minSeverity: 'medium' },
    ],
    routes: () => ({
      '/': htmlPage('Bright Smiles', '<h1>Bright Smiles</h1><p>Chat with us!</p>', '<script src="http://widgets.chatterbox-live.example/embed.js" async></script>'),
    }),
  },
  {
    id: 'express-https-no-hsts',
    shape: 'express-api',
    title: 'HTTPS app behind a proxy that sets every security header but Strict-Transport-Security',
    tls: true,
    expect: [{ checkId: 'hsts', minSeverity: 'medium' }],
    routes: (ctx) => {
      const { 'strict-transport-security': _hsts, ...rest } = baselineHeaders(ctx);
      const page = (title: string, body: string): CorpusResponse => ({ ...htmlPage(title, body), bareHeaders: true, headers: rest });
      return {
        '/': page('Ledgerly', '<h1>Ledgerly</h1><a href="/features">Features</a>'),
        '/features': page('Features', '<h1>Features</h1><a href="/">Home</a>'),
      };
    },
  },
  {
    id: 'static-https-form-posts-to-http',
    shape: 'static',
    title: 'HTTPS sign-in page whose form posts the password to an http:// endpoint',
    tls: true,
    expect: [{ checkId: 'form-posts-to-http', minSeverity: 'high' }],
    routes: () => ({
      '/': htmlPage('Campus Portal', '<h1>Campus Portal</h1><a href="/login">Sign in</a>'),
      '/login': htmlPage(
        'Sign in',
        '<form method="post" action="http://auth.campusportal.example/login"><input type="hidden" name="csrf_token" value="Hk29"><input name="user"><input type="password" name="password"><button>Sign in</button></form>',
      ),
    }),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'vite-supabase-clean-1',
    shape: 'vite-supabase',
    title: 'clean control: Supabase app with row level security on every table and only the anon key in the bundle',
    control: true,
    expect: [],
    supabase: { tables: { profiles: { rows: PROFILES, rls: true }, posts: { rows: POSTS, rls: true } }, buckets: [{ name: 'avatars', public: false, visibleToAnon: false }] },
    routes: (ctx) => viteApp('PetPal', supabaseBundle(ctx.supabaseUrl!, anonKey('petpal'), ['profiles', 'posts'])),
  },
  {
    id: 'static-clean-1',
    shape: 'static',
    title: 'clean control: a static marketing site with good headers',
    control: true,
    expect: [],
    routes: () => ({
      '/': htmlPage('Acme Analytics', '<h1>Acme Analytics</h1><p>Dashboards for small teams.</p><a href="/pricing">Pricing</a> <a href="/blog/">Blog</a>'),
      '/pricing': htmlPage('Pricing', '<h1>Pricing</h1><p>Free for three seats.</p><a href="/">Home</a>'),
      '/blog/': htmlPage('Blog', '<h1>Blog</h1><p>Release notes and guides.</p><a href="/">Home</a>'),
      '/robots.txt': text('User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n'),
    }),
  },
  {
    id: 'next-supabase-clean-1',
    shape: 'next-supabase',
    title: 'clean control: Next.js app whose page data and bundle hold NEXT_PUBLIC values only, RLS on',
    control: true,
    expect: [],
    supabase: { tables: { listings: { rows: [{ id: 1, title: 'Loft' }], rls: true } } },
    routes: (ctx) => ({
      '/': nextPage('Stayz', '<main><h1>Stayz</h1><a href="/about">About</a></main>', { listings: [{ id: 1, title: 'Sunny loft', city: 'Lisbon', price: 95 }], siteUrl: ctx.origin }),
      '/about': nextPage('About Stayz', '<main><h1>About</h1></main>', { team: ['Ana', 'Rui'] }, '/about'),
      ...nextChunks({
        '/': `var r=n(1),o=n(2);const i=(0,o.createClient)("${ctx.supabaseUrl}","${anonKey('stayz', 13)}");t.default=function(){return i.from("listings").select("id,title").then(()=>r.jsx("main",{}))}`,
        '/about': 'var r=n(1);t.default=function(){return r.jsx("main",{})}',
      }),
    }),
  },
  {
    id: 'express-api-clean-1',
    shape: 'express-api',
    title: 'clean control: Express API that answers 401 without a session and allows CORS only from its own front end',
    control: true,
    expect: [],
    routes: () => {
      const cors = { origins: ['https://app.tasky.example'], credentials: true };
      return {
        '/': withCors(cors, () => apiLanding('Tasky', ['/api/health', '/api/me', '/api/tasks'])),
        '/api/health': withCors(cors, () => ({ body: JSON.stringify({ status: 'ok', uptime: 1234 }) })),
        '/api/me': withCors(cors, () => UNAUTHORIZED),
        '/api/tasks': withCors(cors, () => UNAUTHORIZED),
      };
    },
  },
  {
    id: 'sveltekit-clean-1',
    shape: 'sveltekit',
    title: 'clean control: SvelteKit app (adapter-node) with its immutable chunks and page data',
    control: true,
    expect: [],
    routes: () => {
      const shell = (title: string, content: string, route: string): CorpusResponse => ({
        body: `<!doctype html>
<html lang="en">
	<head>
		<meta charset="utf-8" />
		<link rel="icon" href="/favicon.png" />
		<meta name="viewport" content="width=device-width, initial-scale=1" />
		<link href="/_app/immutable/assets/0.Bq3xT9aK.css" rel="stylesheet">
		<link rel="modulepreload" href="/_app/immutable/entry/start.DkR8vQ1m.js">
		<link rel="modulepreload" href="/_app/immutable/entry/app.C7nYp2Lx.js">
		<title>${title}</title>
	</head>
	<body data-sveltekit-preload-data="hover">
		<div style="display: contents">${content}
			<script>
				{
					__sveltekit_1x8k2p = { base: new URL(".", location).pathname.slice(0, -1) };
					const element = document.currentScript.parentElement;
					Promise.all([import("/_app/immutable/entry/start.DkR8vQ1m.js"), import("/_app/immutable/entry/app.C7nYp2Lx.js")]).then(([kit, app]) => {
						kit.start(app, element, { node_ids: [0, ${route === '/' ? 2 : 3}], data: [null,{type:"data",data:{events:[{id:1,name:"Meetup"}]},uses:{}}], form: null, error: null });
					});
				}
			</script>
		</div>
	</body>
</html>
`,
      });
      return {
        '/': shell('Eventful', '<h1>Eventful</h1><a href="/events">Events</a>', '/'),
        '/events': shell('Events', '<h1>Events</h1><a href="/">Home</a>', '/events'),
        '/_app/immutable/entry/start.DkR8vQ1m.js': { body: 'import{a as r}from"../chunks/entry.B1xQ.js";export{r as start};' },
        '/_app/immutable/entry/app.C7nYp2Lx.js': { body: 'const n=[()=>import("../nodes/0.js")];export{n as nodes};' },
        '/_app/immutable/assets/0.Bq3xT9aK.css': { body: 'body{margin:0}', contentType: 'text/css; charset=utf-8' },
        '/_app/version.json': { body: JSON.stringify({ version: '1732430000000' }) },
      };
    },
  },
  {
    id: 'next-firebase-public-keys-clean-1',
    shape: 'next-firebase',
    title: 'clean control: Next.js + Firebase app with only public-by-design keys: Firebase web config, Stripe pk_, Sentry DSN',
    control: true,
    expect: [],
    routes: () => ({
      '/': nextPage('Snapfolio', '<main><h1>Snapfolio</h1><a href="/pricing">Pricing</a></main>', { plans: ['free', 'pro'] }),
      '/pricing': nextPage('Pricing', '<main><h1>Pricing</h1></main>', { plans: [{ id: 'pro', price: 9 }] }, '/pricing'),
      ...nextChunks({
        '/': `var r=n(1),o=n(3);const c={apiKey:"${FIREBASE_WEB_KEY}",authDomain:"snapfolio-app.firebaseapp.com",projectId:"snapfolio-app",storageBucket:"snapfolio-app.firebasestorage.app",messagingSenderId:"804512367711",appId:"1:804512367711:web:3f9a1c2b7d4e5f60a1b2c3",measurementId:"G-7KQ2X9LM4P"};const a=(0,o.initializeApp)(c);r.init({dsn:"${SENTRY_DSN}",tracesSampleRate:.1});t.default=function(){return null}`,
        '/pricing': `var o=n(4);const s=(0,o.loadStripe)("${STRIPE_PUBLISHABLE}");t.default=function(){return s}`,
      }),
    }),
  },
  {
    id: 'express-clean-2',
    shape: 'express-api',
    title: 'clean control: Express app with a HttpOnly Secure SameSite session cookie, SRI on its CDN script, a generic error page',
    control: true,
    expect: [],
    routes: () => ({
      '/': {
        ...htmlPage(
          'ClubHub',
          '<h1>ClubHub</h1><a href="/login">Sign in</a> <a href="/orders/recent">Orders</a>',
          '<script src="https://code.jquery.com/jquery-3.7.1.min.js" integrity="sha384-1H217gwSVyLSIfaLxHbE7dRb3v4mYCKbpQvzx0cegeju1MVsGrX5xXxAvs/HgeFs" crossorigin="anonymous"></script>',
        ),
        headers: {
          'set-cookie': `__Host-session=${fakeToken(48, undefined, 71)}; Path=/; HttpOnly; Secure; SameSite=Lax`,
          'content-security-policy': "default-src 'self'; script-src 'self' https://code.jquery.com; object-src 'none'; base-uri 'self'; frame-ancestors 'none'",
        },
      },
      '/login': htmlPage('Sign in', '<form method="post" action="/login"><input type="hidden" name="_csrf" value="Zk3pQ"><input name="email"><input type="password" name="password"><button>Sign in</button></form>'),
      '/orders/recent': { status: 500, ...htmlPage('Something went wrong', '<h1>Something went wrong</h1><p>Please try again. Reference: 7f3a9c.</p>') },
    }),
  },
  {
    id: 'static-clean-2',
    shape: 'static',
    title: 'clean control: documentation site whose upload folder answers 403 and whose comments are plain notes',
    control: true,
    expect: [],
    routes: () => ({
      '/': htmlPage('Docs', '<!-- Generated by the docs builder. Edit the markdown, not this file. -->\n<h1>Widget docs</h1><a href="/guide/">Guide</a>'),
      '/guide/': htmlPage('Guide', '<h1>Guide</h1><p>Install with npm.</p><a href="/">Home</a>'),
      '/uploads/': { status: 403, ...htmlPage('403 Forbidden', '<h1>403 Forbidden</h1><hr><center>nginx</center>') },
    }),
  },
  {
    id: 'express-https-clean-1',
    shape: 'express-api',
    title: 'clean control: HTTPS Express app with HSTS, a Secure HttpOnly SameSite session cookie and every resource over https',
    control: true,
    tls: true,
    expect: [],
    routes: () => ({
      '/': {
        ...htmlPage('Potluck', '<h1>Potluck</h1><a href="/login">Sign in</a>', '<link rel="stylesheet" href="/styles.css">'),
        headers: { 'set-cookie': `__Host-sid=${fakeToken(40, undefined, 92)}; Path=/; Secure; HttpOnly; SameSite=Lax` },
      },
      '/login': htmlPage('Sign in', '<form method="post" action="/login"><input type="hidden" name="_csrf" value="p0Tq"><input name="email"><input type="password" name="password"><button>Sign in</button></form>'),
      '/styles.css': { body: 'body{margin:0}', contentType: 'text/css; charset=utf-8' },
    }),
  },
  {
    id: 'vite-supabase-spa-fallback-clean-1',
    shape: 'vite-supabase',
    title: 'clean control: Vite SPA on a host that rewrites every path to index.html, so /.env and /.git/HEAD answer 200 with the app shell',
    control: true,
    expect: [],
    supabase: { tables: { notes: { rows: [{ id: 1, body: 'hello' }], rls: true } } },
    routes: (ctx) => {
      const files = viteApp('Notes', supabaseBundle(ctx.supabaseUrl!, anonKey('notesapp', 15), ['notes']));
      return { ...files, '*': files['/']! };
    },
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];
