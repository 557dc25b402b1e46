import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { restAppBundle } from '../testing/rest-app-stand-in';
import { makeSite, type ExchangeInit } from '../testing/site';
import type { Site, SiteAccount } from '../types';
import { apiAdminPlainUser } from './api-admin-plain-user';

const REF = 'abcdefghijklmnopqrst';
const HOST = `https://${REF}.supabase.co`;
const APP = 'https://app.test';
const A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const TWO: SiteAccount[] = [
  { login: 'alice@example.test', signedIn: true, userId: A },
  { login: 'bob@example.test', signedIn: true, userId: B },
];
const BUNDLE = restAppBundle(HOST, fakeSupabaseKey(REF, 'anon'));
/** A guarded call whose path does not say admin: only the role guard in front of it marks it. */
const GUARDED = `${BUNDLE}\nfunction Reports(){const{profile:e}=useAuth();return e.is_admin?s.jsx(Table,{rows:useQuery({queryFn:()=>Ie("/api/reports/revenue")})}):null}`;

const siteWith = (probes: Record<string, ExchangeInit> = {}, bundle = BUNDLE, accounts: SiteAccount[] = TWO): Site => ({
  ...makeSite({
    root: { url: `${APP}/`, body: '<!doctype html><script type="module" src="/assets/index.js"></script><div id="root"></div>' },
    assets: [{ url: `${APP}/assets/index.js`, body: bundle }],
    probes,
  }),
  accounts,
});
const sent = (account: number, path: string, body: unknown, status = 200): Record<string, ExchangeInit> => ({
  [`signed-in-api:get:${account}:${APP}${path}`]: {
    url: `${APP}${path}`,
    status,
    body: JSON.stringify(body),
    contentType: 'application/json',
    requestHeaders: { authorization: 'Bearer eyJhbG…x1y2' },
  },
});
const USERS = {
  users: [
    { id: A, email: 'alice@example.test', full_name: 'Alice Martin', phone: '+33 6 12 34 56 78', role: 'user' },
    { id: B, email: 'bob@example.test', full_name: 'Bob Chen', phone: '+1 415 555 0199', role: 'user' },
    { id: 'c4a1d2e3-f4a5-4b6c-9d7e-8f9a0b1c2d3e', email: 'carol.diaz@mail.example', full_name: 'Carol Diaz', phone: '+34 612 345 678', role: 'admin' },
  ],
};
const FORBIDDEN = { error: 'Forbidden: admins only' };
const userAnswer = (account: number, metadata: Record<string, unknown>): Record<string, ExchangeInit> => ({
  [`signed-in-api:user:${REF}:${account}`]: {
    url: `${HOST}/auth/v1/user`,
    body: JSON.stringify({ id: [A, B][account], role: 'authenticated', app_metadata: metadata }),
    contentType: 'application/json',
  },
});

describe('api-admin-plain-user', () => {
  it("reads the bundle's admin routes as each account: admin paths and calls behind a role guard", () => {
    const urls = apiAdminPlainUser.followUpProbes!(siteWith({}, GUARDED)).map((p) => `${p.as}:${p.url}`);
    expect(urls).toEqual(expect.arrayContaining([`0:${APP}/api/admin/users`, `1:${APP}/api/admin/users`, `0:${APP}/api/reports/revenue`]));
  });

  const valid: Record<string, Site> = {
    'the admin route refuses plain users (403)': siteWith({ ...sent(0, '/api/admin/users', FORBIDDEN, 403), ...sent(1, '/api/admin/users', FORBIDDEN, 403) }),
    'the admin route sends plain users to log in': siteWith({
      [`signed-in-api:get:0:${APP}/api/admin/users`]: { url: `${APP}/api/admin/users`, status: 302, headers: { location: '/login' }, body: '' },
    }),
    'the admin route answers 200 with only an error': siteWith(sent(0, '/api/admin/users', { error: 'not allowed' })),
    'the account that got the data is an admin (app_metadata.role)': siteWith({
      ...sent(0, '/api/admin/users', USERS),
      ...userAnswer(0, { provider: 'email', role: 'admin' }),
      ...sent(1, '/api/admin/users', FORBIDDEN, 403),
    }),
    'the account that got the data has role admin in its own profile': siteWith({
      ...sent(0, '/api/admin/users', USERS),
      ...sent(0, '/api/me', { id: A, email: 'alice@example.test', role: 'admin' }),
      ...sent(1, '/api/admin/users', FORBIDDEN, 403),
    }),
    'anonymous visitors get it too (reported by api-unauthenticated-data)': siteWith({
      ...sent(0, '/api/admin/users', USERS),
      [`api-unauthenticated-data:GET:${APP}/api/admin/users`]: { url: `${APP}/api/admin/users`, body: JSON.stringify(USERS), contentType: 'application/json' },
    }),
    'the admin route answers a plain user with her own record only': siteWith(sent(0, '/api/admin/users', { users: [USERS.users[0]] })),
    'a route no guard or path marks as admin-only': siteWith(sent(0, '/api/me', { id: A, email: 'alice@example.test', role: 'user' })),
    'a call after a bare isAdmin flag (a prop, not a guard)': siteWith(
      sent(0, '/api/notifications', [{ id: 1, text: 'Your order shipped' }]),
      `${BUNDLE}\nconst Nav={isAdmin:!1,load:()=>Ie("/api/notifications")};`,
    ),
  };
  for (const [name, site] of Object.entries(valid)) {
    it(`valid: ${name}`, () => expect(apiAdminPlainUser.run(site)).toEqual([]));
  }

  it('invalid: the admin users list answers a plain user: high, naming the account, values masked', () => {
    const [finding, ...rest] = apiAdminPlainUser.run(siteWith({ ...sent(0, '/api/admin/users', USERS), ...userAnswer(0, { provider: 'email' }) }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ url: `${APP}/api/admin/users`, severity: 'high', title: 'Admin API /api/admin/users answers a signed-in user who is not an admin' });
    expect(finding!.evidence.request).toContain('Sent as alice@example.test (user 0f8fad5b…)');
    expect(finding!.evidence.response).not.toMatch(/carol\.diaz@mail\.example|\+34 612 345 678/);
  });

  it('invalid: admin stats without user data are medium; a guarded call is flagged like an admin path', () => {
    expect(apiAdminPlainUser.run(siteWith(sent(1, '/api/admin/stats', { users: 3, orders: 3, revenue_cents: 19700 }), `${BUNDLE}\nconst St=()=>Ie("/api/admin/stats");`))).toEqual([
      expect.objectContaining({ url: `${APP}/api/admin/stats`, severity: 'medium' }),
    ]);
    expect(apiAdminPlainUser.run(siteWith(sent(0, '/api/reports/revenue', [{ month: '2025-06', revenue_cents: 19700 }]), GUARDED))).toEqual([
      expect.objectContaining({ url: `${APP}/api/reports/revenue` }),
    ]);
  });
});
