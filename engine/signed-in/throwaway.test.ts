// The throwaway account of an active scan, on the scan's main thread: created only when the scan allows it, once per
// scan however many probes ask at once, never retried, and named (never its password) in the coverage.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeSignIn } from '../../common/scan-accounts';
import { Fetcher } from '../retrieval/fetcher';
import { startPostgrestStandIn, type PostgrestStandIn, type SignUpMode } from '../testing/postgrest-stand-in';
import type { ProbeRequest } from '../types';
import { SessionStore } from './session-store';
import { throwawayAddress, throwawayPassword } from './throwaway';

const KEY = 'stand-in-anon-key';
const OTHER = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', email: 'bob@example.test', password: 'Bob-Unit-Pass-2' };
const PROFILES = [{ id: OTHER.id, full_name: 'Bob Chen', email: OTHER.email }];

describe('throwaway address and password', () => {
  it('are new for each scan: an RFC 2606 address no one receives mail at, and a long password of every class', () => {
    const [a, b] = [throwawayAddress(), throwawayAddress()];
    expect(a).toMatch(/^vibeeval-[0-9a-f]{12}@example\.com$/);
    expect(a).not.toBe(b);
    const password = throwawayPassword();
    expect(password).not.toBe(throwawayPassword());
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.byteLength(password)).toBeLessThanOrEqual(72);
    for (const kind of [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/]) expect(password).toMatch(kind);
  });
});

describe('SessionStore: the throwaway account', () => {
  const standIns: PostgrestStandIn[] = [];
  let fetcher: Fetcher | undefined;
  const start = async (signUp: SignUpMode) => {
    const standIn = await startPostgrestStandIn({ anonKey: KEY, users: [OTHER], signUp, tables: { profiles: { rows: PROFILES, read: 'authenticated', owner: 'id' } } });
    standIns.push(standIn);
    return standIn;
  };
  afterEach(() => fetcher?.close());
  afterAll(async () => {
    await Promise.all(standIns.map((s) => s.close()));
  });

  const probe = (url: string, as: number, key = KEY): ProbeRequest => ({
    key: `k${as}`,
    method: 'GET',
    url: `${url}/rest/v1/profiles?select=*&limit=5`,
    headers: { apikey: key, Authorization: `Bearer ${key}` },
    as,
  });
  const store = (accounts: Array<{ login: string; password: string }> = []) => {
    fetcher = new Fetcher({ policy: { allowPrivate: true }, timeoutMs: 10_000 });
    return new SessionStore(fetcher, accounts);
  };

  it('sends no sign-up unless the scan allows it, whatever a probe asks', async () => {
    const standIn = await start('auto');
    const sessions = store();
    expect(await sessions.authorize(probe(standIn.url, 0))).toEqual({ error: 'no such test account' });
    expect(sessions.siteAccounts()).toEqual([]);
    expect(sessions.coverage()).toEqual([]);
    expect(standIn.requests).toEqual([]);
  });

  it('signs up once for any number of probes at once, reads as the new account, and names it in the coverage', async () => {
    const standIn = await start('auto');
    const sessions = store([{ login: OTHER.email, password: OTHER.password }]);
    sessions.allowThrowaway();
    expect(sessions.siteAccounts()[1]).toMatchObject({ signedIn: false, throwaway: true });
    const answers = await Promise.all([1, 1, 1].map((as) => sessions.authorize(probe(standIn.url, as))));
    expect(standIn.signUps()).toHaveLength(1);
    const [created] = standIn.signedUpUsers();
    expect(created!.email).toMatch(/^vibeeval-[0-9a-f]{12}@example\.com$/);
    const first = answers[0]!;
    if ('error' in first) throw new Error(first.error);
    expect(answers.every((a) => 'headers' in a && a.headers.Authorization === first.headers.Authorization)).toBe(true);
    expect(await (await fetch(`${standIn.url}/rest/v1/profiles`, { headers: first.headers })).json()).toEqual(PROFILES);
    expect(sessions.siteAccounts()[1]).toEqual({ login: created!.email, signedIn: true, userId: created!.id, throwaway: true });
    // Another project (or key) gets no second account.
    expect(await sessions.authorize(probe(standIn.url, 1, 'another-key'))).toEqual({ error: expect.stringContaining('one throwaway account') as unknown });
    await sessions.signOutAll();
    expect(standIn.signedOut()).toContain(created!.id);
    // Nor does a probe after the sessions closed.
    expect(await sessions.authorize(probe(standIn.url, 1))).toHaveProperty('error');
    expect(standIn.signUps()).toHaveLength(1);
    const line = sessions.coverage()[1]!;
    expect(line).toMatchObject({ account: created!.email, signedIn: true, method: 'supabase', throwaway: true });
    expect(describeSignIn(line)).toContain(`Signed up and signed in as ${created!.email}, a throwaway account the scan created`);
    expect(line.reason).toContain('Authentication > Users');
    expect(JSON.stringify(sessions.coverage())).not.toContain(created!.password);
    expect(standIn.nonReads()).toEqual([]);
  });

  it('goes no further when the project asks new accounts to confirm their email, and says so', async () => {
    const standIn = await start('confirm');
    const sessions = store();
    sessions.allowThrowaway();
    expect(await sessions.authorize(probe(standIn.url, 0))).toEqual({ error: expect.stringContaining('email confirmation is required') as unknown });
    expect(await sessions.authorize(probe(standIn.url, 0))).toHaveProperty('error');
    expect(standIn.signUps()).toHaveLength(1);
    expect(standIn.authCalls()).toEqual([]);
    const [line] = sessions.coverage();
    expect(line).toMatchObject({ signedIn: false, throwaway: true, account: standIn.signedUpUsers()[0]!.email });
    expect(line!.reason).toContain('must confirm its email address first');
  });

  it("says a closed sign-up was refused in Supabase's words, and that no account was created", async () => {
    const standIn = await start('closed');
    const sessions = store();
    sessions.allowThrowaway();
    expect(await sessions.authorize(probe(standIn.url, 0))).toHaveProperty('error');
    expect(standIn.signedUpUsers()).toEqual([]);
    const [line] = sessions.coverage();
    expect(line!.reason).toContain('signup_disabled');
    expect(line!.reason).toContain('No account was created.');
  });

  it('never repeats a sign-up the project answered 429, and masks the password and withholds the answer', async () => {
    let posts = 0;
    const server = createServer((req, res) => {
      if (req.method === 'POST') posts++;
      req.resume();
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"code":429,"error_code":"over_request_rate_limit","msg":"Request rate limit reached"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const sessions = store();
      sessions.allowThrowaway();
      expect(await sessions.authorize(probe(url, 0))).toHaveProperty('error');
      expect(posts).toBe(1);
      const [line] = sessions.coverage();
      expect(line!.reason).toContain('over_request_rate_limit');
      const base = { method: 'POST', finalUrl: '', redirects: [], status: 200, headers: [], contentType: '', bodyBytes: 0, truncated: false, timingMs: 0, requestHeaders: {} };
      const login = line!.account;
      const password = (sessions as unknown as { throwaway: { password: string } }).throwaway.password;
      expect(sessions.redact({ ...base, url: `${url}/auth/v1/signup`, body: '{"access_token":"x"}' }).body).not.toContain('access_token');
      // The password is masked wherever an answer could echo it; the address stays, so the owner can find the account.
      const echoed = sessions.redact({ ...base, url: `${url}/rest/v1/profiles`, body: `echo ${password} ${login}` }).body;
      expect(echoed).not.toContain(password);
      expect(echoed).toContain(login);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
