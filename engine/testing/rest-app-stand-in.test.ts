import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgrestStandIn, type PostgrestStandIn } from './postgrest-stand-in';
import { restAppHandler, type RestAppOptions, type RestAppOrder, type RestAppUser } from './rest-app-stand-in';

const KEY = 'stand-in-anon-key';
const ALICE = { id: '5b1e8c2a-3f4d-4e6a-9b7c-1d2e3f4a5b6c', email: 'alice@example.test', password: 'Alice-Stand-In-1' };
const BOB = { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', email: 'bob@example.test', password: 'Bob-Stand-In-2' };
const USERS: RestAppUser[] = [
  { id: ALICE.id, email: ALICE.email, name: 'Alice Martin', phone: '+33 6 12 34 56 78', role: 'user' },
  { id: BOB.id, email: BOB.email, name: 'Bob Chen', phone: '+1 415 555 0199', role: 'admin' },
];
const ORDERS: RestAppOrder[] = [
  { id: 'ord_a', user_id: ALICE.id, total_cents: 1900, status: 'shipped', shipping_address: '12 Rue de Rivoli, Paris' },
  { id: 'ord_b', user_id: BOB.id, total_cents: 4900, status: 'paid', shipping_address: '221B Baker Street, London' },
];

/** The app's API on a free 127.0.0.1 port, with the given holes open. */
async function serve(holes: Omit<RestAppOptions, 'users' | 'orders'>) {
  const handler = restAppHandler({ users: USERS, orders: ORDERS, ...holes });
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    handler,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('REST app stand-in', () => {
  let supabase: PostgrestStandIn;
  const tokens: string[] = [];
  beforeAll(async () => {
    supabase = await startPostgrestStandIn({ anonKey: KEY, users: [ALICE, BOB] });
    for (const user of [ALICE, BOB]) {
      const answer = await fetch(`${supabase.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      tokens.push(((await answer.json()) as { access_token: string }).access_token);
    }
  });
  afterAll(() => supabase.close());

  const get = async (base: string, path: string, as?: number) => {
    const answer = await fetch(`${base}${path}`, { headers: as === undefined ? {} : { authorization: `Bearer ${tokens[as]}` } });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };

  it("clean: each user reaches only her own orders, admin routes only for admins, nothing without the project's JWT", async () => {
    const app = await serve({});
    try {
      expect(await get(app.url, '/api/orders')).toMatchObject({ status: 401 });
      expect((await fetch(`${app.url}/api/orders`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(401);
      expect(await get(app.url, '/api/orders', 0)).toEqual({ status: 200, body: { orders: [ORDERS[0]] } });
      expect(await get(app.url, '/api/orders/ord_b', 0)).toMatchObject({ status: 404 });
      expect(await get(app.url, '/api/orders/ord_a', 0)).toEqual({ status: 200, body: ORDERS[0] });
      expect(await get(app.url, `/api/profiles/${BOB.id}`, 0)).toMatchObject({ status: 404 });
      expect(await get(app.url, `/api/profiles/${ALICE.id}`, 0)).toMatchObject({ status: 200, body: { email: ALICE.email } });
      expect(await get(app.url, '/api/admin/users', 0)).toMatchObject({ status: 403 });
      expect(await get(app.url, '/api/admin/users', 1)).toMatchObject({ status: 200 });
      const query = encodeURIComponent('query MyOrders { orders { id userId } }');
      expect(await get(app.url, `/graphql?query=${query}`, 0)).toEqual({ status: 200, body: { data: { orders: [expect.objectContaining({ id: 'ord_a', userId: ALICE.id })] } } });
    } finally {
      await app.close();
    }
  });

  it('vulnerable: each option opens its hole; writes are refused and counted', async () => {
    const app = await serve({ anyOrderById: true, anyProfileById: true, listsEveryone: true, adminForAnyUser: true, graphqlEveryone: true });
    try {
      expect(await get(app.url, `/api/profiles/${BOB.id}`, 0)).toMatchObject({ status: 200, body: { email: BOB.email } });
      expect(await get(app.url, '/api/orders/ord_b', 0)).toEqual({ status: 200, body: ORDERS[1] });
      expect((await get(app.url, '/api/orders', 0)).body.orders).toEqual(ORDERS);
      expect(await get(app.url, '/api/admin/users', 0)).toMatchObject({
        status: 200,
        body: { users: [expect.objectContaining({ email: ALICE.email }), expect.objectContaining({ email: BOB.email })] },
      });
      const query = encodeURIComponent('query { orders { id userId } }');
      expect((await get(app.url, `/graphql?query=${query}`, 0)).body).toEqual({
        data: { orders: [expect.objectContaining({ id: 'ord_a' }), expect.objectContaining({ id: 'ord_b' })] },
      });
      expect(await get(app.url, `/graphql?query=${encodeURIComponent('mutation { deleteOrder(id: "ord_b") { id } }')}`, 0)).toMatchObject({ status: 405 });
      expect(app.handler.writes).toBe(0);
      expect((await fetch(`${app.url}/api/orders/ord_b`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens[0]}` } })).status).toBe(405);
      expect(app.handler.writes).toBe(1);
    } finally {
      await app.close();
    }
  });
});
