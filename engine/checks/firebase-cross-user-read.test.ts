import { describe, expect, it } from 'vitest';
import { makeSite, type ExchangeInit } from '../testing/site';
import type { Site, SiteAccount } from '../types';
import { firebaseCrossUserRead } from './firebase-cross-user-read';

const ID = 'firebase-cross-user-read';
const KEY = 'AIza' + 'TableTestKey'.padEnd(35, 'q');
const PROJECT = 'habits-1a2b3';
const DB = `https://${PROJECT}-default-rtdb.firebaseio.com`;
const A = 'k3VnQx7TfZbM2pLw9sRj4HdYc8A1';
const B = 'P8mWq2ZrT5xNc7LbK1vJd4GsH9F3';
const TWO: SiteAccount[] = [
  { login: 'alice@example.test', signedIn: true, userId: A },
  { login: 'bob@example.test', signedIn: true, userId: B },
];
const BUNDLE = `const c={apiKey:"${KEY}",authDomain:"${PROJECT}.firebaseapp.com",databaseURL:"${DB}",projectId:"${PROJECT}"};ref(db,"users/"+u.uid);`;

const siteWith = (probes: Record<string, ExchangeInit> = {}, accounts: SiteAccount[] = TWO): Site => ({
  ...makeSite({
    root: { url: 'https://app.test/', body: '<script type="module" src="/assets/index.js"></script>' },
    assets: [{ url: 'https://app.test/assets/index.js', body: BUNDLE }],
    probes,
  }),
  accounts,
});
const usersAs = (as: number, body: unknown, status = 200): Record<string, ExchangeInit> => ({
  [`${ID}:rtdb:${new URL(DB).host}:users:${as}`]: { url: `${DB}/users.json`, status, body: JSON.stringify(body), contentType: 'application/json' },
});
const USERS = { [A]: { email: 'alice@example.test', phone: '+33 6 12 34 56 78' }, [B]: { email: 'bob.chen@mail.example', phone: '+1 415 555 0199' } };
const firestoreAs = (as: number, docs: Array<{ id: string; userId: string }>): Record<string, ExchangeInit> => ({
  [`${ID}:firestore:${PROJECT}:users:${as}`]: {
    url: `https://firestore.googleapis.com/v1/projects/${PROJECT}/databases/(default)/documents/users?pageSize=5`,
    body: JSON.stringify({
      documents: docs.map((d) => ({
        name: `projects/${PROJECT}/databases/(default)/documents/users/${d.id}`,
        fields: { userId: { stringValue: d.userId }, email: { stringValue: 'x@mail.example' } },
      })),
    }),
    contentType: 'application/json',
  },
});

describe('firebase-cross-user-read', () => {
  it('plans each collection once per account with the Firebase key, the database token as auth=, nothing without accounts', () => {
    const probes = firebaseCrossUserRead.probes!(siteWith());
    const users = probes.filter((p) => p.key.includes(':rtdb:') && p.key.includes(':users:'));
    expect(users.map((p) => [p.as, p.firebase])).toEqual([
      [0, { apiKey: KEY, tokenIn: 'auth-param' }],
      [1, { apiKey: KEY, tokenIn: 'auth-param' }],
    ]);
    expect(probes.every((p) => p.method === 'GET' && p.firebase?.apiKey === KEY)).toBe(true);
    expect(probes.filter((p) => p.key.includes(':firestore:')).every((p) => p.firebase?.tokenIn === 'bearer')).toBe(true);
    expect(probes.length).toBeLessThanOrEqual(2 * 12);
    expect(firebaseCrossUserRead.probes!(siteWith({}, []))).toEqual([]);
  });

  const cases: Array<{ name: string; probes: Record<string, ExchangeInit>; accounts?: SiteAccount[]; found: number }> = [
    { name: 'auth != null: each account reads both users', probes: { ...usersAs(0, USERS), ...usersAs(1, USERS) }, found: 1 },
    {
      name: 'auth.uid == $uid: the collection is refused',
      probes: { ...usersAs(0, { error: 'Permission denied' }, 401), ...usersAs(1, { error: 'Permission denied' }, 401) },
      found: 0,
    },
    { name: 'each account reads only her own record', probes: { ...usersAs(0, { [A]: USERS[A] }), ...usersAs(1, { [B]: USERS[B] }) }, found: 0 },
    {
      name: 'the other account not signed in: nothing to compare with',
      probes: { ...usersAs(0, USERS) },
      accounts: [TWO[0]!, { login: 'bob@example.test', signedIn: false }],
      found: 0,
    },
    { name: 'Firestore documents owned by the other account', probes: { ...firestoreAs(0, [{ id: 'd1', userId: B }]), ...firestoreAs(1, [{ id: 'd1', userId: B }]) }, found: 1 },
    {
      name: 'readable anonymously: left to the anonymous check',
      probes: { ...usersAs(0, USERS), [`firebase-rtdb-readable:${new URL(DB).host}`]: { url: `${DB}/.json?shallow=true`, body: '{"users":true}' } },
      found: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const findings = firebaseCrossUserRead.run(siteWith(c.probes, c.accounts));
      expect(findings.length).toBe(c.found);
      for (const finding of findings) {
        expect(finding.severity).not.toBe('low');
        expect(finding.evidence?.request).toContain('Sent as alice@example.test');
        expect(JSON.stringify(finding)).not.toContain(B);
      }
    });
  }
});
