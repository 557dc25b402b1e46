import { describe, expect, it } from 'vitest';
import { MAX_IDS } from '../signed-in/api-reads';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { restAppBundle } from '../testing/rest-app-stand-in';
import { makeSite, type ExchangeInit } from '../testing/site';
import type { Site, SiteAccount } from '../types';
import { apiCrossUserRead } from './api-cross-user-read';

const REF = 'abcdefghijklmnopqrst';
const HOST = `https://${REF}.supabase.co`;
const APP = 'https://app.test';
const A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const C = '3d6f0a2e-8b1c-4e5d-9f7a-2b4c6d8e0f1a';
const TWO: SiteAccount[] = [
  { login: 'alice@example.test', signedIn: true, userId: A },
  { login: 'bob@example.test', signedIn: true, userId: B },
];
const BEARER = 'Bearer eyJhbG…x1y2';

const siteWith = (probes: Record<string, ExchangeInit> = {}, accounts: SiteAccount[] = TWO, bundle = restAppBundle(HOST, fakeSupabaseKey(REF, 'anon'))): Site => ({
  ...makeSite({
    root: { url: `${APP}/`, body: '<!doctype html><script type="module" src="/assets/index.js"></script><div id="root"></div>' },
    assets: [{ url: `${APP}/assets/index.js`, body: bundle }],
    notFound: { url: `${APP}/vibeeval-404`, status: 404, body: 'Not Found' },
    probes,
  }),
  accounts,
});
/** The answer to a GET sent as account `as` (what retrieval records: the bearer masked). */
const sent = (what: 'get' | 'id' | 'graphql', account: number, path: string, body: unknown, status = 200): Record<string, ExchangeInit> => ({
  [`signed-in-api:${what}:${account}:${APP}${path}`]: {
    url: `${APP}${path}`,
    status,
    body: JSON.stringify(body),
    contentType: 'application/json',
    requestHeaders: { authorization: BEARER },
  },
});
const order = (id: string, user: string) => ({ id, user_id: user, total_cents: 4900, status: 'paid', shipping_address: '221B Baker Street, London' });
const ALICE_ORDER = order('ord_alice_1', A);
const BOB_ORDER = order('ord_bob_1', B);
const ordersOf = (...orders: unknown[]) => ({ orders });
const QUERY = `/graphql?query=${encodeURIComponent('query MyOrders { orders { id userId total status } }')}`;
const run = (site: Site) => apiCrossUserRead.run(site);

describe('api-cross-user-read', () => {
  it('first signs each account in (its Supabase user read), then reads the API as each, GET only, never following a redirect', () => {
    expect(
      apiCrossUserRead.probes!(
        siteWith(
          {},
          TWO.map((a) => ({ ...a, signedIn: false, userId: undefined })),
        ),
      ),
    ).toEqual([expect.objectContaining({ method: 'GET', url: `${HOST}/auth/v1/user`, as: 0 }), expect.objectContaining({ method: 'GET', url: `${HOST}/auth/v1/user`, as: 1 })]);
    expect(apiCrossUserRead.probes!(siteWith({}, []))).toEqual([]);
    expect(
      apiCrossUserRead.followUpProbes!(
        siteWith(
          {},
          TWO.map((a) => ({ ...a, signedIn: false })),
        ),
      ),
    ).toEqual([]);
    const reads = apiCrossUserRead.followUpProbes!(siteWith());
    expect(reads.every((p) => p.method === 'GET' && p.noRedirect === true && (p.as === 0 || p.as === 1) && p.headers?.apikey === undefined)).toBe(true);
    const urls = reads.filter((p) => p.as === 0).map((p) => p.url);
    expect(urls).toEqual(expect.arrayContaining([`${APP}/api/orders`, `${APP}/api/me`, `${APP}/api/admin/users`, `${APP}${QUERY}`]));
    expect(new Set(reads.map((p) => p.key)).size).toBe(reads.length);
  });

  it('reads only query operations without variables, never a mutation', () => {
    const bundle = `${restAppBundle(HOST, fakeSupabaseKey(REF, 'anon'))}\nconst D=\`mutation DeleteOrder { deleteOrder(id: 1) { id } }\`,O=\`query Order($id: ID!) { order(id: $id) { id } }\`;`;
    const queries = apiCrossUserRead.followUpProbes!(siteWith({}, TWO, bundle)).filter((p) => p.url.includes('/graphql?'));
    expect(queries.map((p) => decodeURIComponent(p.url.split('query=')[1]!))).toEqual([
      'query MyOrders { orders { id userId total status } }',
      'query MyOrders { orders { id userId total status } }',
    ]);
  });

  it("fetches by id, as the other account, only ids one account's listing showed and the other's did not, a few each", () => {
    const many = Array.from({ length: 10 }, (_, i) => order(`ord_bob_${i}`, B));
    const shared = order('ord_shared', C);
    const site = siteWith({ ...sent('get', 0, '/api/orders', ordersOf(ALICE_ORDER, shared)), ...sent('get', 1, '/api/orders', ordersOf(...many, shared)) });
    const byId = apiCrossUserRead.followUpProbes!(site).filter((p) => p.key.startsWith('signed-in-api:id:') && p.url.includes('/api/orders/'));
    expect(byId.filter((p) => p.as === 0).map((p) => p.url)).toEqual(many.slice(0, MAX_IDS).map((o) => `${APP}/api/orders/${o.id}`));
    expect(byId.filter((p) => p.as === 1).map((p) => p.url)).toEqual([`${APP}/api/orders/ord_alice_1`]);
    expect(byId.every((p) => p.method === 'GET' && p.noRedirect)).toBe(true);
    // One account: nobody else's ids to learn.
    expect(apiCrossUserRead.followUpProbes!({ ...site, accounts: TWO.slice(0, 1) }).filter((p) => p.key.startsWith('signed-in-api:id:'))).toEqual([]);
  });

  it('reads a template whose base is a constant (`${API}/invoices/${id}`), as minified bundles write it', () => {
    const bundle = `${restAppBundle(HOST, fakeSupabaseKey(REF, 'anon'))}\nconst Ab="/api/v2";const Lv=()=>Ie(\`\${Ab}/invoices\`),Gv=e=>Ie(\`\${Ab}/invoices/\${e}\`);`;
    const site = siteWith(
      { ...sent('get', 0, '/api/v2/invoices', [{ id: 'inv_1', user_id: A }]), ...sent('get', 1, '/api/v2/invoices', [{ id: 'inv_2', user_id: B }]) },
      TWO,
      bundle,
    );
    const byId = apiCrossUserRead.followUpProbes!(site).filter((p) => p.url.includes('/invoices/'));
    expect(byId.map((p) => `${p.as}:${p.url}`).sort()).toEqual([`0:${APP}/api/v2/invoices/inv_2`, `1:${APP}/api/v2/invoices/inv_1`]);
  });

  it("fetches a user-keyed route with the other account's user id, the only id it asks", () => {
    const byId = apiCrossUserRead.followUpProbes!(siteWith()).filter((p) => p.key.startsWith('signed-in-api:id:'));
    expect(byId.map((p) => `${p.as}:${p.url}`).sort()).toEqual([`0:${APP}/api/profiles/${B}`, `1:${APP}/api/profiles/${A}`]);
  });

  it("invalid: bob's profile by his user id answers alice with his email and phone; a name-only public profile is low", () => {
    const bob = { id: B, email: 'bob.chen@mail.example', full_name: 'Bob Chen', phone: '+1 415 555 0199' };
    const [finding] = run(siteWith(sent('id', 0, `/api/profiles/${B}`, bob)));
    expect(finding).toMatchObject({ url: `${APP}/api/profiles/:id`, title: "Any signed-in user can read another user's profiles by id" });
    expect(['medium', 'high', 'critical']).toContain(finding!.severity);
    expect(finding!.evidence.request).toContain('the user id bob@example.test signed in with');
    expect(JSON.stringify(finding)).not.toMatch(new RegExp(`${B}|bob\\.chen@mail|0199`));
    expect(run(siteWith(sent('id', 0, `/api/profiles/${B}`, { id: B, full_name: 'Bob Chen', avatar_url: '/a.png' }))).map((f) => f.severity)).toEqual(['low']);
  });

  const listings = { ...sent('get', 0, '/api/orders', ordersOf(ALICE_ORDER)), ...sent('get', 1, '/api/orders', ordersOf(BOB_ORDER)) };
  const valid: Record<string, Site> = {
    'each account lists and fetches only its own orders': siteWith({
      ...listings,
      ...sent('id', 0, '/api/orders/ord_bob_1', { error: 'Order not found' }, 404),
      ...sent('id', 1, '/api/orders/ord_alice_1', { error: 'Order not found' }, 404),
    }),
    'the by-id route answers 200 with an empty object': siteWith({ ...listings, ...sent('id', 0, '/api/orders/ord_bob_1', {}) }),
    "the by-id route answers the other user's id with the reader's own order": siteWith({ ...listings, ...sent('id', 0, '/api/orders/ord_bob_1', ALICE_ORDER) }),
    'a public catalogue both accounts list the same way': siteWith({
      ...sent('get', 0, '/api/orders', [{ id: 1, name: 'Mug', price: 9 }]),
      ...sent('get', 1, '/api/orders', [{ id: 1, name: 'Mug', price: 9 }]),
    }),
    'the API refuses the accounts (401) and redirects them to log in': siteWith({
      ...sent('get', 0, '/api/orders', { error: 'Unauthorized' }, 401),
      [`signed-in-api:get:1:${APP}/api/orders`]: { url: `${APP}/api/orders`, status: 302, headers: { location: '/login' }, body: '' },
    }),
    'one account, reading only rows with her own user id': siteWith(sent('get', 0, '/api/orders', ordersOf(ALICE_ORDER)), TWO.slice(0, 1)),
    'graphql answering each account its own orders': siteWith({
      ...sent('graphql', 0, QUERY, { data: { orders: [{ id: 'o1', userId: A }] } }),
      ...sent('graphql', 1, QUERY, { data: { orders: [{ id: 'o2', userId: B }] } }),
    }),
    'a listing anonymous visitors already get (reported by api-unauthenticated-data)': siteWith({
      ...sent('get', 0, '/api/orders', ordersOf(ALICE_ORDER, BOB_ORDER)),
      [`api-unauthenticated-data:GET:${APP}/api/orders`]: { url: `${APP}/api/orders`, body: JSON.stringify(ordersOf(ALICE_ORDER, BOB_ORDER)), contentType: 'application/json' },
    }),
  };
  for (const [name, site] of Object.entries(valid)) {
    it(`valid: ${name}`, () => expect(run(site)).toEqual([]));
  }

  it("invalid: the other account's order fetched by its id, with who sent what and the other user's values masked", () => {
    const [finding, ...rest] = run(siteWith({ ...listings, ...sent('id', 0, '/api/orders/ord_bob_1', BOB_ORDER) }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ url: `${APP}/api/orders/:id`, title: "Any signed-in user can read another user's orders by id", key: 'id:/api/orders/:id' });
    expect(['medium', 'high', 'critical']).toContain(finding!.severity);
    expect(finding!.evidence.request).toContain('Sent as alice@example.test (user 0f8fad5b…)');
    expect(finding!.evidence.request).toContain(`Authorization: ${BEARER}`);
    expect(finding!.evidence.request).toContain('sent as bob@example.test');
    expect(`${finding!.evidence.request}\n${finding!.evidence.response}\n${finding!.detail}`).not.toMatch(new RegExp(`${B}|ord_bob_1`));
    expect(finding!.evidence.response).toContain('user_id = $session.user');
  });

  it("invalid: the other account's order by id in a Next.js route's wrapper (`{ order }`)", () => {
    expect(run(siteWith({ ...listings, ...sent('id', 0, '/api/orders/ord_bob_1', { order: BOB_ORDER }) }))).toEqual([expect.objectContaining({ url: `${APP}/api/orders/:id` })]);
  });

  it("invalid: a listing that hands alice bob's orders", () => {
    const findings = run(siteWith({ ...sent('get', 0, '/api/orders', ordersOf(ALICE_ORDER, BOB_ORDER)), ...sent('get', 1, '/api/orders', ordersOf(ALICE_ORDER, BOB_ORDER)) }));
    expect(findings).toEqual([expect.objectContaining({ url: `${APP}/api/orders`, title: "Any signed-in user can read other users' orders" })]);
    expect(findings[0]!.detail).toContain('the other test account, bob@example.test');
    expect(findings[0]!.evidence.response).not.toContain(B);
  });

  it("a feed of other users' posts with nothing personal in them is low, not medium", () => {
    const posts = [
      { id: 'p1', author_id: A, title: 'Glazing tips' },
      { id: 'p2', author_id: B, title: 'Kiln schedule' },
    ];
    const bundle = `${restAppBundle(HOST, fakeSupabaseKey(REF, 'anon'))}\nconst Fe=()=>Ie("/api/posts");`;
    expect(run(siteWith({ ...sent('get', 0, '/api/posts', posts), ...sent('get', 1, '/api/posts', posts) }, TWO, bundle)).map((f) => f.severity)).toEqual(['low']);
  });

  it('invalid: one account reading orders of another user id', () => {
    expect(run(siteWith(sent('get', 0, '/api/orders', ordersOf(ALICE_ORDER, order('ord_c', C))), TWO.slice(0, 1)))).toEqual([
      expect.objectContaining({ url: `${APP}/api/orders` }),
    ]);
  });

  it("invalid: a GraphQL query answering alice bob's orders", () => {
    const answer = {
      data: {
        orders: [
          { id: 'o1', userId: A, total: 19 },
          { id: 'o2', userId: B, total: 49 },
        ],
      },
    };
    expect(run(siteWith({ ...sent('graphql', 0, QUERY, answer), ...sent('graphql', 1, QUERY, answer) }))).toEqual([
      expect.objectContaining({ url: `${APP}/graphql`, title: "Any signed-in user can read other users' orders" }),
    ]);
  });
});
