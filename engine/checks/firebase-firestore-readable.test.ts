import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeToken } from '../testing/fake-keys';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { firebaseFirestoreReadable } from './firebase-firestore-readable';

const fixture = readFileSync(join(__dirname, '__fixtures__', 'firebase-bundle.js'), 'utf8').replace('__FIREBASE_API_KEY__', 'AIza' + fakeToken(35));
const BASE = 'https://firestore.googleapis.com/v1/projects/demo-vibe-app/databases/(default)/documents';
const key = (c: string) => `firebase-firestore-readable:demo-vibe-app:${c}`;
const siteWith = (probes: Record<string, ExchangeInit> = {}) =>
  makeSite({ root: { url: 'https://app.test/', body: '<script src="/a.js"></script>' }, assets: [{ url: 'https://app.test/a.js', body: fixture }], probes });
const doc = (fields: Record<string, unknown>) => JSON.stringify({ documents: [{ name: `${BASE}/x/1`, fields }], nextPageToken: 'n' });

describe('firebase-firestore-readable', () => {
  it('plans one-document GETs, bundle collections first, capped', () => {
    const probes = plannedProbes(firebaseFirestoreReadable, siteWith());
    expect(probes[0]).toEqual({ key: key('invoices'), method: 'GET', url: `${BASE}/invoices?pageSize=1` });
    expect(probes.length).toBeLessThanOrEqual(16);
    expect(probes.every((p) => p.method === 'GET')).toBe(true);
  });
  it.each([
    ['403 PERMISSION_DENIED', { url: BASE, status: 403, body: '{"error":{"code":403,"status":"PERMISSION_DENIED"}}' }],
    ['empty collection: {}', { url: BASE, body: '{}' }],
    ['error', { url: BASE, error: 'ECONNRESET' }],
  ])('no finding: %s', (_name, answer) => {
    expect(firebaseFirestoreReadable.run(siteWith({ [key('posts')]: answer }))).toEqual([]);
  });
  it('rates each collection by the values of its first document, keeping masked samples only', () => {
    const findings = firebaseFirestoreReadable.run(
      siteWith({
        [key('posts')]: { url: BASE, body: doc({ title: { stringValue: 'Hello' }, published: { booleanValue: true } }) },
        [key('userSecrets')]: {
          url: BASE,
          body: doc({ email: { stringValue: 'ann@mail.example' }, stripeKey: { stringValue: 'sk_live_51HqLyjWDarjtT1zdp7dcXYZabcdefGHIJKLmnopQRSTuvwx' } }),
        },
        [key('users')]: { url: BASE, body: doc({ email: { stringValue: 'n/a' }, phone: { stringValue: 'ask at desk' }, age: { integerValue: '33' } }) },
      }),
    );
    expect(findings.map((f) => [f.title, f.severity])).toEqual([
      ['Firestore collection "posts" readable without signing in', 'low'],
      ['Firestore collection "userSecrets" readable without signing in', 'critical'],
      ['Firestore collection "users" readable without signing in', 'low'],
    ]);
    expect(findings[1]!.detail).toContain('Critical: the first document read holds a token or API key and an email address.');
    expect(findings[1]!.evidence.response).toContain('email: a***@mail.example (an email address)');
    expect(JSON.stringify(findings)).not.toContain('ann@mail.example');
    expect(JSON.stringify(findings)).not.toContain('GHIJKLmnop');
  });
});
