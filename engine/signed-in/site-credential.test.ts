// The account's credential for the site's own API: the access token of the Supabase session a probe to the project
// opened, sent as the bearer of a probe that carries no project key; refreshed like the project's own requests.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher } from '../retrieval/fetcher';
import { startPostgrestStandIn, type PostgrestStandIn } from '../testing/postgrest-stand-in';
import type { Exchange, ProbeRequest } from '../types';
import { NO_SIGN_IN_METHOD, SessionStore } from './session-store';

const KEY = 'stand-in-anon-key';
const ALICE = { id: '0f8fad5b-d9cb-469f-a165-70867728950e', email: 'alice@example.test', password: 'Alice-Credential-1' };
let clock = Date.now();
const now = () => clock;

describe('SessionStore.siteCredential', () => {
  let standIn: PostgrestStandIn;
  let fetcher: Fetcher;
  beforeAll(async () => {
    standIn = await startPostgrestStandIn({ anonKey: KEY, users: [ALICE], tokenLifetime: 3600, now });
  });
  afterAll(() => standIn.close());
  afterEach(() => fetcher.close());

  const store = () => {
    fetcher = new Fetcher({ policy: { allowPrivate: true }, timeoutMs: 10_000 });
    return new SessionStore(fetcher, [{ login: ALICE.email, password: ALICE.password }], now);
  };
  const signInProbe: ProbeRequest = { key: 'user', method: 'GET', url: '', headers: { apikey: KEY }, as: 0 };
  const apiProbe = (as: number): ProbeRequest => ({
    key: `api${as}`,
    method: 'GET',
    url: 'https://app.test/api/orders',
    headers: { Accept: 'application/json', Authorization: 'Bearer stale' },
    as,
  });

  it("has no credential before the account's session is open, and none for an account that is not there", async () => {
    const sessions = store();
    const errorOf = (answer: { headers: Record<string, string> } | { error: string }) => ('error' in answer ? answer.error : '');
    // No project session and no sign-in of the site's own: nothing to send, and the reason says so.
    expect(errorOf(await sessions.siteCredential(0))).toBe(NO_SIGN_IN_METHOD);
    expect(errorOf(await sessions.authorize(apiProbe(0)))).toBe(NO_SIGN_IN_METHOD);
    expect(await sessions.authorize(apiProbe(3))).toEqual({ error: 'no such test account' });
  });

  it("sends the session's access token as the bearer to the site's API, keeps the probe's other headers, masks the token", async () => {
    const sessions = store();
    expect(await sessions.authorize({ ...signInProbe, url: `${standIn.url}/auth/v1/user` })).toHaveProperty('headers');
    const token = standIn.issuedTokens().find((t) => t.startsWith('eyJ'))!;
    const auth = await sessions.authorize(apiProbe(0));
    expect(auth).toEqual({ headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
    expect(await sessions.siteCredential(0)).toEqual({ headers: { Authorization: `Bearer ${token}` } });
    const exchange = {
      method: 'GET',
      url: 'https://app.test/api/orders',
      finalUrl: 'https://app.test/api/orders',
      redirects: [],
      headers: [['content-type', 'application/json']],
      requestHeaders: { Authorization: `Bearer ${token}` },
      body: `{"echo":"${token}"}`,
    } as unknown as Exchange;
    expect(JSON.stringify(sessions.redact(exchange))).not.toContain(token);
  });

  it('refreshes an expiring session before handing out its token', async () => {
    const sessions = store();
    await sessions.authorize({ ...signInProbe, url: `${standIn.url}/auth/v1/user` });
    const first = await sessions.siteCredential(0);
    const calls = standIn.authCalls().length;
    clock += 3_590_000;
    const second = await sessions.siteCredential(0);
    expect(standIn.authCalls().length).toBe(calls + 1);
    expect(second).toHaveProperty('headers.Authorization');
    expect(second).not.toEqual(first);
  });
});
