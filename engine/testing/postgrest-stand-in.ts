// TEST STAND-IN for a hosted Supabase project: a tiny node:http server on 127.0.0.1 that answers the read-only
// requests the Supabase checks send, the way PostgREST (behind Supabase's API gateway) and Supabase Storage do.
// It is not PostgREST: it knows exactly HEAD/GET /rest/v1/<table or view> (apikey + Authorization, Prefer: count=exact,
// limit), GET /rest/v1/rpc/<function>?<arguments> (PostgREST runs GET calls in a read-only transaction; a call with
// the wrong arguments gets PGRST202 and a hint naming the parameters), the Storage bucket
// endpoints and Storage's object list call (a POST that only reads), GoTrue's public GET /auth/v1/settings (what a scan
// asks an origin to learn it is Supabase), and records every request so tests can assert that nothing that could write
// was sent (`nonReads()`). Under /auth/v1 it signs users in (gotrue-stand-in.ts), and tables, functions and buckets
// then answer per role and per user, as row level security policies would.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoTrueStandIn, isAuthCall, isSignUpCall, type Caller, type SignUpMode, type StandInUser } from './gotrue-stand-in';

export type { SignUpMode, StandInUser };

type Row = Record<string, unknown>;

export interface StandInTable {
  rows: Row[];
  /** Row level security on with no policy for anon: reads succeed and return nothing (200, [], a Content-Range total of 0). */
  rls?: boolean;
  /**
   * A view: PostgREST serves it like a table. A view owned by a privileged role without security_invoker reads its
   * base tables with the owner's rights, so it leaks rows even when the tables have RLS; model that with rls: false.
   */
  view?: boolean;
  /**
   * The SELECT policy, when the table has row level security: 'public' (anyone, anon too), 'authenticated' (any
   * signed-in user, `to authenticated using (true)`), 'owner' (a signed-in user's own rows, `auth.uid() = <owner>`).
   * Unset: `rls` alone decides, the same for every caller.
   */
  read?: 'public' | 'authenticated' | 'owner';
  /** The column holding the owner's user id, for the 'owner' policy (default user_id). */
  owner?: string;
  /** The row a trigger adds for each account created by sign-up (Supabase's `handle_new_user` making a profile). */
  newUserRow?: (user: { id: string; email: string }) => Row;
}

/** A database function exposed at /rest/v1/rpc/<name>. */
export interface StandInFunction {
  /**
   * What a call returns (a set-returning function: an array of rows); a function of the arguments (query
   * parameters, as strings) and the caller (anon or a signed-in user's id) when the answer depends on them.
   */
  returns: unknown;
  /**
   * The function's parameter names. A call whose argument names are not exactly these is answered as PostgREST does:
   * 404 PGRST202, with a hint naming the parameters. Without it, the function takes no arguments.
   */
  params?: string[];
  /** EXECUTE granted to anon (default true); otherwise 401 "permission denied for function" (signed-in users may call it). */
  anon?: boolean;
}

export interface StandInBucket {
  name: string;
  public: boolean;
  /** Whether a SELECT policy on storage.buckets lets anon see this bucket (default true). */
  visibleToAnon?: boolean;
  /** Object path → content, served by GET /storage/v1/object/public/<bucket>/<path> when the bucket is public. */
  files?: Record<string, string>;
  /** A SELECT policy on storage.objects lets anon list this bucket's files (POST /storage/v1/object/list/<bucket>). */
  listable?: boolean;
  /**
   * Who may list it once signed in: 'authenticated' (every file, any signed-in user) or 'owner' (files under a
   * folder named after the user's id, the policy `(storage.foldername(name))[1] = auth.uid()::text`).
   */
  signedInList?: 'authenticated' | 'owner';
}

export interface StandInOptions {
  tables?: Record<string, StandInTable | Row[]>;
  buckets?: StandInBucket[];
  functions?: Record<string, StandInFunction>;
  /** When set, only this apikey is accepted (any other gets 401 "Invalid API key"). */
  anonKey?: string;
  /** False: no GoTrue behind the gateway (everything under /auth/v1 is 404), as an API that only looks like Supabase. */
  auth?: boolean;
  /** Users who can sign in with email and password (Supabase Auth's password grant). */
  users?: StandInUser[];
  /** Sign-up: 'closed' (disable_signup), 'confirm' (open, email confirmation on; the default) or 'auto' (auto-confirm). */
  signUp?: SignUpMode;
  /** Lifetime of an access token, in seconds. */
  tokenLifetime?: number;
  /** The auth clock in ms (tests move it to expire tokens). */
  now?: () => number;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface PostgrestStandIn {
  /** Base URL, e.g. http://127.0.0.1:54321 (what a site would pass to createClient). */
  url: string;
  requests: RecordedRequest[];
  /** Recorded requests that could change data: every method but GET and HEAD, except Storage's list call and auth calls. */
  nonReads: () => RecordedRequest[];
  /** Recorded sign-in, refresh and sign-out calls (they write sessions, and only a signed-in scan sends them). */
  authCalls: () => RecordedRequest[];
  /** Recorded sign-ups (POST /auth/v1/signup): apart from nonReads() and authCalls(); only an active scan may send one. */
  signUps: () => RecordedRequest[];
  /** Ids of the users who signed out. */
  signedOut: () => string[];
  /** Every access and refresh token the stand-in issued. */
  issuedTokens: () => string[];
  /** Accounts created by sign-up (email, the password sent, the id given). */
  signedUpUsers: () => StandInUser[];
  close: () => Promise<void>;
}

/** Storage's object list: a POST that only reads, the one non-GET call a passive scan may send. */
const LIST_CALL = /^\/storage\/v1\/object\/list\/[^/?]+$/;

/** True when a request could not have changed anything on a real project. */
export function isReadRequest(method: string, url: string): boolean {
  return method === 'GET' || method === 'HEAD' || (method === 'POST' && LIST_CALL.test(url.split('?')[0]!));
}

/** What GoTrue answers at /auth/v1/settings on a project with email sign-in (trimmed to a few providers). */
export const GOTRUE_SETTINGS = {
  external: { anonymous_users: false, apple: false, email: true, github: false, google: false, phone: false },
  disable_signup: false,
  mailer_autoconfirm: false,
  phone_autoconfirm: false,
  sms_provider: '',
  saml_enabled: false,
};

function send(res: ServerResponse, method: string, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(method === 'HEAD' ? undefined : text);
}

/** The gateway's key check: apikey required; Authorization, when sent, must carry the same key or a user's token. */
function keyError(req: IncomingMessage, anonKey: string | undefined, auth: GoTrueStandIn): { status: number; body: unknown } | Caller {
  const apikey = req.headers.apikey;
  if (typeof apikey !== 'string' || !apikey) {
    return { status: 401, body: { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' } };
  }
  if (anonKey !== undefined && apikey !== anonKey)
    return { status: 401, body: { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' } };
  const caller = auth.caller(req.headers.authorization, apikey);
  if ('error' in caller) return { status: 401, body: { code: 'PGRST301', details: null, hint: null, message: caller.error } };
  return caller;
}

/** PostgREST's answer to a call whose arguments match no function of that name: PGRST202, the hint naming the real ones. */
export function functionNotFound(name: string, args: readonly string[], params: readonly string[] | undefined): Record<string, unknown> {
  const sorted = [...args].sort();
  const called = sorted.length === 0 ? `public.${name} without parameters` : `public.${name}(${sorted.join(', ')})`;
  const searched = sorted.length === 0 ? `public.${name} without parameters` : `public.${name} with parameter${sorted.length === 1 ? '' : 's'} ${sorted.join(', ')}`;
  return {
    code: 'PGRST202',
    details: `Searched for the function ${searched} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    hint: params ? `Perhaps you meant to call the function public.${name}(${[...params].sort().join(', ')})` : null,
    message: `Could not find the function ${called} in the schema cache`,
  };
}

function rpc(req: IncomingMessage, res: ServerResponse, url: URL, name: string, functions: Record<string, StandInFunction>, caller: Caller): void {
  const method = req.method ?? 'GET';
  const fn = functions[name];
  const args = Object.fromEntries(url.searchParams);
  const argNames = Object.keys(args);
  if (!fn) {
    send(res, method, 404, functionNotFound(name, argNames, undefined));
    return;
  }
  const params = fn.params ?? [];
  if (argNames.length !== params.length || !params.every((param) => param in args)) {
    send(res, method, 404, functionNotFound(name, argNames, fn.params));
    return;
  }
  if (fn.anon === false && caller.role === 'anon') {
    send(res, method, 401, { code: '42501', details: null, hint: null, message: `permission denied for function ${name}` });
    return;
  }
  send(res, method, 200, typeof fn.returns === 'function' ? (fn.returns as (args: Record<string, string>, caller: Caller) => unknown)(args, caller) : fn.returns);
}

/** The rows a caller sees under the table's policy. */
function visibleRows(table: StandInTable, caller: Caller): Row[] {
  if (table.read === undefined) return table.rls ? [] : table.rows;
  if (table.read === 'public') return table.rows;
  if (caller.role === 'anon') return [];
  if (table.read === 'authenticated') return table.rows;
  const owner = table.owner ?? 'user_id';
  return table.rows.filter((row) => row[owner] === caller.sub);
}

function rest(req: IncomingMessage, res: ServerResponse, url: URL, tables: Record<string, StandInTable>, functions: Record<string, StandInFunction>, caller: Caller): void {
  const method = req.method ?? 'GET';
  const name = decodeURIComponent(url.pathname.slice('/rest/v1/'.length));
  if (name.startsWith('rpc/')) {
    rpc(req, res, url, name.slice('rpc/'.length), functions, caller);
    return;
  }
  const table = tables[name];
  if (!table) {
    send(res, method, 404, { code: 'PGRST205', details: null, hint: null, message: `Could not find the table 'public.${name}' in the schema cache` });
    return;
  }
  const visible = visibleRows(table, caller);
  const limitParam = url.searchParams.get('limit');
  const limit = limitParam !== null && /^\d+$/.test(limitParam) ? Number(limitParam) : visible.length;
  const page = visible.slice(0, limit);
  const exact = /count=exact/.test(String(req.headers.prefer ?? ''));
  const total = exact ? String(visible.length) : '*';
  const range = page.length > 0 ? `0-${page.length - 1}/${total}` : `*/${total}`;
  send(res, method, 200, page, { 'content-range': range });
}

interface ListBody {
  prefix?: string;
  limit?: number;
  offset?: number;
}

/** Storage's list answer: the objects (and folders) directly under `prefix`, names sorted, one page. */
function listObjects(bucket: StandInBucket, body: ListBody, ownerFolder?: string): unknown[] {
  const prefix = (body.prefix ?? '').replace(/^\/+|\/+$/g, '');
  const under = Object.keys(bucket.files ?? {})
    .filter((path) => ownerFolder === undefined || path.startsWith(`${ownerFolder}/`))
    .filter((path) => (prefix ? path.startsWith(`${prefix}/`) : true))
    .map((path) => (prefix ? path.slice(prefix.length + 1) : path));
  const entries = new Map<string, unknown>();
  for (const rest of under) {
    const [first = '', ...deeper] = rest.split('/');
    if (deeper.length > 0) entries.set(first, { name: first, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });
    else {
      const size = Buffer.byteLength(bucket.files![prefix ? `${prefix}/${first}` : first]!);
      entries.set(first, {
        name: first,
        id: `00000000-0000-4000-8000-${String(entries.size).padStart(12, '0')}`,
        updated_at: '2025-01-01T00:00:00.000Z',
        created_at: '2025-01-01T00:00:00.000Z',
        last_accessed_at: null,
        metadata: { size, mimetype: 'application/octet-stream' },
      });
    }
  }
  const offset = Math.max(0, Number(body.offset) || 0);
  const limit = Math.max(1, Math.min(1000, Number(body.limit) || 100));
  return [...entries.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .slice(offset, offset + limit)
    .map(([, entry]) => entry);
}

/** Whether a caller may list a bucket's objects, and within which folder ('' for all of it). */
function listScope(bucket: StandInBucket, caller: Caller): string | undefined {
  if (bucket.listable) return '';
  if (caller.role === 'anon' || bucket.signedInList === undefined) return undefined;
  return bucket.signedInList === 'authenticated' ? '' : caller.sub;
}

function storage(req: IncomingMessage, res: ServerResponse, url: URL, buckets: StandInBucket[], body: string, caller: Caller): void {
  const method = req.method ?? 'GET';
  const visible = buckets.filter((b) => b.visibleToAnon !== false);
  const meta = (b: StandInBucket) => ({
    id: b.name,
    name: b.name,
    owner: '',
    public: b.public,
    file_size_limit: null,
    allowed_mime_types: null,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  });
  const notFound = { statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' };
  const path = url.pathname.slice('/storage/v1'.length);
  if (path === '/bucket' || path === '/bucket/') {
    send(res, method, 200, visible.map(meta));
    return;
  }
  const one = /^\/bucket\/([^/]+)$/.exec(path);
  if (one) {
    const bucket = visible.find((b) => b.name === decodeURIComponent(one[1]!));
    if (bucket) send(res, method, 200, meta(bucket));
    else send(res, method, 400, notFound);
    return;
  }
  const list = /^\/object\/list\/([^/]+)$/.exec(path);
  if (list && method === 'POST') {
    const bucket = buckets.find((b) => b.name === decodeURIComponent(list[1]!));
    let parsed: ListBody = {};
    try {
      parsed = JSON.parse(body || '{}') as ListBody;
    } catch {
      send(res, method, 400, { statusCode: '400', error: 'Bad Request', message: 'body must be JSON' });
      return;
    }
    // Without a SELECT policy on storage.objects, anon lists nothing: 200 with an empty array, as Storage answers.
    if (!bucket) send(res, method, 400, notFound);
    else {
      const scope = listScope(bucket, caller);
      send(res, method, 200, scope === undefined ? [] : listObjects(bucket, parsed, scope || undefined));
    }
    return;
  }
  const object = /^\/object\/public\/([^/]+)\/(.+)$/.exec(path);
  if (object) {
    const bucket = buckets.find((b) => b.name === decodeURIComponent(object[1]!) && b.public);
    const file = bucket?.files?.[decodeURIComponent(object[2]!)];
    if (file === undefined) send(res, method, 400, { statusCode: '404', error: 'not_found', message: 'Object not found' });
    else {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(method === 'HEAD' ? undefined : file);
    }
    return;
  }
  send(res, method, 404, { statusCode: '404', error: 'not_found', message: 'Route not found in stand-in' });
}

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startPostgrestStandIn(options: StandInOptions = {}): Promise<PostgrestStandIn> {
  const tables: Record<string, StandInTable> = {};
  // A copy of each table: sign-ups add rows, and an app's options are shared by every run of it.
  for (const [name, value] of Object.entries(options.tables ?? {})) tables[name] = Array.isArray(value) ? { rows: value } : { ...value };
  const buckets = options.buckets ?? [];
  const functions = options.functions ?? {};
  const requests: RecordedRequest[] = [];
  const onSignUp = (user: StandInUser) => {
    for (const table of Object.values(tables)) if (table.newUserRow) table.rows = [...table.rows, table.newUserRow(user)];
  };
  const auth = new GoTrueStandIn({ users: options.users, signUp: options.signUp, onSignUp, tokenLifetime: options.tokenLifetime, now: options.now });

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const method = req.method ?? 'GET';
    if (req.url?.startsWith('/auth/v1/')) {
      if (options.auth === false) return send(res, method, 404, { message: 'no Route matched with those values' });
      if (req.url.split('?')[0] === '/auth/v1/settings' && method === 'GET') {
        const settingsCaller = keyError(req, options.anonKey, auth);
        return 'status' in settingsCaller ? send(res, method, settingsCaller.status, settingsCaller.body) : send(res, method, 200, { ...GOTRUE_SETTINGS, ...auth.settings() });
      }
      const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : '';
      const answer = auth.handle(method, new URL(req.url, 'http://stand-in'), { authorization: req.headers.authorization, apikey }, body);
      if (!answer) send(res, method, 404, { code: 404, error_code: 'not_found', msg: 'Not found' });
      else if (answer.body === undefined) res.writeHead(answer.status).end();
      else send(res, method, answer.status, answer.body);
      return;
    }
    if (!isReadRequest(method, req.url ?? '/')) {
      send(res, method, 405, { message: `The stand-in is read-only; ${method} ${req.url ?? ''} is never expected from a scan.` });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const caller = keyError(req, options.anonKey, auth);
    if ('status' in caller) {
      send(res, method, caller.status, caller.body);
      return;
    }
    if (url.pathname.startsWith('/rest/v1/') && url.pathname.length > '/rest/v1/'.length) rest(req, res, url, tables, functions, caller);
    else if (url.pathname.startsWith('/storage/v1/')) storage(req, res, url, buckets, body, caller);
    else send(res, method, 404, { message: 'no Route matched with those values' });
  };
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: { ...req.headers } });
    // Read the whole body (the list call's JSON; drained for anything else so keep-alive connections stay usable).
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    nonReads: () => requests.filter((r) => !isReadRequest(r.method, r.url) && !isAuthCall(r.method, r.url) && !isSignUpCall(r.method, r.url)),
    authCalls: () => requests.filter((r) => isAuthCall(r.method, r.url)),
    signUps: () => requests.filter((r) => isSignUpCall(r.method, r.url)),
    signedOut: () => [...auth.signedOut],
    issuedTokens: () => [...auth.issued],
    signedUpUsers: () => [...auth.signedUp],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
