import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher } from '../retrieval/fetcher';
import { startPostgrestStandIn, type PostgrestStandIn } from '../testing/postgrest-stand-in';
import type { ProbeRequest } from '../types';
import { NO_SIGN_IN_METHOD, SessionStore, USERNAME_LOGIN } from './session-store';

const KEY = 'stand-in-anon-key';
const ALICE = { id: '0f8fad5b-d9cb-469f-a165-70867728950e', email: 'alice@example.test', password: 'Alice-Unit-Pass-1' };
const BOB = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', email: 'bob@example.test', password: 'Bob-Unit-Pass-2' };
const ORDERS = [
  { id: 1, user_id: ALICE.id, total: 10 },
  { id: 2, user_id: BOB.id, total: 20 },
];

/** The auth clock both sides read: moved by hand, so expiry is tested without waiting. */
let clock = Date.now();
const now = () => clock;

describe('SessionStore', () => {
  let standIn: PostgrestStandIn;
  let fetcher: Fetcher;
  beforeAll(async () => {
    standIn = await startPostgrestStandIn({ anonKey: KEY, users: [ALICE, BOB], tokenLifetime: 3600, now, tables: { orders: { rows: ORDERS, read: 'owner' } } });
  });
  afterAll(() => standIn.close());
  afterEach(() => fetcher.close());

  const probe = (as: number): ProbeRequest => ({
    key: `k${as}`,
    method: 'GET',
    url: `${standIn.url}/rest/v1/orders?select=*&limit=5`,
    headers: { apikey: KEY, Authorization: `Bearer ${KEY}` },
    as,
  });
  const store = (accounts: Array<{ login: string; password: string }>) => {
    fetcher = new Fetcher({ policy: { allowPrivate: true }, timeoutMs: 10_000 });
    return new SessionStore(fetcher, accounts, now);
  };
  const read = async (headers: Record<string, string>) => (await fetch(`${standIn.url}/rest/v1/orders?select=*`, { headers })).json();

  it('signs each account in with the password grant and sends its token instead of the key', async () => {
    const sessions = store([
      { login: ALICE.email, password: ALICE.password },
      { login: BOB.email, password: BOB.password },
    ]);
    const before = standIn.authCalls().length;
    const alice = await sessions.authorize(probe(0));
    const bob = await sessions.authorize(probe(1));
    await sessions.authorize(probe(0));
    if ('error' in alice || 'error' in bob) throw new Error('not signed in');
    expect(alice.headers.Authorization).not.toBe(`Bearer ${KEY}`);
    expect(alice.headers.apikey).toBe(KEY);
    // One sign-in per account, whatever the number of probes.
    expect(
      standIn
        .authCalls()
        .slice(before)
        .map((r) => r.url),
    ).toEqual(['/auth/v1/token?grant_type=password', '/auth/v1/token?grant_type=password']);
    expect(await read(alice.headers)).toEqual([ORDERS[0]]);
    expect(await read(bob.headers)).toEqual([ORDERS[1]]);
    expect(sessions.siteAccounts()).toEqual([
      { login: ALICE.email, signedIn: true, userId: ALICE.id },
      { login: BOB.email, signedIn: true, userId: BOB.id },
    ]);
    expect(sessions.coverage()).toEqual([
      { account: ALICE.email, signedIn: true, method: 'supabase', reason: undefined },
      { account: BOB.email, signedIn: true, method: 'supabase', reason: undefined },
    ]);
    await sessions.signOutAll();
    expect(standIn.signedOut()).toEqual(expect.arrayContaining([ALICE.id, BOB.id]));
    expect(standIn.nonReads()).toEqual([]);
  });

  it("says why a wrong password did not sign in, in Supabase's words, and never echoes the password", async () => {
    const sessions = store([{ login: ALICE.email, password: 'Not-Her-Password-9' }]);
    const answer = await sessions.authorize(probe(0));
    expect(answer).toHaveProperty('error');
    const [line] = sessions.coverage();
    expect(line).toMatchObject({ account: ALICE.email, signedIn: false, method: 'supabase' });
    expect(line!.reason).toContain('Invalid login credentials');
    expect(line!.reason).toContain('invalid_grant');
    expect(JSON.stringify(sessions.coverage())).not.toContain('Not-Her-Password-9');
  });

  it('does not try a user name on the password grant, and says no sign-in method was found without a project', async () => {
    const sessions = store([
      { login: 'alice', password: 'pw-alice-1' },
      { login: BOB.email, password: BOB.password },
    ]);
    const before = standIn.requests.length;
    expect(await sessions.authorize(probe(0))).toEqual({ error: USERNAME_LOGIN });
    expect(standIn.requests.length).toBe(before);
    expect(sessions.coverage()).toEqual([
      { account: 'alice', signedIn: false, method: 'supabase', reason: USERNAME_LOGIN },
      { account: BOB.email, signedIn: false, reason: NO_SIGN_IN_METHOD },
    ]);
  });

  it("gives the account's Supabase access token as its credential for the app's own API, and says when it has none", async () => {
    const sessions = store([
      { login: ALICE.email, password: ALICE.password },
      { login: BOB.email, password: BOB.password },
    ]);
    // A probe to the app's own origin (no apikey) planned beside the project's: the project's sign-in is used.
    const [own, project] = await Promise.all([sessions.authorize({ key: 'own', method: 'GET', url: 'http://127.0.0.1:9/api/me', as: 0 }), sessions.authorize(probe(0))]);
    if ('error' in project) throw new Error('not signed in');
    expect(own).toEqual({ headers: { Authorization: project.headers.Authorization } });
    expect(await sessions.siteCredential(0)).toEqual({ headers: { Authorization: project.headers.Authorization } });
    expect(await sessions.siteCredential(1)).toEqual({ error: NO_SIGN_IN_METHOD });
    expect(await sessions.siteCredential(5)).toEqual({ error: 'no such test account' });
    await sessions.signOutAll();
  });

  it('refreshes a token about to expire, once, and the new token reads', async () => {
    const sessions = store([{ login: ALICE.email, password: ALICE.password }]);
    const first = await sessions.authorize(probe(0));
    clock += 3600 * 1000;
    const before = standIn.authCalls().length;
    const [second, third] = await Promise.all([sessions.authorize(probe(0)), sessions.authorize(probe(0))]);
    if ('error' in first || 'error' in second || 'error' in third) throw new Error('not signed in');
    expect(
      standIn
        .authCalls()
        .slice(before)
        .map((r) => r.url),
    ).toEqual(['/auth/v1/token?grant_type=refresh_token']);
    expect(second.headers.Authorization).not.toBe(first.headers.Authorization);
    expect(third.headers.Authorization).toBe(second.headers.Authorization);
    expect((await fetch(`${standIn.url}/rest/v1/orders`, { headers: first.headers })).status).toBe(401);
    expect(await read(second.headers)).toEqual([ORDERS[0]]);
    await sessions.signOutAll();
  });

  it('masks the tokens and passwords in exchanges and withholds a token answer', async () => {
    const sessions = store([{ login: ALICE.email, password: ALICE.password }]);
    const auth = await sessions.authorize(probe(0));
    if ('error' in auth) throw new Error('not signed in');
    const token = auth.headers.Authorization!.slice('Bearer '.length);
    const base = {
      method: 'GET',
      url: `${standIn.url}/rest/v1/orders`,
      finalUrl: '',
      redirects: [],
      status: 200,
      headers: [],
      contentType: '',
      bodyBytes: 0,
      truncated: false,
      timingMs: 0,
    };
    const redacted = sessions.redact({ ...base, requestHeaders: { authorization: auth.headers.Authorization! }, body: `echo ${ALICE.password} ${token}` });
    expect(JSON.stringify(redacted)).not.toContain(token);
    expect(JSON.stringify(redacted)).not.toContain(ALICE.password);
    const answer = sessions.redact({ ...base, url: `${standIn.url}/auth/v1/token?grant_type=password`, requestHeaders: {}, body: '{"access_token":"x"}' });
    expect(answer.body).not.toContain('access_token');
    await sessions.signOutAll();
  });
});
