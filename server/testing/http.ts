import http from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  status: number;
  contentType: string;
  /** The answer's headers, read as fetch's are (`headers.get('x-next-cursor')`). */
  headers: Headers;
  text: string;
  /** The body as sent (a screenshot, a zip). */
  bytes: Buffer;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Node's headers of an answer as fetch's Headers (a header sent more than once is joined, as fetch does). */
function headersOf(incoming: http.IncomingHttpHeaders | [string, string][]): Headers {
  const headers = new Headers();
  const entries = Array.isArray(incoming) ? incoming : Object.entries(incoming);
  for (const [name, value] of entries) for (const one of [value ?? []].flat()) headers.append(name, one);
  return headers;
}

export interface RawRequest {
  method: string;
  /** Sent as written: no normalisation or percent-encoding, so malformed paths reach the server. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One request over node:http with the path sent verbatim. Event streams are answered with their status and headers
 * and then closed; a request unanswered within `timeoutMs` fails.
 */
export function rawRequest(origin: string, request: RawRequest, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: request.method, path: request.path, headers: request.headers }, (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      const answer = (bytes: Buffer): RawAnswer => {
        const text = bytes.toString();
        let json: unknown;
        try {
          json = contentType.includes('json') ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        return { status: res.statusCode ?? 0, contentType, headers: headersOf(res.headers), text, bytes, json };
      };
      if (contentType.startsWith('text/event-stream')) {
        resolve(answer(Buffer.alloc(0)));
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(answer(Buffer.concat(chunks))));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${request.method} ${request.path.slice(0, 80)}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

/** Bytes written on a bare socket, for requests node:http refuses to send (broken request lines and headers). */
export function rawSocket(origin: string, bytes: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('no answer on the socket')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const contentType = /^content-type:\s*(.*)$/im.exec(head)?.[1] ?? '';
      const headers = headersOf([...head.matchAll(/^([!#$%&'*+.^`|~\w-]+):\s*(.*)$/gm)].map((match): [string, string] => [match[1]!, match[2]!]));
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status, contentType, headers, text: body, bytes: Buffer.from(body), json });
    });
  });
}

/** What a test adds to a request of the API: a bearer credential (a session token or an API key), a JSON body, headers. */
export interface ApiOptions {
  /** Sent as `authorization: Bearer <token>`; none when absent. */
  token?: string;
  /** Sent as JSON; none when undefined. */
  body?: unknown;
  /** Sent last: they may replace the ones above (another authorization, another content-type). */
  headers?: Record<string, string>;
  /** How long the answer may take; by default longer than a test's own timeout, which then says which test hung. */
  timeoutMs?: number;
}

/**
 * A request of the API as the app makes it: the bearer token, and the body as JSON with its length (node:http frames
 * no body of a DELETE by itself).
 */
export function apiRequest(method: string, path: string, { token, body, headers = {} }: Omit<ApiOptions, 'timeoutMs'> = {}): RawRequest {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return {
    method,
    path,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }),
      ...headers,
    },
    body: text,
  };
}

/** Sends apiRequest(method, path, options) to the server at `origin`. */
export function callApi(origin: string, method: string, path: string, { timeoutMs = 300_000, ...options }: ApiOptions = {}): Promise<RawAnswer> {
  return rawRequest(origin, apiRequest(method, path, options), timeoutMs);
}

/** A request of the API by one user: `call(token, 'POST', '/project', { url })`. */
export type ApiCall = (token: string | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<RawAnswer>;

/**
 * The route tests' `call`, bound to their server: `origin` is read at each request (a test file's server starts in
 * its beforeAll, after the call is made); `headers` go with every request (a workspace's header).
 */
export function apiCaller(origin: () => string, headers: Record<string, string> = {}): ApiCall {
  return (token, method, path, body, more = {}) => callApi(origin(), method, path, { token, body, headers: { ...headers, ...more } });
}

/** A new local account: its access token and id. */
export async function signUp(origin: string, label = 'user'): Promise<{ token: string; id: string; email: string }> {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const answer = await rawRequest(origin, {
    method: 'POST',
    path: '/auth/v1/signup',
    headers: { 'content-type': 'application/json', apikey: 'local' },
    body: JSON.stringify({ email, password: 'secret123' }),
  });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  // Sign-up answers without a session (it says nothing about whether the address had an account): sign in.
  const session = await signIn(origin, email, 'secret123');
  return { token: session.access_token, id: session.user.id, email };
}

/** A password sign-in's session (POST /auth/v1/token?grant_type=password); throws when refused. */
export async function signIn(origin: string, email: string, password: string): Promise<{ access_token: string; refresh_token: string; user: { id: string } }> {
  const answer = await rawRequest(origin, {
    method: 'POST',
    path: '/auth/v1/token?grant_type=password',
    headers: { 'content-type': 'application/json', apikey: 'local' },
    body: JSON.stringify({ email, password }),
  });
  const session = answer.json as { access_token?: string; refresh_token?: string; user?: { id: string } } | undefined;
  if (answer.status !== 200 || !session?.access_token || !session.refresh_token || !session.user) {
    throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
  }
  return { access_token: session.access_token, refresh_token: session.refresh_token, user: session.user };
}
