// TEST STAND-IN for Google's Firebase REST APIs: one HTTPS server on 127.0.0.1 that answers, under the real host
// names (firestore.googleapis.com, <db>.firebaseio.com, <db>.<region>.firebasedatabase.app,
// firebasestorage.googleapis.com, reached through a scan's `resolveHost` hook), the read requests the Firebase checks
// send, in the shapes Google returns them: the Firestore REST documents list, the Realtime Database's
// `.json?shallow=true`, and the Storage object list `v0/b/<bucket>/o`. Each service is open or locked by its rules
// (locked: Google's 403 / 401 error JSON). It records every request, so tests can assert nothing that could write
// (anything but GET, HEAD, OPTIONS) was sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A Firestore value as plain JSON; turned into the REST API's typed values ({ stringValue }, { integerValue } ...). */
type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

export type FirebaseRules = 'open' | 'locked';

export interface FirebaseStandInOptions {
  projectId: string;
  /** Firestore collections: name → documents (id → fields). Collections not named here are empty. */
  firestore?: Record<string, Record<string, Record<string, Plain>>>;
  /** The default Realtime Database's tree (served at <projectId>-default-rtdb.firebaseio.com and the URL below). */
  database?: Record<string, Plain>;
  /** The Realtime Database's root URL when not the default one, e.g. https://x.europe-west1.firebasedatabase.app. */
  databaseUrl?: string;
  /** Cloud Storage for Firebase: the bucket's name and its object paths. */
  storage?: { bucket: string; objects: string[] };
  /** Security rules per service; 'locked' (the default) denies reads without auth. */
  rules?: { firestore?: FirebaseRules; database?: FirebaseRules; storage?: FirebaseRules };
}

export interface FirebaseRequest {
  host: string;
  method: string;
  url: string;
}

export interface FirebaseStandIn {
  /** The port it listens on (127.0.0.1). */
  port: number;
  requests: FirebaseRequest[];
  /** Requests that could write: anything but GET, HEAD and OPTIONS. */
  nonReads: () => FirebaseRequest[];
  close: () => Promise<void>;
}

/** The host names the stand-in answers for (what a `resolveHost` hook maps to it). */
export function isFirebaseHost(hostname: string): boolean {
  return /^(firestore|firebasestorage)\.googleapis\.com$/.test(hostname) || /^[a-z0-9-]+(\.[a-z0-9-]+)?\.(firebaseio\.com|firebasedatabase\.app)$/.test(hostname);
}

/** The certificate's names: the two Google API hosts and the database hosts (one label deep, as wildcards match). */
export const FIREBASE_CERT_NAMES = ['firestore.googleapis.com', 'firebasestorage.googleapis.com', '*.firebaseio.com', '*.europe-west1.firebasedatabase.app', '*.asia-southeast1.firebasedatabase.app'];

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

function send(res: ServerResponse, method: string, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(method === 'HEAD' ? undefined : text);
}

/** Firestore's typed value for a plain one. */
function firestoreValue(value: Plain): Record<string, unknown> {
  if (value === null) return { nullValue: null };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { booleanValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { integerValue: String(value) } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(firestoreValue) } };
  return { mapValue: { fields: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, firestoreValue(v)])) } };
}

const PERMISSION_DENIED = { error: { code: 403, message: 'Missing or insufficient permissions.', status: 'PERMISSION_DENIED' } };

/** GET /v1/projects/<p>/databases/(default)/documents/<collection>?pageSize=N */
function firestore(options: FirebaseStandInOptions, method: string, url: URL, res: ServerResponse): void {
  const m = /^\/v1\/projects\/([^/]+)\/databases\/\(default\)\/documents\/([^/]+)$/.exec(decodeURIComponent(url.pathname));
  if (!m) return send(res, method, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
  if (m[1] !== options.projectId || !options.firestore) {
    return send(res, method, 404, { error: { code: 404, message: `The database (default) does not exist for project ${m[1]} Please visit https://console.cloud.google.com/datastore/setup?project=${m[1]} to add a Cloud Datastore or Cloud Firestore database.`, status: 'NOT_FOUND' } });
  }
  if ((options.rules?.firestore ?? 'locked') === 'locked') return send(res, method, 403, PERMISSION_DENIED);
  const documents = Object.entries(options.firestore[m[2]!] ?? {});
  const pageSize = Math.max(1, Number(url.searchParams.get('pageSize')) || 20);
  if (documents.length === 0) return send(res, method, 200, {});
  const page = documents.slice(0, pageSize).map(([id, fields]) => ({
    name: `projects/${options.projectId}/databases/(default)/documents/${m[2]}/${id}`,
    fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, firestoreValue(v)])),
    createTime: '2025-09-14T08:21:37.402518Z',
    updateTime: '2025-10-02T17:45:09.118043Z',
  }));
  send(res, method, 200, documents.length > pageSize ? { documents: page, nextPageToken: 'AFTOeJw2x9VbQk1T' } : { documents: page });
}

/** GET /<path>.json[?shallow=true] on the database's host. */
function database(options: FirebaseStandInOptions, host: string, method: string, url: URL, res: ServerResponse): void {
  const hosts = [`${options.projectId}-default-rtdb.firebaseio.com`, options.databaseUrl ? new URL(options.databaseUrl).host : ''];
  if (!options.database || !hosts.includes(host)) {
    return send(res, method, 404, { error: 'Firebase error. Please ensure that you have the URL of your Firebase Realtime Database instance configured correctly.' });
  }
  if ((options.rules?.database ?? 'locked') === 'locked') return send(res, method, 401, { error: 'Permission denied' });
  if (!url.pathname.endsWith('.json')) return send(res, method, 404, { error: 'Not found' });
  let node: Plain | undefined = options.database;
  for (const part of url.pathname.slice(1, -'.json'.length).split('/').filter(Boolean)) {
    node = node && typeof node === 'object' && !Array.isArray(node) ? node[decodeURIComponent(part)] : undefined;
  }
  if (node === undefined) return send(res, method, 200, 'null');
  // shallow=true: objects' children become `true`, primitives stay.
  const shallow = url.searchParams.get('shallow') === 'true' && node !== null && typeof node === 'object';
  send(res, method, 200, shallow ? Object.fromEntries(Object.entries(node as object).map(([k, v]) => [k, v !== null && typeof v === 'object' ? true : v])) : node);
}

/** GET /v0/b/<bucket>/o?maxResults=N: the object list, folders as prefixes. */
function storage(options: FirebaseStandInOptions, method: string, url: URL, res: ServerResponse): void {
  const m = /^\/v0\/b\/([^/]+)\/o\/?$/.exec(url.pathname);
  if (!m) return send(res, method, 404, { error: { code: 404, message: 'Not Found.' } });
  const bucket = decodeURIComponent(m[1]!);
  if (!options.storage || bucket !== options.storage.bucket) return send(res, method, 404, { error: { code: 404, message: 'Not Found.' } });
  if ((options.rules?.storage ?? 'locked') === 'locked') return send(res, method, 403, { error: { code: 403, message: 'Permission denied.' } });
  const prefix = url.searchParams.get('prefix') ?? '';
  const delimiter = url.searchParams.get('delimiter') ?? '/';
  const maxResults = Math.max(1, Number(url.searchParams.get('maxResults')) || 1000);
  const inside = options.storage.objects.filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
  const prefixes = [...new Set(inside.filter((rest) => rest.includes(delimiter)).map((rest) => prefix + rest.slice(0, rest.indexOf(delimiter) + 1)))];
  const items = inside.filter((rest) => !rest.includes(delimiter)).map((rest) => ({ name: prefix + rest, bucket }));
  send(res, method, 200, { prefixes: prefixes.slice(0, maxResults), items: items.slice(0, maxResults), ...(prefixes.length + items.length > maxResults ? { nextPageToken: 'Cg5hdmF0YXJzL2EucG5n' } : {}) });
}

function handle(options: FirebaseStandInOptions, requests: FirebaseRequest[], req: IncomingMessage, res: ServerResponse): void {
  const method = (req.method ?? 'GET').toUpperCase();
  const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  requests.push({ host, method, url: req.url ?? '/' });
  req.resume();
  const url = new URL(req.url ?? '/', `https://${host || 'localhost'}`);
  // A write is recorded and refused the way locked rules refuse it; the stand-in never changes its data.
  if (!READS.has(method)) return send(res, method, 403, PERMISSION_DENIED);
  if (method === 'OPTIONS') return send(res, method, 204, '');
  if (host === 'firestore.googleapis.com') return firestore(options, method, url, res);
  if (host === 'firebasestorage.googleapis.com') return storage(options, method, url, res);
  if (isFirebaseHost(host)) return database(options, host, method, url, res);
  send(res, method, 404, { error: { code: 404, message: `unknown host ${host}` } });
}

/** Starts the stand-in over HTTPS with a certificate for FIREBASE_CERT_NAMES (see corpusCertificates). */
export async function startFirebaseStandIn(options: FirebaseStandInOptions, tls: { key: string; cert: string }): Promise<FirebaseStandIn> {
  const requests: FirebaseRequest[] = [];
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => handle(options, requests, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    nonReads: () => requests.filter((r) => !READS.has(r.method)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
