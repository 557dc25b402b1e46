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
  it('reads one record of the people collections first, and rates the database by the worst it saw', () => {
    const root = { [KEY]: { url: DB, body: '{"rooms":true,"users":true,"messages":true,"motd":"Welcome back"}' } };
    expect(firebaseRtdbReadable.followUpProbes!(siteWith(root)).map((p) => p.url)).toEqual([
      `${DB}/users.json?orderBy=%22%24key%22&limitToFirst=1`,
      `${DB}/rooms.json?orderBy=%22%24key%22&limitToFirst=1`,
    ]);
    const findings = firebaseRtdbReadable.run(
      siteWith({
        ...root,
        [`${KEY}:users`]: { url: DB, body: '{"u1":{"email":"kim@chat.example","name":"Kim"}}' },
        [`${KEY}:rooms`]: { url: DB, body: '{"general":{"title":"General"}}' },
      }),
    );
    expect(findings.map((f) => f.severity)).toEqual(['high']);
    expect(findings[0]!.detail).toContain('rooms, users, messages, motd');
    expect(findings[0]!.detail).toContain('High: the first record of "users" holds an email address.');
    expect(JSON.stringify(findings)).not.toContain('kim@chat.example');
  });

  it('rates a root with a live secret critical, and one with only public content low', () => {
    const secret = firebaseRtdbReadable.run(siteWith({ [KEY]: { url: DB, body: '{"config":{"x":1},"adminToken":"Zk8qL2mN9pR4tV7wY1bC3dF6gH0jK5sX"}' } }));
    expect(secret.map((f) => f.severity)).toEqual(['critical']);
    expect(JSON.stringify(secret)).not.toContain('Zk8qL2mN9pR4tV7wY1bC3dF6gH0jK5sX');
    const plain = firebaseRtdbReadable.run(
      siteWith({ [KEY]: { url: DB, body: '{"posts":true}' }, [`${KEY}:posts`]: { url: DB, body: '{"p1":{"title":"Hello","body":"First post"}}' } }),
    );
    expect(plain.map((f) => f.severity)).toEqual(['low']);
  });
});
