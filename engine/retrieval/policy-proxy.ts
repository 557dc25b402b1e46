import { randomBytes, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { isIP, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AddressPolicy } from './address-policy';
import { addressRefusal, policyLookup } from './address-policy';
import { failedOnStaleConnection } from './stale-connection';

/** A connection the address policy refused. */
export interface ProxyRefusal {
  /** host:port the browser asked for. */
  target: string;
  reason: string;
}

/** A running policy proxy: where it listens, the credentials it wants, what it refused. */
export interface PolicyProxy {
  /** http://127.0.0.1:<port> */
  server: string;
  username: string;
  password: string;
  /**
   * Header set on the proxy's own refusals of plain-http requests, with a value only this launch knows: a page
   * cannot pass its own 403 off as a refusal, and a refused navigation can be told from a site's error page.
   */
  refusalHeader: { name: string; value: string };
  /** Refusals so far, oldest first, at most MAX_REFUSALS kept. */
  refusals: ProxyRefusal[];
  close(): Promise<void>;
}

const MAX_REFUSALS = 200;
/** A target that neither answers nor refuses must not hold a browser request for the whole page timeout. */
const CONNECT_TIMEOUT_MS = 10_000;
const REFUSAL_HEADER = 'x-vibeeval-address-policy';
/**
 * Bytes one proxied connection may carry from a site to the browser. A rendered page is bounded in time by its
 * navigation timeout, but a site that streams a huge body would fill the browser's memory within it; no page
 * worth scanning needs more than this per connection.
 */
const MAX_PROXIED_BYTES = 64 * 1024 * 1024;

export interface PolicyProxyLimits {
  /** Bytes one connection may carry from the site; past it both ends are closed. Default 64 MB. */
  maxBytes?: number;
}
/** Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never forwarded to the site. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

class PolicyRefusal extends Error {
  readonly code = 'EADDRPOLICY';
}

/** host and port of `host:port`, `[v6]:port` or an absolute URL; null when either is missing. */
function parseTarget(raw: string, defaultPort?: number): { host: string; port: number } | null {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `tcp://${raw}`);
    const port = url.port ? Number(url.port) : defaultPort;
    if (!url.hostname || !port) return null;
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return null;
  }
}

/**
 * Opens a TCP connection to host:port after the address policy accepted every address it resolves to (the same
 * connect-time lookup the scanner's HTTP client uses, so DNS rebinding cannot slip past it); IP literals, which
 * sockets never look up, are judged directly.
 */
function connectChecked(policy: AddressPolicy, host: string, port: number): Promise<Socket> {
  if (isIP(host)) {
    const refusal = addressRefusal(policy, host, host);
    if (refusal) return Promise.reject(new PolicyRefusal(refusal));
  }
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, lookup: policyLookup(policy) });
    const fail = (error: Error) => {
      socket.destroy();
      reject((error as NodeJS.ErrnoException).code === 'EADDRPOLICY' ? new PolicyRefusal(error.message) : error);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => fail(Object.assign(new Error(`${host}:${port} did not answer in time`), { code: 'ETIMEDOUT' })));
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

/** Joins two sockets both ways; either end closing or failing closes the other, as does `b` sending over `maxBytes`. */
function splice(a: Duplex, b: Duplex, maxBytes: number): void {
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
  let carried = 0;
  b.on('data', (chunk: Buffer) => {
    carried += chunk.length;
    if (carried > maxBytes) end();
  });
  a.pipe(b);
  b.pipe(a);
}

const AUTH_CHALLENGE = 'Basic realm="vibeeval scanner"';

/** Answers written straight to a socket: CONNECT and upgrade requests have no ServerResponse. */
function rawAnswer(socket: Duplex, status: string, headers: string[] = []): void {
  socket.end([`HTTP/1.1 ${status}`, ...headers, 'Content-Length: 0', 'Connection: close', '', ''].join('\r\n'));
}

/** The proxy's request handlers, with the credentials, refusal log and open sockets they share. */
class ProxyHandlers {
  readonly username = `vibeeval-${randomBytes(6).toString('hex')}`;
  readonly password = randomBytes(24).toString('base64url');
  readonly refusalHeader = { name: REFUSAL_HEADER, value: randomBytes(12).toString('hex') };
  readonly refusals: ProxyRefusal[] = [];
  readonly sockets = new Set<Socket>();
  readonly agent: http.Agent;
  private readonly expected: Buffer;

  constructor(
    private readonly policy: AddressPolicy,
    private readonly maxBytes: number,
  ) {
    this.expected = Buffer.from(`Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`);
    this.agent = new http.Agent({ keepAlive: true, lookup: policyLookup(policy) });
  }

  /** Remembers a socket so closing the proxy ends it. */
  track(socket: Socket): Socket {
    if (this.sockets.has(socket)) return socket; // a keep-alive socket serving its next request
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    return socket;
  }

  private refuse(target: string, reason: string): void {
    if (this.refusals.length < MAX_REFUSALS) this.refusals.push({ target, reason });
  }

  private authorized(req: IncomingMessage): boolean {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '');
    return given.length === this.expected.length && timingSafeEqual(given, this.expected);
  }

  /** CONNECT (https, wss, ws), or an upgrade re-sent upstream as `firstBytes`: a checked connection spliced to the client. */
  async tunnel(req: IncomingMessage, client: Duplex, head: Buffer, firstBytes?: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    if (!this.authorized(req)) return rawAnswer(client, '407 Proxy Authentication Required', [`Proxy-Authenticate: ${AUTH_CHALLENGE}`]);
    const target = req.method === 'CONNECT' ? parseTarget(req.url ?? '') : parseTarget(req.url ?? '', 80);
    if (!target) return rawAnswer(client, '400 Bad Request');
    let upstream: Socket;
    try {
      upstream = this.track(await connectChecked(this.policy, target.host, target.port));
    } catch (error) {
      const refused = error instanceof PolicyRefusal;
      if (refused) this.refuse(`${target.host}:${target.port}`, error.message);
      return rawAnswer(client, refused ? '403 Forbidden' : '502 Bad Gateway');
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    if (req.method === 'CONNECT') client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    else if (firstBytes) upstream.write(firstBytes);
    if (head.length) upstream.write(head);
    splice(client, upstream, this.maxBytes);
  }

  /** An absolute-URI upgrade (ws:// without CONNECT): re-sent upstream as written, minus the proxy's headers. */
  upgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    let path = '/';
    try {
      const url = new URL(req.url ?? '');
      path = `${url.pathname}${url.search}`;
    } catch {
      // not absolute: tunnel() answers 400
    }
    const lines = [`${req.method} ${path} HTTP/1.1`];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      if (!/^proxy-/i.test(req.rawHeaders[i]!)) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    }
    return this.tunnel(req, client, head, Buffer.from(`${lines.join('\r\n')}\r\n\r\n`));
  }

  /** An absolute-URI http:// request, forwarded over a connection the policy accepted. */
  forward(req: IncomingMessage, res: ServerResponse): void {
    if (!this.authorized(req)) {
      res.writeHead(407, { 'proxy-authenticate': AUTH_CHALLENGE, 'content-length': 0 }).end();
      return;
    }
    const target = /^http:\/\//i.test(req.url ?? '') ? parseTarget(req.url!, 80) : null;
    if (!target) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('absolute http:// URLs only');
      return;
    }
    const label = `${target.host}:${target.port}`;
    const refusal = isIP(target.host) ? addressRefusal(this.policy, target.host, target.host) : null;
    if (refusal) return this.refuseRequest(res, label, refusal);
    const forwarding = { req, res, target, label };
    if (!resendable(req)) return this.send(forwarding, null, false);
    readWhole(req).then(
      (body) => this.send(forwarding, body, false),
      () => res.destroy(),
    );
  }

  private refuseRequest(res: ServerResponse, label: string, reason: string): void {
    this.refuse(label, reason);
    res
      .writeHead(403, { 'content-type': 'text/plain; charset=utf-8', [this.refusalHeader.name]: this.refusalHeader.value })
      .end(`Refused by the scanner's address policy: ${reason}\n`);
  }

  /**
   * Sends the request upstream: over a kept-alive connection first; `fresh`, over a new one of its own. `body` is the
   * whole request body when it is small enough to send again (null: streamed from the browser, sent once).
   */
  private send(forwarding: Forwarding, body: Buffer | null, fresh: boolean): void {
    const { req, res, target, label } = forwarding;
    const url = new URL(req.url!);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_HEADERS.has(name)));
    const connection = fresh ? { agent: false as const, lookup: policyLookup(this.policy) } : { agent: this.agent };
    const upstream = http.request({
      host: target.host,
      port: target.port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      ...connection,
      timeout: CONNECT_TIMEOUT_MS,
    });
    upstream.on('socket', (socket) => this.track(socket));
    upstream.on('response', (answer) => this.answer(answer, res));
    upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })));
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return res.destroy();
      if (error.code === 'EADDRPOLICY') return this.refuseRequest(res, label, error.message);
      // A kept-alive connection the site closed as the request went out: sent again once on a new connection, as
      // browsers do (the site never read it).
      if (body && !fresh && failedOnStaleConnection(error, upstream.reusedSocket)) return this.send(forwarding, body, true);
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`The scanner's proxy could not reach ${label}: ${error.message}\n`);
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
    res.once('close', () => upstream.destroy());
  }

  /** The site's answer, carried to the browser up to the byte limit. */
  private answer(answer: IncomingMessage, res: ServerResponse): void {
    const kept = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_HEADERS.has(name)));
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, kept);
    answer.pipe(res);
    answer.on('error', () => res.destroy());
    let carried = 0;
    answer.on('data', (chunk: Buffer) => {
      carried += chunk.length;
      if (carried <= this.maxBytes) return;
      answer.destroy();
      res.destroy();
    });
  }
}

interface Forwarding {
  req: IncomingMessage;
  res: ServerResponse;
  target: { host: string; port: number };
  label: string;
}

/** Request bodies up to this size are read whole before sending, so the request can be sent again. */
const RESENDABLE_BODY_BYTES = 1024 * 1024;

/** Whether the request's body (none, or a declared length within the bound) can be kept to send again. */
function resendable(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isSafeInteger(length) && length >= 0 && length <= RESENDABLE_BODY_BYTES;
}

function readWhole(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Starts a forward proxy on 127.0.0.1 (a random port) that lets the headless browser reach only what the address
 * policy allows: HTTP CONNECT tunnels (https, wss, ws) and absolute-URI requests (http) are resolved and checked
 * here, at connect time, whatever part of the browser opened them. Per-launch credentials keep other local
 * processes from using it.
 *
 * Written on node:http's 'connect' and 'request' events rather than a proxy library: the policy check must sit in
 * the proxy's own connect step, where libraries such as proxy-chain or http-proxy resolve and connect internally,
 * and the whole proxy is this one file.
 */
export async function startPolicyProxy(policy: AddressPolicy, limits: PolicyProxyLimits = {}): Promise<PolicyProxy> {
  const handlers = new ProxyHandlers(policy, limits.maxBytes ?? MAX_PROXIED_BYTES);
  const server = http.createServer((req, res) => handlers.forward(req, res));
  server.on('connection', (socket: Socket) => handlers.track(socket));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => void handlers.tunnel(req, client, head));
  server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => void handlers.upgrade(req, client, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    username: handlers.username,
    password: handlers.password,
    refusalHeader: handlers.refusalHeader,
    refusals: handlers.refusals,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of handlers.sockets) socket.destroy();
        handlers.agent.destroy();
      }),
  };
}
