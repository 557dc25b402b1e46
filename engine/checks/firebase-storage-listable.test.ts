import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeToken } from '../testing/fake-keys';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { firebaseStorageListable } from './firebase-storage-listable';

const fixture = readFileSync(join(__dirname, '__fixtures__', 'firebase-bundle.js'), 'utf8').replace('__FIREBASE_API_KEY__', 'AIza' + fakeToken(35));
const URL_ = 'https://firebasestorage.googleapis.com/v0/b/demo-vibe-app.appspot.com/o?maxResults=1';
const KEY = 'firebase-storage-listable:demo-vibe-app.appspot.com';
const siteWith = (probes: Record<string, ExchangeInit> = {}) =>
  makeSite({ root: { url: 'https://app.test/', body: '<script src="/a.js"></script>' }, assets: [{ url: 'https://app.test/a.js', body: fixture }], probes });

describe('firebase-storage-listable', () => {
  it('plans one GET of the bucket listing', () => {
    expect(plannedProbes(firebaseStorageListable, siteWith())).toEqual([{ key: KEY, method: 'GET', url: URL_ }]);
  });
  it.each([
    ['403', { url: URL_, status: 403, body: '{"error":{"code":403,"message":"Permission denied."}}' }],
    ['empty bucket', { url: URL_, body: '{"prefixes":[],"items":[]}' }],
    ['error', { url: URL_, error: 'ENOTFOUND' }],
  ])('no finding: %s', (_name, answer) => {
    expect(firebaseStorageListable.run(siteWith({ [KEY]: answer }))).toEqual([]);
  });
  it('medium when files are listed, without their names', () => {
    const findings = firebaseStorageListable.run(
      siteWith({ [KEY]: { url: URL_, body: '{"prefixes":["users/"],"items":[{"name":"users/u1/passport.jpg","bucket":"b"}],"nextPageToken":"x"}' } }),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.severity).toBeUndefined(); // the check's default: medium
    expect(JSON.stringify(findings)).not.toContain('passport.jpg');
  });
});
