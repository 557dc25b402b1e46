// Firebase Auth as a sign-in method of the SessionStore, against the Firebase stand-in under Google's host names: the
// password sign-in and refresh as the JS SDK sends them, the ID token on the Realtime Database (`auth=`) and on
// Firestore (bearer), Firebase's reasons in the coverage, and the tokens masked in every exchange kept.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher } from '../retrieval/fetcher';
import { corpusCertificates } from '../testing/corpus/harness';
import { isFirebaseAuthCall, isFirebaseHost, startFirebaseStandIn, type FirebaseStandIn } from '../testing/firebase-stand-in';
import type { Exchange, ProbeRequest } from '../types';
import { SessionStore } from './session-store';

const API_KEY = 'AIza' + 'StandInUnitKey'.padEnd(35, 'x');
const ALICE = { uid: 'k3VnQx7TfZbM2pLw9sRj4HdYc8A1', email: 'alice@example.test', password: 'Alice-Fb-Unit-1' };
const BOB = { uid: 'P8mWq2ZrT5xNc7LbK1vJd4GsH9F3', email: 'bob@example.test', password: 'Bob-Fb-Unit-2' };
const DB = 'https://unit-fb-default-rtdb.firebaseio.com';

let clock = Date.now();
const now = () => clock;

describe('Firebase Auth sign-in', () => {
  let standIn: FirebaseStandIn;
  let fetcher: Fetcher;
  const exchanges: Exchange[] = [];
  beforeAll(async () => {
    standIn = await startFirebaseStandIn(
      {
        projectId: 'unit-fb',
        auth: { apiKey: API_KEY, users: [ALICE, BOB] },
        rules: { database: 'signed-in', firestore: 'owner' },
        database: { users: { [ALICE.uid]: { name: 'Alice' }, [BOB.uid]: { name: 'Bob' } } },
        firestore: { users: {} },
      },
      corpusCertificates().firebase,
    );
  });
  afterAll(() => standIn.close());
  afterEach(() => fetcher.close());

  const store = (accounts: Array<{ login: string; password: string }>) => {
    fetcher = new Fetcher({
      policy: { allowPrivate: true },
      timeoutMs: 10_000,
      trustedCa: [corpusCertificates().ca],
      resolveHost: (host) => (isFirebaseHost(host) ? { address: '127.0.0.1', port: standIn.port } : undefined),
      onExchange: (e) => exchanges.push(sessions.redact(e)),
    });
    const sessions = new SessionStore(fetcher, accounts, now);
    return sessions;
  };
  const rtdb = (as: number): ProbeRequest => ({
    key: `r${as}`,
    method: 'GET',
    url: `${DB}/users.json?orderBy=%22%24key%22&limitToFirst=5`,
    as,
    firebase: { apiKey: API_KEY, tokenIn: 'auth-param' },
  });
  const firestore = (as: number): ProbeRequest => ({
    key: `f${as}`,
    method: 'GET',
    url: 'https://firestore.googleapis.com/v1/projects/unit-fb/databases/(default)/documents/users?pageSize=5',
    as,
    firebase: { apiKey: API_KEY, tokenIn: 'bearer' },
  });

  it('signs in once per account, sends the ID token as auth= or bearer, refreshes near expiry, and masks every token', async () => {
    const sessions = store([
      { login: ALICE.email, password: ALICE.password },
      { login: BOB.email, password: BOB.password },
    ]);
    const before = standIn.requests.length;
    const [a, b, a2] = await Promise.all([sessions.authorize(rtdb(0)), sessions.authorize(rtdb(1)), sessions.authorize(firestore(0))]);
    if ('error' in a || 'error' in b || 'error' in a2) throw new Error('not signed in');
    const calls = standIn.requests.slice(before).filter((r) => isFirebaseAuthCall(r.host, r.url));
    expect(calls.map((r) => `${r.method} ${r.host}${r.url.split('?')[0]}`)).toEqual(Array(2).fill('POST identitytoolkit.googleapis.com/v1/accounts:signInWithPassword'));
    expect(new URL(a.url!).searchParams.get('auth')).toBeTruthy();
    expect(a2.headers.Authorization).toMatch(/^Bearer /);
    expect(sessions.siteAccounts()).toEqual([
      { login: ALICE.email, signedIn: true, userId: ALICE.uid },
      { login: BOB.email, signedIn: true, userId: BOB.uid },
    ]);
    expect(sessions.coverage().map((c) => c.method)).toEqual(['firebase', 'firebase']);
    // The app's own API takes the same ID token.
    expect(await sessions.siteCredential(0)).toEqual({ headers: { Authorization: a2.headers.Authorization } });
    clock += 3600 * 1000;
    const refreshed = await sessions.authorize(firestore(0));
    if ('error' in refreshed) throw new Error('not refreshed');
    expect(refreshed.headers.Authorization).not.toBe(a2.headers.Authorization);
    expect(standIn.requests.slice(before).filter((r) => r.host === 'securetoken.googleapis.com').length).toBe(1);
    const read = await fetcher.fetch({ method: 'GET', url: a.url!, headers: a.headers });
    expect(read.status).toBe(200);
    const kept = JSON.stringify([...exchanges, sessions.redact(read)]);
    const leaks = [...standIn.tokens(), ALICE.password, BOB.password].filter((secret) => kept.includes(secret));
    expect(leaks).toEqual([]);
    expect(standIn.nonReads().every((r) => isFirebaseAuthCall(r.host, r.url))).toBe(true);
  });

  it('says why Firebase refused, in its words, and refuses a user name without sending it', async () => {
    const sessions = store([
      { login: ALICE.email, password: 'Not-Her-Password-9' },
      { login: 'bob', password: BOB.password },
    ]);
    const before = standIn.requests.length;
    expect(await sessions.authorize(rtdb(0))).toHaveProperty('error');
    expect(await sessions.authorize(rtdb(1))).toHaveProperty('error');
    expect(standIn.requests.length - before).toBe(1);
    const [alice, bob] = sessions.coverage();
    expect(alice).toMatchObject({ signedIn: false, method: 'firebase', reason: expect.stringContaining('INVALID_LOGIN_CREDENTIALS') as unknown });
    expect(alice!.reason).toContain('the email or password is wrong');
    expect(bob).toMatchObject({ signedIn: false, method: 'firebase', reason: "Not signed in: Firebase's password sign-in takes an email address, and this login is a user name." });
    expect(JSON.stringify(sessions.coverage())).not.toContain('Not-Her-Password-9');
  });
});
