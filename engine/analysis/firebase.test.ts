import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeToken } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import { collectTexts } from '../secrets/scan';
import { COLLECTION_WORDLIST, analyzeFirebase, extractFirebase } from './firebase';

const fixture = readFileSync(join(__dirname, '..', 'checks', '__fixtures__', 'firebase-bundle.js'), 'utf8');
const apiKey = 'AIza' + fakeToken(35);

describe('extractFirebase', () => {
  it('reads the firebaseConfig and collection names of a minified bundle', () => {
    const site = makeSite({
      root: { url: 'https://app.test/', body: '<script src="/a.js"></script>' },
      assets: [{ url: 'https://app.test/a.js', body: fixture.replace('__FIREBASE_API_KEY__', apiKey) }],
    });
    const info = analyzeFirebase(site);
    expect(info.configs).toEqual([
      {
        apiKey,
        projectId: 'demo-vibe-app',
        authDomain: 'demo-vibe-app.firebaseapp.com',
        databaseURL: 'https://demo-vibe-app-default-rtdb.firebaseio.com',
        storageBucket: 'demo-vibe-app.appspot.com',
      },
    ]);
    expect(info.databaseUrls).toEqual(['https://demo-vibe-app-default-rtdb.firebaseio.com']);
    expect(info.projectIds).toEqual(['demo-vibe-app']);
    expect(info.buckets).toEqual(['demo-vibe-app.appspot.com']);
    expect(info.collections.filter((c) => c.origin === 'bundle').map((c) => c.name)).toEqual(['invoices', 'posts', 'userSecrets']);
    expect(info.collections.filter((c) => c.origin === 'wordlist').length).toBe(COLLECTION_WORDLIST.length - 1);
  });

  it('reads env-style configs and guesses the default database name', () => {
    const text = `{VITE_FIREBASE_API_KEY:"${apiKey}",VITE_FIREBASE_PROJECT_ID:"shop-123",VITE_FIREBASE_STORAGE_BUCKET:"shop-123.firebasestorage.app"}`;
    const info = extractFirebase([{ kind: 'script', url: 'u', where: 'script', text }]);
    expect(info.projectIds).toEqual(['shop-123']);
    expect(info.databaseUrls).toEqual(['https://shop-123-default-rtdb.firebaseio.com']);
    expect(info.buckets).toEqual(['shop-123.firebasestorage.app']);
  });

  it('learns from captured traffic and ignores projectIds outside a Firebase config', () => {
    const site = makeSite({
      root: { url: 'https://app.test/', body: '<script>const sentry={projectId:"not-firebase"}</script>' },
      rendering: {
        status: 'done',
        requests: [
          { url: 'https://firestore.googleapis.com/v1/projects/live-proj/databases/(default)/documents/tasks?pageSize=20', method: 'GET', resourceType: 'fetch' },
          { url: 'https://firebasestorage.googleapis.com/v0/b/live-proj.appspot.com/o/a.png?alt=media', method: 'GET', resourceType: 'image' },
        ],
      },
    });
    const info = extractFirebase(collectTexts(site));
    expect(info.projectIds).toEqual(['live-proj']);
    expect(info.buckets).toEqual(['live-proj.appspot.com']);
    expect(info.collections[0]).toEqual({ name: 'tasks', origin: 'traffic' });
    expect(info.configs).toEqual([]);
  });
});
