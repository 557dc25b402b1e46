import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher } from '../retrieval/fetcher';
import { corpusCertificates } from './corpus/harness';
import { isFirebaseHost, startFirebaseStandIn, type FirebaseStandIn, type FirebaseStandInOptions } from './firebase-stand-in';

const DATA: Omit<FirebaseStandInOptions, 'rules'> = {
  projectId: 'demo-shop-7f3a',
  firestore: { users: { u1: { email: 'a@b.example', age: 31, score: 4.5, admin: false, tags: ['x'], address: { city: 'Oslo' }, note: null }, u2: { email: 'c@d.example' } } },
  databaseUrl: 'https://demo-shop-eu.europe-west1.firebasedatabase.app',
  database: { users: { u1: { email: 'a@b.example' } }, motd: 'hello' },
  storage: { bucket: 'demo-shop-7f3a.appspot.com', objects: ['avatars/u1.png', 'readme.txt', 'uploads/u2/id.pdf'] },
};
const FIRESTORE = 'https://firestore.googleapis.com/v1/projects/demo-shop-7f3a/databases/(default)/documents';
const RTDB = 'https://demo-shop-7f3a-default-rtdb.firebaseio.com';
const STORAGE = 'https://firebasestorage.googleapis.com/v0/b/demo-shop-7f3a.appspot.com/o';

const ANY_STRING = expect.any(String) as string;

let open: FirebaseStandIn;
let locked: FirebaseStandIn;
const fetchers: Fetcher[] = [];

function via(standIn: FirebaseStandIn): (url: string, method?: string) => Promise<{ status: number; json: unknown }> {
  const fetcher = new Fetcher({
    policy: { allowPrivate: true },
    rateLimit: 0,
    timeoutMs: 2_000,
    trustedCa: [corpusCertificates().ca],
    resolveHost: (hostname) => (isFirebaseHost(hostname) ? { address: '127.0.0.1', port: standIn.port } : undefined),
  });
  fetchers.push(fetcher);
  return async (url, method = 'GET') => {
    const answer = await fetcher.fetch({ url, method, body: method === 'GET' ? undefined : '{}' });
    expect(answer.error).toBeUndefined();
    return { status: answer.status, json: answer.body ? JSON.parse(answer.body) : undefined };
  };
}

beforeAll(async () => {
  const tls = corpusCertificates().firebase;
  open = await startFirebaseStandIn({ ...DATA, rules: { firestore: 'open', database: 'open', storage: 'open' } }, tls);
  locked = await startFirebaseStandIn(DATA, tls);
});
afterAll(async () => {
  for (const fetcher of fetchers) fetcher.close();
  await open.close();
  await locked.close();
});

describe('Firebase stand-in', () => {
  it('lists Firestore documents with typed fields, {} for an empty collection, 404 for another project', async () => {
    const get = via(open);
    expect(await get(`${FIRESTORE}/users?pageSize=1`)).toEqual({
      status: 200,
      json: {
        documents: [
          {
            name: 'projects/demo-shop-7f3a/databases/(default)/documents/users/u1',
            fields: {
              email: { stringValue: 'a@b.example' },
              age: { integerValue: '31' },
              score: { doubleValue: 4.5 },
              admin: { booleanValue: false },
              tags: { arrayValue: { values: [{ stringValue: 'x' }] } },
              address: { mapValue: { fields: { city: { stringValue: 'Oslo' } } } },
              note: { nullValue: null },
            },
            createTime: ANY_STRING,
            updateTime: ANY_STRING,
          },
        ],
        nextPageToken: ANY_STRING,
      },
    });
    expect(await get(`${FIRESTORE}/orders?pageSize=1`)).toEqual({ status: 200, json: {} });
    const other = await get('https://firestore.googleapis.com/v1/projects/someone-else/databases/(default)/documents/users?pageSize=1');
    expect(other).toMatchObject({ status: 404, json: { error: { status: 'NOT_FOUND' } } });
  });

  it('serves the Realtime Database shallowly on the default and the regional host, null for missing paths', async () => {
    const get = via(open);
    expect(await get(`${RTDB}/.json?shallow=true`)).toEqual({ status: 200, json: { users: true, motd: 'hello' } });
    expect(await get(`${DATA.databaseUrl}/users.json?shallow=true`)).toEqual({ status: 200, json: { u1: true } });
    expect(await get(`${RTDB}/nothing/here.json`)).toEqual({ status: 200, json: null });
    expect((await get('https://unknown-db.firebaseio.com/.json?shallow=true')).status).toBe(404);
  });

  it('lists a Storage bucket: folders as prefixes, files as items, a page token past maxResults', async () => {
    const get = via(open);
    expect(await get(`${STORAGE}?maxResults=10`)).toEqual({
      status: 200,
      json: { prefixes: ['avatars/', 'uploads/'], items: [{ name: 'readme.txt', bucket: 'demo-shop-7f3a.appspot.com' }] },
    });
    expect((await get(`${STORAGE}?maxResults=1`)).json).toMatchObject({ prefixes: ['avatars/'], items: [{ name: 'readme.txt' }], nextPageToken: ANY_STRING });
  });

  it("answers locked rules with Google's errors: Firestore 403 PERMISSION_DENIED, the database 401, Storage 403", async () => {
    const get = via(locked);
    expect(await get(`${FIRESTORE}/users?pageSize=1`)).toEqual({
      status: 403,
      json: { error: { code: 403, message: 'Missing or insufficient permissions.', status: 'PERMISSION_DENIED' } },
    });
    expect(await get(`${RTDB}/.json?shallow=true`)).toEqual({ status: 401, json: { error: 'Permission denied' } });
    expect(await get(`${STORAGE}?maxResults=1`)).toEqual({ status: 403, json: { error: { code: 403, message: 'Permission denied.' } } });
    expect(locked.nonReads()).toEqual([]);
  });

  it('records writes (anything but GET, HEAD, OPTIONS) and refuses them without changing its data', async () => {
    const send = via(open);
    expect((await send(`${RTDB}/users.json`, 'PUT')).status).toBe(403);
    expect((await send(`${FIRESTORE}/users`, 'POST')).status).toBe(403);
    expect(open.nonReads()).toEqual([
      { host: 'demo-shop-7f3a-default-rtdb.firebaseio.com', method: 'PUT', url: '/users.json' },
      { host: 'firestore.googleapis.com', method: 'POST', url: '/v1/projects/demo-shop-7f3a/databases/(default)/documents/users' },
    ]);
    expect((await send(`${RTDB}/users.json?shallow=true`)).json).toEqual({ u1: true });
  });
});
