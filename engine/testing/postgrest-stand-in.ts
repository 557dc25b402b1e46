// TEST STAND-IN for a hosted Supabase project: a tiny node:http server on 127.0.0.1 that answers the read-only
// requests the Supabase checks send, the way PostgREST (behind Supabase's API gateway) and Supabase Storage do.
// It is not PostgREST: it knows exactly HEAD/GET /rest/v1/<table> (apikey + Authorization, Prefer: count=exact,
// limit) and the Storage bucket endpoints, and records every request so tests can assert that no write was sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Row = Record<string, unknown>;

export interface StandInTable {
  rows: Row[];
  /** Row level security on with no policy for anon: reads succeed and return nothing (200, [], a Content-Range total of 0). */
  rls?: boolean;
}

export interface StandInBucket {
  name: string;
  public: boolean;
  /** Whether a SELECT policy on storage.buckets lets anon see this bucket (default true). */
  visibleToAnon?: boolean;
  /** Object path → content, served by GET /storage/v1/object/public/<bucket>/<path> when the bucket is public. */
  files?: Record<string, string>;
}

export interface StandInOptions {
  tables?: Record<string, StandInTable | Row[]>;
  buckets?: StandInBucket[];
  /** When set, only this apikey is accepted (any other gets 401 "Invalid API key"). */
  anonKey?: string;
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
  close: () => Promise<void>;
}

function send(res: ServerResponse, method: string, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(method === 'HEAD' ? undefined : text);
}

/** The gateway's key check: apikey required; Authorization, when sent, must carry the same key. */
function keyError(req: IncomingMessage, anonKey: string | undefined): { status: number; body: unknown } | undefined {
  const apikey = req.headers.apikey;
  if (typeof apikey !== 'string' || !apikey) {
    return { status: 401, body: { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' } };
  }
  if (anonKey !== undefined && apikey !== anonKey) return { status: 401, body: { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' } };
  const auth = req.headers.authorization;
  if (auth !== undefined && auth !== `Bearer ${apikey}`) {
    return { status: 401, body: { code: 'PGRST301', details: null, hint: null, message: 'JWSError JWSInvalidSignature' } };
  }
  return undefined;
}

function rest(req: IncomingMessage, res: ServerResponse, url: URL, tables: Record<string, StandInTable>): void {
  const method = req.method ?? 'GET';
  const name = decodeURIComponent(url.pathname.slice('/rest/v1/'.length));
  const table = tables[name];
  if (!table) {
    send(res, method, 404, { code: 'PGRST205', details: null, hint: null, message: `Could not find the table 'public.${name}' in the schema cache` });
    return;
  }
  const visible = table.rls ? [] : table.rows;
  const limitParam = url.searchParams.get('limit');
  const limit = limitParam !== null && /^\d+$/.test(limitParam) ? Number(limitParam) : visible.length;
  const page = visible.slice(0, limit);
  const exact = /count=exact/.test(String(req.headers.prefer ?? ''));
  const total = exact ? String(visible.length) : '*';
  const range = page.length > 0 ? `0-${page.length - 1}/${total}` : `*/${total}`;
  send(res, method, 200, page, { 'content-range': range });
}

function storage(req: IncomingMessage, res: ServerResponse, url: URL, buckets: StandInBucket[]): void {
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
  for (const [name, value] of Object.entries(options.tables ?? {})) tables[name] = Array.isArray(value) ? { rows: value } : value;
  const buckets = options.buckets ?? [];
  const requests: RecordedRequest[] = [];

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    requests.push({ method, url: req.url ?? '/', headers: { ...req.headers } });
    // Drain any body so keep-alive connections stay usable; the stand-in never reads it.
    req.resume();
    if (method !== 'GET' && method !== 'HEAD') {
      send(res, method, 405, { message: `The stand-in is read-only; ${method} is never expected from a scan.` });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const bad = keyError(req, options.anonKey);
    if (bad) {
      send(res, method, bad.status, bad.body);
      return;
    }
    if (url.pathname.startsWith('/rest/v1/') && url.pathname.length > '/rest/v1/'.length) rest(req, res, url, tables);
    else if (url.pathname.startsWith('/storage/v1/')) storage(req, res, url, buckets);
    else send(res, method, 404, { message: 'no Route matched with those values' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
