// TEST STAND-IN for an AI-built app with its own API: a tiny node:http server on 127.0.0.1 serving a Vite-style
// single-page shell, a bundle that calls the API, and the API itself (JSON routes, an OpenAPI document, a GraphQL
// endpoint answering introspection, a server-rendered admin page). Each route is open or closed per option, so one
// stand-in serves both the vulnerable app and its clean twin. Every request is recorded; `writes` counts any
// request whose method is not safe (GET, HEAD, or the OPTIONS preflight the CORS check sends; RFC 9110 9.2.1), so
// tests can prove a scan never tried to change data.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ApiStandInOptions {
  /** /api/users, /api/customers and /api/me answer without a session (otherwise 401). */
  openApi?: boolean;
  /** /openapi.json and /swagger-ui.html are served (otherwise 404). */
  docs?: boolean;
  /** /graphql answers introspection (otherwise an error, like Apollo in production). */
  introspection?: boolean;
  /** /admin is rendered on the server without a session (otherwise a redirect to /login). */
  adminOpen?: boolean;
}

export interface ApiStandIn {
  url: string;
  requests: Array<{ method: string; url: string }>;
  /** Requests with a method other than GET, HEAD and OPTIONS. */
  readonly writes: number;
  close: () => Promise<void>;
}

const SHELL =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme CRM</title><script type="module" src="/assets/index-4f2a.js"></script></head><body><div id="root"></div></body></html>';
const BUNDLE = [
  'const API_BASE=import.meta.env.VITE_API_URL||"/api";',
  'const http=axios.create({baseURL:"/api"});',
  'export const listCustomers=()=>fetch(`${API_BASE}/customers`).then(r=>r.json());',
  'export const me=()=>http.get("/me");',
  'export const logout=()=>fetch("/api/auth/logout",{method:"POST"});',
  'export const removeUser=(id)=>fetch(`/api/users/${id}/delete`,{method:"DELETE"});',
  'const client=new ApolloClient({uri:"/graphql",cache:new InMemoryCache()});',
  'function ProtectedRoute({children}){const{user}=useAuth();return user?children:jsx(Navigate,{to:"/login",replace:true})}',
  'const routes=[{path:"/",element:jsx(Home,{})},{path:"/admin",element:jsx(ProtectedRoute,{children:jsx(AdminUsers,{})})}];',
].join('\n');
export const STAND_IN_PEOPLE = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.test', phone: '+44 20 7946 0001', password_hash: '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' },
  { id: 2, name: 'Grace Hopper', email: 'grace@example.test', phone: '+1 202 555 0102', password_hash: '$2b$10$abcdefghijklmnopqrstuu5y6W0vYgN9l7ePqB6Xo2uYk5x8bqQGcu' },
];
const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Acme CRM API', version: '1.0.0' },
  paths: { '/api/users': { get: {}, post: {} }, '/api/users/{id}': { get: {}, delete: {} }, '/api/v1/accounts': { get: {} } },
};
const SCHEMA = {
  data: {
    __schema: {
      queryType: { name: 'Query' },
      types: [
        { kind: 'OBJECT', name: 'Query', fields: [{ name: 'users', type: { kind: 'LIST', name: null, ofType: { kind: 'OBJECT', name: 'User', ofType: null } } }] },
        { kind: 'OBJECT', name: 'User', fields: ['id', 'email', 'password'].map((name) => ({ name, type: { kind: 'SCALAR', name: 'String', ofType: null } })) },
      ],
    },
  },
};
const ADMIN = `<!doctype html><html><head><title>Admin</title></head><body><h1>Admin · Users</h1><table><tr><th>Email</th><th>Role</th></tr>${STAND_IN_PEOPLE.map((p) => `<tr><td>${p.email}</td><td>user</td></tr>`).join('')}</table></body></html>`;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

function send(res: ServerResponse, status: number, body: string, type = 'application/json', extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

function route(options: ApiStandInOptions, req: IncomingMessage, res: ServerResponse): void {
  const { pathname } = new URL(req.url ?? '/', 'http://stand-in');
  const json = (open: boolean | undefined, body: unknown) => (open ? send(res, 200, JSON.stringify(body)) : send(res, 401, JSON.stringify({ error: 'Unauthorized' })));
  if (pathname === '/assets/index-4f2a.js') return send(res, 200, BUNDLE, 'application/javascript');
  if (pathname === '/api/users') return json(options.openApi, STAND_IN_PEOPLE);
  if (pathname === '/api/customers') return json(options.openApi, { data: STAND_IN_PEOPLE.map(({ id, name, email, phone }) => ({ id, name, email, phone })) });
  if (pathname === '/api/v1/accounts')
    return json(
      options.openApi,
      STAND_IN_PEOPLE.map(({ id, email }) => ({ id, email })),
    );
  if (pathname === '/api/me') return json(options.openApi, STAND_IN_PEOPLE[0]);
  if (pathname === '/api/products')
    return send(
      res,
      200,
      JSON.stringify([
        { id: 1, name: 'Mug', price: 9 },
        { id: 2, name: 'Tee', price: 19 },
      ]),
    );
  if (pathname === '/openapi.json') return options.docs ? send(res, 200, JSON.stringify(OPENAPI)) : send(res, 404, '{"error":"Not Found"}');
  if (pathname === '/swagger-ui.html')
    return options.docs
      ? send(res, 200, '<div id="swagger-ui"></div><script src="/swagger-ui-bundle.js"></script><script>SwaggerUIBundle({url:"/openapi.json"})</script>', 'text/html')
      : send(res, 404, 'Not Found', 'text/plain');
  if (pathname === '/graphql') {
    return options.introspection ? send(res, 200, JSON.stringify(SCHEMA)) : send(res, 400, JSON.stringify({ errors: [{ message: 'GraphQL introspection is not allowed' }] }));
  }
  if (pathname === '/admin') return options.adminOpen ? send(res, 200, ADMIN, 'text/html') : send(res, 302, '', 'text/html', { location: '/login' });
  if (pathname.startsWith('/api/') || pathname.includes('.')) return send(res, 404, '{"error":"Not Found"}');
  // Every other path is the single-page app's shell, as Vite previews and static hosts serve it.
  return send(res, 200, SHELL, 'text/html');
}

/** Starts the stand-in on a free 127.0.0.1 port. */
export async function startApiStandIn(options: ApiStandInOptions = {}): Promise<ApiStandIn> {
  const requests: Array<{ method: string; url: string }> = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/' });
    // Drain any body so a write attempt is still answered (and counted), never left hanging.
    req.resume();
    req.on('end', () => {
      if (req.method === 'OPTIONS') return send(res, 204, '', 'text/plain');
      return req.method === 'GET' || req.method === 'HEAD' ? route(options, req, res) : send(res, 405, '{"error":"Method Not Allowed"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get writes() {
      return requests.filter((r) => !SAFE.has(r.method)).length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
