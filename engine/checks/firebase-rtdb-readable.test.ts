import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeToken } from '../testing/fake-keys';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { firebaseRtdbReadable } from './firebase-rtdb-readable';

const fixture = readFileSync(join(__dirname, '__fixtures__', 'firebase-bundle.js'), 'utf8').replace('__FIREBASE_API_KEY__', 'AIza' + fakeToken(35));
const DB = 'https://demo-vibe-app-default-rtdb.firebaseio.com';
const KEY = 'firebase-rtdb-readable:demo-vibe-app-default-rtdb.firebaseio.com';
const siteWith = (probes: Record<string, ExchangeInit> = {}) =>
  makeSite({ root: { url: 'https://app.test/', body: '<script src="/a.js"></script>' }, assets: [{ url: 'https://app.test/a.js', body: fixture }], probes });

describe('firebase-rtdb-readable', () => {
  it('plans one shallow GET of the configured database', () => {
    expect(plannedProbes(firebaseRtdbReadable, siteWith())).toEqual([{ key: KEY, method: 'GET', url: `${DB}/.json?shallow=true` }]);
  });
  it.each([
    ['locked: 401 Permission denied', { url: DB, status: 401, body: '{"error":"Permission denied"}' }],
    ['empty: null', { url: DB, status: 200, body: 'null' }],
    ['network error', { url: DB, error: 'ENOTFOUND' }],
  ])('no finding: %s', (_name, answer) => {
    expect(firebaseRtdbReadable.run(siteWith({ [KEY]: answer }))).toEqual([]);
  });
  it('reports readable roots with key names only', () => {
    const findings = firebaseRtdbReadable.run(siteWith({ [KEY]: { url: DB, body: '{"users":true,"messages":true,"adminToken":"abc-secret-value"}' } }));
    expect(findings.map((f) => f.severity)).toEqual(['critical']);
    expect(findings[0]!.detail).toContain('users, messages, adminToken');
    expect(JSON.stringify(findings)).not.toContain('abc-secret-value');
    const plain = firebaseRtdbReadable.run(siteWith({ [KEY]: { url: DB, body: '{"posts":true}' } }));
    expect(plain.map((f) => f.severity)).toEqual(['high']);
  });
});
