// Signed-in scans of apps with their own API: a Lovable-style React app that signs users in with Supabase Auth and
// reads its data from its own routes (an edge function or an Express route verifying the Supabase JWT), scanned as
// two test accounts (alice and bob). The holes AI coding tools leave there: a record route that finds an order by id
// without checking whose it is, a listing that returns every user's orders, admin routes that check only that a
// token exists, and a GraphQL resolver that ignores the caller. Each has a clean twin, the same app with ownership and
// role checks in the routes, which must give nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ScanAccount } from '../../../../common/scan-accounts';
import type { StandInUser } from '../../postgrest-stand-in';
import { restAppBundle, restAppHandler, type RestAppOptions, type RestAppOrder, type RestAppUser } from '../../rest-app-stand-in';
import { anonKey, viteApp } from '../shapes';
import type { CorpusApp, CorpusContext, CorpusHandler, CorpusResponse } from '../types';

const ALICE: StandInUser = { id: '5b1e8c2a-3f4d-4e6a-9b7c-1d2e3f4a5b6c', email: 'alice@example.test', password: 'Alice-Api-Corpus-1' };
const BOB: StandInUser = { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', email: 'bob@example.test', password: 'Bob-Api-Corpus-2' };
/** Not a test account: the shop's admin, and a customer whose orders no test account may see. */
const CAROL_ID = 'c4a1d2e3-f4a5-4b6c-9d7e-8f9a0b1c2d3e';
const ACCOUNTS: ScanAccount[] = [ALICE, BOB].map((u) => ({ login: u.email, password: u.password }));

const USERS: RestAppUser[] = [
  { id: ALICE.id, email: ALICE.email, name: 'Alice Martin', phone: '+33 6 12 34 56 78', role: 'user' },
  { id: BOB.id, email: BOB.email, name: 'Bob Chen', phone: '+1 415 555 0199', role: 'user' },
  { id: CAROL_ID, email: 'carol.diaz@mail.example', name: 'Carol Diaz', phone: '+34 612 345 678', role: 'admin' },
];
const ORDERS: RestAppOrder[] = [
  { id: 'ord_7Hq2LmX9', user_id: ALICE.id, total_cents: 1900, status: 'shipped', shipping_address: '12 Rue de Rivoli, Paris' },
  { id: 'ord_K3p8ZrT1', user_id: BOB.id, total_cents: 4900, status: 'paid', shipping_address: '221B Baker Street, London' },
  { id: 'ord_Q9w4VnB6', user_id: CAROL_ID, total_cents: 12900, status: 'paid', shipping_address: 'Calle Mayor 5, Madrid' },
];

/** The app: its Vite files, its API under /api/ and /graphql, and the shell for every other path (SPA fallback). */
function app(title: string, holes: Omit<RestAppOptions, 'users' | 'orders'>, seed: number) {
  return (ctx: CorpusContext): Record<string, CorpusResponse | CorpusHandler> => {
    const files = viteApp(title, restAppBundle(ctx.supabaseUrl!, anonKey(title.toLowerCase().replace(/\W/g, ''), seed)));
    const api = restAppHandler({ users: USERS, orders: ORDERS, ...holes });
    const shell = files['/']!;
    const fallback = (req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path.startsWith('/api/') || path === '/graphql') return api(req, res);
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(shell.body) });
      res.end(req.method === 'HEAD' ? undefined : shell.body);
    };
    return { ...files, '*': fallback };
  };
}

const base = { shape: 'vite-supabase' as const, accounts: ACCOUNTS, supabase: { users: [ALICE, BOB] } };

const VULNERABLE: CorpusApp[] = [
  {
    ...base,
    id: 'vite-supabase-signed-in-api-order-by-id',
    title: "Shop whose /api/orders/:id route finds the order by id alone: any customer reads another's order and address",
    expect: [{ checkId: 'api-cross-user-read', path: '/api/orders/:id', minSeverity: 'medium' }],
    routes: app('Potter Shop', { anyOrderById: true }, 81),
  },
  {
    ...base,
    id: 'vite-supabase-signed-in-api-profile-by-user-id',
    title: "App whose /api/profiles/:userId route answers any user's profile (email, phone) to any signed-in user",
    expect: [{ checkId: 'api-cross-user-read', path: '/api/profiles/:id', minSeverity: 'medium' }],
    routes: app('Potter Shop', { anyProfileById: true }, 91),
  },
  {
    ...base,
    id: 'vite-supabase-signed-in-api-orders-listing',
    title: "Shop whose GET /api/orders runs `select * from orders`: every customer sees every customer's orders",
    expect: [{ checkId: 'api-cross-user-read', path: '/api/orders', minSeverity: 'medium' }],
    routes: app('Potter Shop', { listsEveryone: true }, 82),
  },
  {
    ...base,
    id: 'vite-supabase-signed-in-api-orders-listing-one-account',
    title: "The same listing scanned with one account: orders of other user ids than the account's are the proof",
    accounts: ACCOUNTS.slice(0, 1),
    expect: [{ checkId: 'api-cross-user-read', path: '/api/orders', minSeverity: 'medium' }],
    routes: app('Potter Shop', { listsEveryone: true }, 83),
  },
  {
    ...base,
    id: 'vite-supabase-signed-in-api-admin-any-user',
    title: 'Admin area hidden by an <AdminRoute> guard in the front end, while /api/admin/users checks only that a token exists',
    expect: [{ checkId: 'api-admin-plain-user', path: '/api/admin/users', minSeverity: 'high' }],
    routes: app('Potter Shop', { adminForAnyUser: true }, 84),
  },
  {
    ...base,
    id: 'vite-supabase-signed-in-api-graphql-any-user',
    title: "GraphQL `orders` resolver that returns every user's orders to any signed-in user",
    expect: [{ checkId: 'api-cross-user-read', path: '/graphql', minSeverity: 'medium' }],
    routes: app('Potter Shop', { graphqlEveryone: true }, 85),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    ...base,
    id: 'vite-supabase-clean-signed-in-api-order-by-id',
    title: 'clean control: /api/orders/:id answers 404 unless the order is the caller\'s (`where id = $1 and user_id = $2`)',
    control: true,
    expect: [],
    routes: app('Potter Shop', {}, 86),
  },
  {
    ...base,
    id: 'vite-supabase-clean-signed-in-api-profile-by-user-id',
    title: "clean control: /api/profiles/:userId answers 404 unless the id is the caller's own",
    control: true,
    expect: [],
    routes: app('Potter Shop', { anyProfileById: false }, 92),
  },
  {
    ...base,
    id: 'vite-supabase-clean-signed-in-api-orders-listing',
    title: "clean control: GET /api/orders lists the caller's own orders only",
    control: true,
    expect: [],
    routes: app('Potter Shop', { anyOrderById: false }, 87),
  },
  {
    ...base,
    id: 'vite-supabase-clean-signed-in-api-orders-listing-one-account',
    title: "clean control: the owner-only listing scanned with one account, which gets only its own order",
    control: true,
    accounts: ACCOUNTS.slice(0, 1),
    expect: [],
    routes: app('Potter Shop', {}, 88),
  },
  {
    ...base,
    id: 'vite-supabase-clean-signed-in-api-admin',
    title: 'clean control: /api/admin/* answers 403 to anyone whose role is not admin',
    control: true,
    expect: [],
    routes: app('Potter Shop', { adminForAnyUser: false }, 89),
  },
  {
    ...base,
    id: 'vite-supabase-clean-signed-in-api-graphql',
    title: "clean control: the GraphQL `orders` resolver filters by the context's user",
    control: true,
    expect: [],
    routes: app('Potter Shop', { graphqlEveryone: false }, 90),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];
