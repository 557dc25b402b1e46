// TEST STAND-IN for Google's Firebase REST APIs: one HTTPS server on 127.0.0.1 that answers, under the real host
// names (firestore.googleapis.com, <db>.firebaseio.com, <db>.<region>.firebasedatabase.app,
// firebasestorage.googleapis.com, reached through a scan's `resolveHost` hook), the read requests the Firebase checks
// send, in the shapes Google returns them: the Firestore REST documents list, the Realtime Database's
// `.json?shallow=true`, and the Storage object list `v0/b/<bucket>/o`. Each service is open or locked by its rules
// (locked: Google's 403 / 401 error JSON). It records every request, so tests can assert nothing that could write
// (anything but GET, HEAD, OPTIONS) was sent. With `auth`, it is also Firebase Auth: the Identity Toolkit's
// accounts:signInWithPassword and the Secure Token service's refresh grant (identitytoolkit.googleapis.com,
// securetoken.googleapis.com) as the JS SDK calls them, and rules that let any signed-in user read ('signed-in':
// `auth != null`) or each user only her own records ('owner': `auth.uid == $uid`, keyed by the user's uid).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A Firestore value as plain JSON; turned into the REST API's typed values ({ stringValue }, { integerValue } ...). */
type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

export type FirebaseRules = 'open' | 'locked' | 'signed-in' | 'owner';

/** A Firebase Auth user of the stand-in (email/password provider). */
export interface FirebaseUser {
  uid: string;
  email: string;
  password: string;
}

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
  /** Firebase Auth: the web API key the site's config holds, and the users who can sign in with a password. */
  auth?: { apiKey: string; users: FirebaseUser[] };
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
  /** The ID and refresh tokens issued so far (a test searches outputs for them). */
  tokens: () => string[];
  close: () => Promise<void>;
}

/** The host names the stand-in answers for (what a `resolveHost` hook maps to it). */
export function isFirebaseHost(hostname: string): boolean {
  return (
    /^(firestore|firebasestorage|identitytoolkit|securetoken)\.googleapis\.com$/.test(hostname) ||
    /^[a-z0-9-]+(\.[a-z0-9-]+)?\.(firebaseio\.com|firebasedatabase\.app)$/.test(hostname)
  );
}

/** The certificate's names: the two Google API hosts and the database hosts (one label deep, as wildcards match). */
export const FIREBASE_CERT_NAMES = [
  'firestore.googleapis.com',
  'firebasestorage.googleapis.com',
  'identitytoolkit.googleapis.com',
  'securetoken.googleapis.com',
  '*.firebaseio.com',
  '*.europe-west1.firebasedatabase.app',
  '*.asia-southeast1.firebasedatabase.app',
];

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
function firestore(options: FirebaseStandInOptions, method: string, url: URL, res: ServerResponse, uid: string | undefined): void {
  const m = /^\/v1\/projects\/([^/]+)\/databases\/\(default\)\/documents\/([^/]+)$/.exec(decodeURIComponent(url.pathname));
  if (!m) return send(res, method, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
  if (m[1] !== options.projectId || !options.firestore) {
    return send(res, method, 404, {
      error: {
        code: 404,
        message: `The database (default) does not exist for project ${m[1]} Please visit https://console.cloud.google.com/datastore/setup?project=${m[1]} to add a Cloud Datastore or Cloud Firestore database.`,
        status: 'NOT_FOUND',
      },
    });
  }
  // 'owner' rules (`request.auth.uid == userId`) refuse a list that is not limited to the user's own documents.
  if (!allows(options.rules?.firestore, uid, undefined)) return send(res, method, 403, PERMISSION_DENIED);
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
function database(options: FirebaseStandInOptions, host: string, method: string, url: URL, res: ServerResponse, uid: string | undefined): void {
  const hosts = [`${options.projectId}-default-rtdb.firebaseio.com`, options.databaseUrl ? new URL(options.databaseUrl).host : ''];
  if (!options.database || !hosts.includes(host)) {
    return send(res, method, 404, { error: 'Firebase error. Please ensure that you have the URL of your Firebase Realtime Database instance configured correctly.' });
  }
  if (!url.pathname.endsWith('.json')) return send(res, method, 404, { error: 'Not found' });
  const parts = url.pathname.slice(1, -'.json'.length).split('/').filter(Boolean).map(decodeURIComponent);
  // 'owner': ".read": "auth.uid === $uid" on /<collection>/$uid, so only a path under the user's own key reads.
  if (!allows(options.rules?.database, uid, parts[1])) return send(res, method, 401, { error: 'Permission denied' });
  let node: Plain | undefined = options.database;
  for (const part of parts) {
    node = node && typeof node === 'object' && !Array.isArray(node) ? node[part] : undefined;
  }
  if (node === undefined) return send(res, method, 200, 'null');
  // shallow=true: objects' children become `true`, primitives stay.
  const shallow = url.searchParams.get('shallow') === 'true' && node !== null && typeof node === 'object';
  send(res, method, 200, shallow ? Object.fromEntries(Object.entries(node as object).map(([k, v]) => [k, v !== null && typeof v === 'object' ? true : v])) : node);
}

/** GET /v0/b/<bucket>/o?maxResults=N: the object list, folders as prefixes. */
function storage(options: FirebaseStandInOptions, method: string, url: URL, res: ServerResponse, uid: string | undefined): void {
  const m = /^\/v0\/b\/([^/]+)\/o\/?$/.exec(url.pathname);
  if (!m) return send(res, method, 404, { error: { code: 404, message: 'Not Found.' } });
  const bucket = decodeURIComponent(m[1]!);
  if (!options.storage || bucket !== options.storage.bucket) return send(res, method, 404, { error: { code: 404, message: 'Not Found.' } });
  if (!allows(options.rules?.storage, uid, undefined)) return send(res, method, 403, { error: { code: 403, message: 'Permission denied.' } });
  const prefix = url.searchParams.get('prefix') ?? '';
  const delimiter = url.searchParams.get('delimiter') ?? '/';
  const maxResults = Math.max(1, Number(url.searchParams.get('maxResults')) || 1000);
  const inside = options.storage.objects.filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
  const prefixes = [...new Set(inside.filter((rest) => rest.includes(delimiter)).map((rest) => prefix + rest.slice(0, rest.indexOf(delimiter) + 1)))];
  const items = inside.filter((rest) => !rest.includes(delimiter)).map((rest) => ({ name: prefix + rest, bucket }));
  send(res, method, 200, {
    prefixes: prefixes.slice(0, maxResults),
    items: items.slice(0, maxResults),
    ...(prefixes.length + items.length > maxResults ? { nextPageToken: 'Cg5hdmF0YXJzL2EucG5n' } : {}),
  });
}

/** Whether rules let a reader (uid when signed in) read; `ownerKey` is the record key under a collection, if any. */
function allows(rules: FirebaseRules | undefined, uid: string | undefined, ownerKey: string | undefined): boolean {
  const rule = rules ?? 'locked';
  if (rule === 'open') return true;
  if (rule === 'signed-in') return uid !== undefined;
  if (rule === 'owner') return uid !== undefined && ownerKey === uid;
  return false;
}

function handle(options: FirebaseStandInOptions, requests: FirebaseRequest[], auth: AuthState, req: IncomingMessage, res: ServerResponse): void {
  const method = (req.method ?? 'GET').toUpperCase();
  const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  requests.push({ host, method, url: req.url ?? '/' });
  const url = new URL(req.url ?? '/', `https://${host || 'localhost'}`);
  if (host === 'identitytoolkit.googleapis.com' || host === 'securetoken.googleapis.com') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => authCall(options, auth, host, method, url, Buffer.concat(chunks).toString('utf8'), res));
    return;
  }
  req.resume();
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const uid = auth.idTokens.get(url.searchParams.get('auth') ?? bearer ?? '');
  // A write is recorded and refused the way locked rules refuse it; the stand-in never changes its data.
  if (!READS.has(method)) return send(res, method, 403, PERMISSION_DENIED);
  if (method === 'OPTIONS') return send(res, method, 204, '');
  if (host === 'firestore.googleapis.com') return firestore(options, method, url, res, uid);
  if (host === 'firebasestorage.googleapis.com') return storage(options, method, url, res, uid);
  if (isFirebaseHost(host)) return database(options, host, method, url, res, uid);
  send(res, method, 404, { error: { code: 404, message: `unknown host ${host}` } });
}

interface AuthState {
  /** ID token → uid. */
  idTokens: Map<string, string>;
  /** Refresh token → uid. */
  refreshTokens: Map<string, string>;
  issued: string[];
}

/** Identity Toolkit and Secure Token calls are sign-ins and refreshes: writes a signed-in scan may send. */
export function isFirebaseAuthCall(host: string, url: string): boolean {
  return (host === 'identitytoolkit.googleapis.com' && url.startsWith('/v1/accounts:signInWithPassword')) || (host === 'securetoken.googleapis.com' && url.startsWith('/v1/token'));
}

const authError = (message: string) => ({ error: { code: 400, message, errors: [{ message, domain: 'global', reason: 'invalid' }] } });

function issue(auth: AuthState, uid: string): { idToken: string; refreshToken: string } {
  const idToken = `eyJhbGciOiJSUzI1NiJ9.fb-${uid}-${randomBytes(12).toString('hex')}.sig`;
  const refreshToken = `AMf-vB${randomBytes(24).toString('hex')}`;
  auth.idTokens.set(idToken, uid);
  auth.refreshTokens.set(refreshToken, uid);
  auth.issued.push(idToken, refreshToken);
  return { idToken, refreshToken };
}

/** accounts:signInWithPassword (JSON) and the refresh grant (form-encoded), as Google answers them. */
function authCall(options: FirebaseStandInOptions, auth: AuthState, host: string, method: string, url: URL, body: string, res: ServerResponse): void {
  if (method !== 'POST' || !isFirebaseAuthCall(host, url.pathname)) return send(res, method, 404, { error: { code: 404, message: 'Not Found' } });
  if (!options.auth || url.searchParams.get('key') !== options.auth.apiKey) {
    return send(res, method, 400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } });
  }
  if (host === 'securetoken.googleapis.com') {
    const uid = auth.refreshTokens.get(new URLSearchParams(body).get('refresh_token') ?? '');
    if (!uid) return send(res, method, 400, authError('INVALID_REFRESH_TOKEN'));
    const { idToken, refreshToken } = issue(auth, uid);
    return send(res, method, 200, {
      access_token: idToken,
      expires_in: '3600',
      token_type: 'Bearer',
      refresh_token: refreshToken,
      id_token: idToken,
      user_id: uid,
      project_id: '1234567890',
    });
  }
  let given: { email?: unknown; password?: unknown } = {};
  try {
    given = JSON.parse(body) as typeof given;
  } catch {
    return send(res, method, 400, authError('INVALID_JSON'));
  }
  // Email enumeration protection (on by default since 2023): one answer for a wrong email or a wrong password.
  const user = options.auth.users.find((u) => u.email === given.email && u.password === given.password);
  if (!user) return send(res, method, 400, authError('INVALID_LOGIN_CREDENTIALS'));
  const { idToken, refreshToken } = issue(auth, user.uid);
  send(res, method, 200, {
    kind: 'identitytoolkit#VerifyPasswordResponse',
    localId: user.uid,
    email: user.email,
    displayName: '',
    idToken,
    registered: true,
    refreshToken,
    expiresIn: '3600',
  });
}

/** Starts the stand-in over HTTPS with a certificate for FIREBASE_CERT_NAMES (see corpusCertificates). */
export async function startFirebaseStandIn(options: FirebaseStandInOptions, tls: { key: string; cert: string }): Promise<FirebaseStandIn> {
  const requests: FirebaseRequest[] = [];
  const auth: AuthState = { idTokens: new Map(), refreshTokens: new Map(), issued: [] };
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => handle(options, requests, auth, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    nonReads: () => requests.filter((r) => !READS.has(r.method)),
    tokens: () => [...auth.issued],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
