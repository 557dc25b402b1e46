// API apps: the app's own API routes, documentation, GraphQL and admin pages, in the shapes AI tools produce (an
// Express API behind a Vite front end, Next.js route handlers over Supabase), and clean twins that check the session.
import { htmlPage, nextChunks, nextPage, UNAUTHORIZED, viteApp } from '../shapes';
import type { CorpusApp, CorpusResponse } from '../types';

/** People as an app's users table holds them; hashes are bcrypt-shaped, not of any real password. */
const USERS = [
  { id: 1, name: 'Maya Patel', email: 'maya@fitbook.example', phone: '+1 415 555 0134', role: 'admin', created_at: '2025-02-11T09:12:00Z' },
  { id: 2, name: 'Tom Berg', email: 'tom@fitbook.example', phone: '+1 415 555 0178', role: 'member', created_at: '2025-02-12T16:40:00Z' },
  { id: 3, name: 'Lea Roux', email: 'lea@fitbook.example', phone: '+33 6 55 01 02 03', role: 'member', created_at: '2025-02-14T08:05:00Z' },
];
const HASHES = ['$2b$10$7EqJtq98hPqEX7fNZaFWoOhi5BxmGv6u0gQhC.d3kYh0ZRrJrQ9aO', '$2b$10$Q1m2n3b4v5c6x7z8l9k0jOa9s8d7f6g5h4j3k2l1p0o9i8u7y6t5r'];
const PRODUCTS = [
  { id: 'sku-101', name: 'Yoga mat', price: 29, currency: 'EUR', in_stock: true },
  { id: 'sku-102', name: 'Kettlebell 12 kg', price: 49, currency: 'EUR', in_stock: false },
];

const json = (body: unknown, extra: Partial<CorpusResponse> = {}): CorpusResponse => ({ body: JSON.stringify(body), contentType: 'application/json; charset=utf-8', ...extra });

/** A Vite + React front end whose entry chunk talks to the app's own Express API. */
const spaCalling = (title: string, calls: string) =>
  viteApp(
    title,
    `import{r as c,j as s}from"./vendor-Ck2m9QpL.js";${calls}` +
      `function App(){const[e,t]=c.useState([]);return c.useEffect(()=>{load().then(t)},[]),s.jsx("main",{children:e.map(n=>s.jsx("p",{children:n.id},n.id))})}`,
  );

const OPENAPI = (paths: Record<string, Record<string, unknown>>) =>
  json({ openapi: '3.0.3', info: { title: 'FitBook API', version: '1.4.0' }, servers: [{ url: '/' }], paths });

const introspection = (userFields: string[]) =>
  json({
    data: {
      __schema: {
        queryType: { name: 'Query' },
        types: [
          { kind: 'OBJECT', name: 'Query', fields: [{ name: 'users', type: { kind: 'LIST', name: null, ofType: { kind: 'OBJECT', name: 'User', ofType: null } } }, { name: 'classes', type: { kind: 'LIST', name: null, ofType: { kind: 'OBJECT', name: 'Class', ofType: null } } }] },
          { kind: 'OBJECT', name: 'User', fields: userFields.map((name) => ({ name, type: { kind: 'SCALAR', name: 'String', ofType: null } })) },
          { kind: 'OBJECT', name: 'Class', fields: ['id', 'title', 'starts_at'].map((name) => ({ name, type: { kind: 'SCALAR', name: 'String', ofType: null } })) },
          { kind: 'SCALAR', name: 'String', fields: null },
        ],
      },
    },
  });

/** Apollo Server in production: introspection refused. */
const INTROSPECTION_OFF = json({ errors: [{ message: 'GraphQL introspection is not allowed by Apollo Server, but the query contained __schema or __type.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] }, { status: 400 });

/** The _app chunk of a Next.js app that guards its admin pages in the browser only. */
const GUARDED_APP_CHUNK =
  'const PROTECTED=["/admin","/admin/users"];function App({Component:e,pageProps:t}){const n=useRouter(),{data:r,status:o}=useSession();' +
  'return useEffect(()=>{PROTECTED.includes(n.pathname)&&"unauthenticated"===o&&n.replace("/login")},[o,n]),jsx(SessionProvider,{session:t.session,children:jsx(e,{...t})})}';

const ADMIN_PAGE = htmlPage(
  'Admin · FitBook',
  `<nav><a href="/">FitBook</a></nav><main><h1>Admin · Members</h1><table><thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Created</th></tr></thead><tbody>` +
    USERS.map((u) => `<tr><td>${u.name}</td><td>${u.email}</td><td>${u.role}</td><td>${u.created_at.slice(0, 10)}</td></tr>`).join('') +
    `</tbody></table></main>`,
);

const nextHome = (appChunk: string) => ({
  '/': nextPage('FitBook', '<main><h1>FitBook</h1><p>Book your next class.</p><a href="/classes">Classes</a></main>', { classes: [] }),
  ...nextChunks({ '/': 'function Home(){return jsx("main",{children:"FitBook"})}' }),
  '/_next/static/chunks/pages/_app-8f7e6d5c4b3a2918.js': { body: `(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[888],{9:function(e,t,n){"use strict";${appChunk}}}]);` },
});

const VULNERABLE: CorpusApp[] = [
  {
    id: 'express-api-open-users',
    shape: 'express-api',
    title: 'Express API behind a Vite front end: GET /api/users lists every member with email and phone, no session needed',
    expect: [{ checkId: 'api-unauthenticated-data', path: '/api/users', minSeverity: 'high' }],
    routes: () => ({
      ...spaCalling('FitBook', 'async function load(){const e=await fetch("/api/users");return e.json()}'),
      '/api/users': json(USERS),
    }),
  },
  {
    id: 'next-supabase-route-password-hashes',
    shape: 'next-supabase',
    title: 'Next.js route handler reads profiles with the service-role client and returns them, password hashes included, to anyone',
    expect: [{ checkId: 'api-unauthenticated-data', path: '/api/profiles', minSeverity: 'critical' }],
    routes: () => ({
      ...nextHome('function App({Component:e,pageProps:t}){return jsx(e,{...t})}'),
      ...nextChunks({ '/': 'async function getProfiles(){const e=await fetch("/api/profiles",{cache:"no-store"});return e.json()}' }),
      '/api/profiles': json({ profiles: USERS.slice(0, 2).map((u, i) => ({ id: u.id, email: u.email, full_name: u.name, password_hash: HASHES[i] })) }),
    }),
  },
  {
    id: 'express-api-swagger-exposed',
    shape: 'express-api',
    title: 'swagger-ui-express mounted in production: the OpenAPI document lists admin user deletion',
    expect: [{ checkId: 'api-docs-exposed', minSeverity: 'medium' }],
    routes: () => ({
      ...spaCalling('FitBook', 'async function load(){return[]}'),
      '/api-docs': OPENAPI({
        '/api/classes': { get: { summary: 'List classes' } },
        '/api/admin/users/{id}': { delete: { summary: 'Delete a user' }, patch: { summary: 'Change a role' } },
      }),
      '/swagger-ui.html': htmlPage('Swagger UI', '<div id="swagger-ui"></div><script src="./swagger-ui-bundle.js"></script><script>window.ui=SwaggerUIBundle({url:"/api-docs",dom_id:"#swagger-ui"})</script>'),
    }),
  },
  {
    id: 'express-api-openapi-only-endpoint',
    shape: 'express-api',
    title: 'An endpoint only the served OpenAPI document names answers the member list without a session',
    expect: [
      { checkId: 'api-unauthenticated-data', path: '/api/v2/members', minSeverity: 'high' },
      { checkId: 'api-docs-exposed' },
    ],
    routes: () => ({
      ...spaCalling('FitBook', 'async function load(){return[]}'),
      '/openapi.json': OPENAPI({ '/api/v2/members': { get: { summary: 'Members' } }, '/api/v2/members/{id}': { get: { parameters: [{ name: 'id', in: 'path', example: 2 }] } } }),
      '/api/v2/members': json({ items: USERS.map(({ id, name, email }) => ({ id, name, email })), total: USERS.length }),
      '/api/v2/members/2': json(USERS[1]),
    }),
  },
  {
    id: 'express-api-graphql-introspection',
    shape: 'express-api',
    title: 'Apollo Server with introspection on: the User type exposes password and email, reachable from Query',
    expect: [{ checkId: 'graphql-introspection', minSeverity: 'high' }],
    routes: () => ({
      ...spaCalling('FitBook', 'const client=new ApolloClient({uri:"/graphql",cache:new InMemoryCache()});async function load(){return[]}'),
      '/graphql': introspection(['id', 'name', 'email', 'password']),
    }),
  },
  {
    id: 'next-supabase-admin-ssr',
    shape: 'next-supabase',
    title: 'Admin page guarded only in the browser: the server renders the member table without a session',
    expect: [{ checkId: 'admin-page-unauthenticated', path: '/admin', minSeverity: 'high' }],
    routes: () => ({ ...nextHome(GUARDED_APP_CHUNK), '/admin': ADMIN_PAGE }),
  },
  {
    id: 'vite-supabase-api-base-customers',
    shape: 'vite-supabase',
    title: 'Vite SPA calling `${API_BASE}/customers` on its own API, which answers every customer without a session',
    expect: [{ checkId: 'api-unauthenticated-data', path: '/api/customers', minSeverity: 'high' }],
    routes: (ctx) => ({
      ...spaCalling(
        'FitBook CRM',
        `const API_BASE=import.meta.env.VITE_API_URL||"${ctx.origin}/api";async function load(){const e=await fetch(\`\${API_BASE}/customers?limit=\${50}\`,{headers:{Authorization:\`Bearer \${localStorage.getItem("t")}\`}});return e.json()}`,
      ),
      '/api/customers': json({ data: USERS.map(({ id, name, email, phone }) => ({ id, name, email, phone })), page: 1 }),
    }),
  },
  {
    id: 'express-api-me-single-record',
    shape: 'express-api',
    title: "axios instance calling /me: without a session the API answers the first user's record instead of 401",
    expect: [{ checkId: 'api-unauthenticated-data', path: '/api/me', minSeverity: 'medium' }],
    routes: () => ({
      ...spaCalling('FitBook', 'const http=axios.create({baseURL:"/api"});async function load(){const{data:e}=await http.get("/me");return[e]}'),
      '/api/me': json({ id: 1, name: USERS[0]!.name, email: USERS[0]!.email, date_of_birth: '1990-04-12' }),
    }),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'express-api-clean-api-1',
    shape: 'express-api',
    title: 'clean control: the member API answers 401 without a session; the public product list stays public',
    control: true,
    expect: [],
    routes: () => ({
      ...spaCalling('FitBook Shop', 'async function load(){const[e,t]=await Promise.all([fetch("/api/users"),fetch("/api/products")]);return t.json()}'),
      '/api/users': UNAUTHORIZED,
      '/api/products': json(PRODUCTS),
      '/api-docs': { status: 404, body: JSON.stringify({ error: 'Not Found' }) },
    }),
  },
  {
    id: 'next-supabase-clean-api-1',
    shape: 'next-supabase',
    title: 'clean control: the admin page redirects to /login on the server, the route handler checks the session',
    control: true,
    expect: [],
    routes: () => ({
      ...nextHome(GUARDED_APP_CHUNK),
      ...nextChunks({ '/': 'async function getProfiles(){const e=await fetch("/api/profiles");return e.json()}' }),
      '/admin': { status: 307, body: '', headers: { location: '/login?next=%2Fadmin' } },
      '/admin/users': { status: 307, body: '', headers: { location: '/login?next=%2Fadmin%2Fusers' } },
      '/login': htmlPage('Sign in · FitBook', '<h1>Sign in</h1><form method="post" action="/api/auth/callback/credentials"><input name="email" type="email"><input name="password" type="password"><input type="hidden" name="csrfToken" value="b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6"><button>Sign in</button></form>'),
      '/api/profiles': UNAUTHORIZED,
    }),
  },
  {
    id: 'express-api-clean-api-2',
    shape: 'express-api',
    title: 'clean control: Apollo Server in production (introspection off) and an API that answers 403 to anonymous calls',
    control: true,
    expect: [],
    routes: () => ({
      ...spaCalling('FitBook', 'const client=new ApolloClient({uri:"/graphql",cache:new InMemoryCache()});const http=axios.create({baseURL:"/api"});async function load(){const{data:e}=await http.get("/me");return[e]}'),
      '/graphql': INTROSPECTION_OFF,
      '/api/me': json({ error: 'Forbidden' }, { status: 403 }),
    }),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];
