// TEST STAND-IN for the API of an app built with an AI coding tool that signs its users in with Supabase Auth and
// serves its data from its own routes (a Supabase edge function or an Express/Next.js API route verifying the Supabase
// JWT as its bearer): per-user orders, the caller's profile, an admin area and a GraphQL endpoint. Each hole opens by
// option, so one stand-in serves the vulnerable apps and their clean twins, where every user reaches only her own
// records and the admin routes refuse a plain user. Tokens are the GoTrue stand-in's (engine/testing/gotrue-stand-in.ts),
// so the scan signs in through the Supabase stand-in as the real front end does. Any request that could write is
// counted (`writes`) and refused.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifiedUser } from './gotrue-stand-in';

export interface RestAppUser {
  id: string;
  email: string;
  name: string;
  phone: string;
  role: 'user' | 'admin';
}

export interface RestAppOrder {
  id: string;
  user_id: string;
  total_cents: number;
  status: string;
  shipping_address: string;
}

export interface RestAppOptions {
  users: RestAppUser[];
  orders: RestAppOrder[];
  /** GET /api/orders/:id answers any user's order (no ownership check in the route); otherwise 404 for another's. */
  anyOrderById?: boolean;
  /** GET /api/orders lists every user's orders (`select * from orders`); otherwise the caller's own. */
  listsEveryone?: boolean;
  /** GET /api/profiles/:userId answers any user's profile (email, phone); otherwise 404 for another's. */
  anyProfileById?: boolean;
  /** /api/admin/* answers any signed-in user (the route checks a token exists, not the role); otherwise 403. */
  adminForAnyUser?: boolean;
  /** The GraphQL `orders` field resolves every user's orders; otherwise the caller's own. */
  graphqlEveryone?: boolean;
}

/** The app's API routes, for a corpus app's route table (every path under /api/ and /graphql). */
export interface RestAppHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Requests seen with a method that could write. */
  readonly writes: number;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const publicUser = ({ id, email, name, phone, role }: RestAppUser) => ({ id, email, full_name: name, phone, role });

/** The GraphQL answer: read-only queries on `orders` and `me`; mutations are refused. */
function graphql(options: RestAppOptions, caller: RestAppUser, query: string): { status: number; body: unknown } {
  if (/^\s*(?:mutation|subscription)\b/.test(query)) return { status: 405, body: { errors: [{ message: 'Only queries over GET' }] } };
  const data: Record<string, unknown> = {};
  const toGraph = (o: RestAppOrder) => ({ id: o.id, userId: o.user_id, total: o.total_cents, status: o.status, shippingAddress: o.shipping_address });
  if (/\borders\b/.test(query)) data.orders = options.orders.filter((o) => options.graphqlEveryone || o.user_id === caller.id).map(toGraph);
  if (/\bme\b/.test(query)) data.me = { id: caller.id, email: caller.email };
  return Object.keys(data).length > 0 ? { status: 200, body: { data } } : { status: 400, body: { errors: [{ message: 'Cannot query this field' }] } };
}

function route(options: RestAppOptions, caller: RestAppUser, url: URL): { status: number; body: unknown } {
  const path = url.pathname;
  const own = (o: RestAppOrder) => o.user_id === caller.id;
  if (path === '/graphql') return graphql(options, caller, url.searchParams.get('query') ?? '');
  if (path === '/api/me') return { status: 200, body: publicUser(caller) };
  if (path === '/api/orders') return { status: 200, body: { orders: options.orders.filter((o) => options.listsEveryone || own(o)) } };
  const byId = /^\/api\/orders\/([\w-]{1,64})$/.exec(path);
  if (byId) {
    const order = options.orders.find((o) => o.id === byId[1] && (options.anyOrderById || own(o)));
    return order ? { status: 200, body: order } : { status: 404, body: { error: 'Order not found' } };
  }
  const profile = /^\/api\/profiles\/([\w-]{1,64})$/.exec(path);
  if (profile) {
    const user = options.users.find((u) => u.id === profile[1] && (options.anyProfileById || u.id === caller.id));
    return user ? { status: 200, body: publicUser(user) } : { status: 404, body: { error: 'Profile not found' } };
  }
  if (path.startsWith('/api/admin/')) {
    if (!options.adminForAnyUser && caller.role !== 'admin') return { status: 403, body: { error: 'Forbidden: admins only' } };
    if (path === '/api/admin/users') return { status: 200, body: { users: options.users.map(publicUser) } };
    if (path === '/api/admin/stats') return { status: 200, body: { users: options.users.length, orders: options.orders.length } };
  }
  return { status: 404, body: { error: 'Not Found' } };
}

/** The API routes of the stand-in app; answer every path under /api/ and /graphql. */
export function restAppHandler(options: RestAppOptions): RestAppHandler {
  let writes = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    req.resume();
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      writes++;
      return json(res, 405, { error: 'Method Not Allowed' });
    }
    if (method === 'OPTIONS') return json(res, 204, '');
    const user = verifiedUser(req.headers.authorization);
    const caller = user && options.users.find((u) => u.id === user.sub);
    if (!caller) return json(res, 401, { error: 'Unauthorized' });
    const answer = route(options, caller, new URL(req.url ?? '/', 'http://stand-in'));
    return json(res, answer.status, answer.body);
  };
  return Object.defineProperty(handler, 'writes', { get: () => writes }) as RestAppHandler;
}

/**
 * The entry chunk of such an app (a Lovable-style React app): the Supabase client for sign-in, a fetch helper that
 * sends the session's access token to the app's own API, the pages' calls, a GraphQL query, and the admin area
 * behind a role guard.
 */
export function restAppBundle(supabaseUrl: string, anonKey: string): string {
  return [
    `import{r as c,j as s,c as Ut}from"./vendor-Ck2m9QpL.js";`,
    `const Pt="${supabaseUrl}",Qt="${anonKey}",Ve=Ut(Pt,Qt,{auth:{storage:localStorage,persistSession:!0,autoRefreshToken:!0}});`,
    'async function Ie(e,t={}){const{data:{session:n}}=await Ve.auth.getSession();const r=await fetch(e,{...t,headers:{...t.headers,Authorization:`Bearer ${n==null?void 0:n.access_token}`}});if(!r.ok)throw new Error(await r.text());return r.json()}',
    'const Ke={me:()=>Ie("/api/me"),orders:()=>Ie("/api/orders"),order:e=>Ie(`/api/orders/${e}`),profile:e=>Ie(`/api/profiles/${e}`)};',
    'const Xe=`query MyOrders { orders { id userId total status } }`;function Ye(){return Ie(`/graphql?query=${encodeURIComponent(Xe)}`)}',
    'function AdminRoute({children:e}){const{data:t}=useQuery({queryKey:["me"],queryFn:Ke.me});return(t==null?void 0:t.role)==="admin"?e:s.jsx(Navigate,{to:"/",replace:!0})}',
    'function AdminUsers(){const{data:e}=useQuery({queryKey:["admin-users"],queryFn:()=>Ie("/api/admin/users")});return s.jsx(UsersTable,{users:e==null?void 0:e.users})}',
    'const routes=[{path:"/",element:s.jsx(Orders,{})},{path:"/orders/:id",element:s.jsx(OrderPage,{})},{path:"/admin",element:s.jsx(AdminRoute,{children:s.jsx(AdminUsers,{})})}];',
  ].join('\n');
}
