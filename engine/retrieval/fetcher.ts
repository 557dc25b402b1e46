import { setMaxListeners } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates, type TLSSocket } from 'node:tls';
import zlib from 'node:zlib';
import type { AddressPolicy } from './address-policy';
import type { Exchange, HeaderList, TlsInfo } from '../types';
import { USER_AGENT } from '../version';
import { addressRefusal, policyLookup, type HostResolver } from './address-policy';
import { describeConnectionError } from './connection-errors';
import { HostPoliteness, type PaceOutcome } from './politeness';
import { HostRateLimiter } from './rate-limit';
import { failedOnStaleConnection } from './stale-connection';

export interface FetchRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Keep bodies that look binary (as latin1 text, so magic bytes can be compared). */
  binary?: boolean;
  noRedirect?: boolean;
  /**
   * Sent at most once: no retry after 429 or Retry-After. For a request that creates something (a sign-up), where the
   * first attempt may have been carried out before the host asked to slow down.
   */
  once?: boolean;
  /**
   * A request of another method that has the same effect sent twice (a password sign-in, a POST that only reads): sent
   * again on a new connection, as a GET is, when the kept-alive one it went out on had just been closed by the host.
   */
  repeatable?: boolean;
}

/** What a request says about how it is sent (its body, and whether it may be sent again). */
type SendOptions = Pick<FetchRequest, 'body' | 'binary' | 'once' | 'repeatable'>;

export interface FetcherOptions {
  policy: AddressPolicy;
  /**
   * Undefined: adaptive pacing only. N > 0: also a hard ceiling of N requests per second per host. 0: no limit, the
   * per-host window as wide as `concurrency` (429 and Retry-After are still honoured).
   */
  rateLimit?: number;
  /** Requests in flight per host at most (the adaptive window's maximum); default 4. */
  hostWindow?: number;
  /**
   * 'adaptive' (default): the per-host window of politeness.ts, retries after 429 and Retry-After.
   * 'flat': the former pacing, `rateLimit` starts per second per host and nothing else; kept for benchmarks.
   */
  pacing?: 'adaptive' | 'flat';
  /** Retries of a request the host answered 429 (or 503 with Retry-After); default 2. */
  maxRetries?: number;
  /** Longest silence on the connection (connect, headers or body) before a request is given up, in ms. */
  timeoutMs: number;
  /**
   * Longest one request may take from sending to the last body byte, in ms; default twice `timeoutMs`. The idle
   * timeout alone lets a host that sends one byte a second hold a request (and a scan slot) for as long as it likes.
   */
  maxExchangeMs?: number;
  /**
   * Largest body kept, in bytes, counted both as received and as decoded (a gzip or brotli bomb inflates a few KB
   * into GBs); past it reading stops, the connection is closed and `truncated` set.
   */
  maxBodyBytes?: number;
  maxRedirects?: number;
  /** Requests in flight at once, across hosts. */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called with every finished exchange (the server records them as events). */
  onExchange?: (exchange: Exchange) => void;
  /** Extra certificate authorities to trust (PEM), e.g. a company's internal CA; the public roots stay trusted. */
  trustedCa?: string[];
  /**
   * Refuses to talk to an https host whose certificate is not trusted: the TLS handshake fails and nothing is sent
   * (webhooks: a signed event goes only to a receiver we can trust). Default false: a scan still reads such sites to
   * report their certificate.
   */
  requireTrustedTls?: boolean;
  /**
   * Connects to these host names at the given address and port instead of what DNS says (tests: a stand-in for a
   * third-party API under its real name). The address policy still judges the address connected to, and TLS still
   * verifies the certificate for the name in the URL.
   */
  resolveHost?: HostResolver;
}

const DEFAULT_CONCURRENCY = 16;
/** Methods a request may be sent twice with (RFC 9110 9.2.2, less PUT and DELETE: a scan sends neither). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Bodies kept by default: far above any page worth scanning, far below what would strain memory. */
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
const TEXT_TYPE =
  /^(text\/|application\/(json|javascript|ecmascript|xml|xhtml\+xml|x-javascript|ld\+json|manifest\+json|x-www-form-urlencoded|yaml|x-yaml|toml|sql|x-sh)|[^;]*\+(json|xml))/i;
const BINARY_TYPE = /^(image|audio|video|font)\//i;

/** Connection failures, worded for users. */
function describeError(error: NodeJS.ErrnoException, url: string): string {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  return describeConnectionError(error, host);
}

function tlsInfo(socket: TLSSocket): TlsInfo | undefined {
  const cert = socket.getPeerCertificate?.();
  if (!cert || !cert.valid_to) return undefined;
  const name = (part: unknown): string =>
    part && typeof part === 'object'
      ? Object.entries(part as Record<string, unknown>)
          .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : String(value)}`)
          .join(', ')
      : '';
  const authError = socket.authorizationError;
  return {
    protocol: socket.getProtocol?.() ?? null,
    authorized: socket.authorized,
    authorizationError: authError ? ((authError as NodeJS.ErrnoException).code ?? String(authError)) : null,
    subject: name(cert.subject),
    issuer: name(cert.issuer),
    subjectAltNames: (cert.subjectaltname ?? '')
      .split(',')
      .map((entry) => entry.trim().replace(/^DNS:/, ''))
      .filter(Boolean),
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: new Date(cert.valid_to).toISOString(),
  };
}

function headerList(response: IncomingMessage): HeaderList {
  const list: Array<[string, string]> = [];
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) list.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
  return list;
}

/** Errors that say the host cannot be reached at all: later requests to it would fail the same way. */
const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRPOLICY']);

function hostIsUnreachable(error: NodeJS.ErrnoException & { connected?: boolean }): boolean {
  if (error.code && UNREACHABLE.has(error.code)) return true;
  // A timeout before the connection was made is a host that does not answer; after it, only a slow page.
  return (error.code === 'ETIMEDOUT' || error.code === 'ERR_TIMEOUT') && error.connected === false;
}

interface Pacer {
  acquire(host: string): Promise<void>;
  release(host: string, outcome: PaceOutcome | 'failed'): number | undefined;
  releaseAll(): void;
}

interface Hop {
  status: number;
  /** Time to the response headers, in ms. */
  firstByteMs: number;
  headers: HeaderList;
  contentType: string;
  body: string;
  bodyBytes: number;
  truncated: boolean;
  tls?: TlsInfo;
}

/**
 * The scanner's HTTP client: address policy enforced at connect time (so DNS rebinding cannot slip past it),
 * a per-host rate limit, timeouts, a decoded-size cap, bounded redirects, and a User-Agent naming the scanner.
 * Never throws for network failures: they come back as an Exchange with `error`.
 */
export class Fetcher {
  /** Answers received, bytes read, retries after 429/Retry-After, and requests sent (answered or not). */
  readonly stats = { requests: 0, bytes: 0, retries: 0, attempts: 0, resetRetries: 0 };
  /** Hosts (host:port) that asked to slow down (429, 503 or Retry-After), with how many answers did: the scan's coverage. */
  readonly slowDowns = new Map<string, number>();
  private readonly limiter: Pacer;
  /** Hosts (host:port) that could not be resolved or connected to, with the error every later request gets. */
  private readonly unreachable = new Map<string, string>();
  private readonly maxRetries: number;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly maxBody: number;
  private readonly maxExchangeMs: number;
  private readonly maxRedirects: number;
  private readonly concurrency: number;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** One internal signal for all requests: the caller's signal gets a single listener however many requests run. */
  private readonly aborter = new AbortController();
  private readonly onAbort = () => {
    this.aborter.abort();
    this.limiter.releaseAll();
  };

  constructor(private readonly options: FetcherOptions) {
    this.limiter =
      options.pacing === 'flat'
        ? new HostRateLimiter(options.rateLimit ?? 0)
        : new HostPoliteness({ window: options.rateLimit === 0 ? (options.concurrency ?? DEFAULT_CONCURRENCY) : options.hostWindow, ceiling: options.rateLimit });
    this.maxRetries = options.maxRetries ?? 2;
    this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxExchangeMs = options.maxExchangeMs ?? options.timeoutMs * 2;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    setMaxListeners(this.concurrency * 2 + 10, this.aborter.signal);
    if (options.signal?.aborted) this.aborter.abort();
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
    const lookup = policyLookup(options.policy, options.resolveHost);
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 8, lookup });
    // Certificates are verified by hand (tlsInfo) so sites with bad ones can still be scanned and reported, unless
    // the caller requires a trusted one.
    this.httpsAgent = new https.Agent({
      keepAlive: true,
      maxSockets: 8,
      lookup,
      rejectUnauthorized: options.requireTrustedTls ?? false,
      ca: options.trustedCa?.length ? [...rootCertificates, ...options.trustedCa] : undefined,
    });
  }

  /** Frees the keep-alive sockets. */
  close(): void {
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private async slot(): Promise<() => void> {
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    return () => {
      this.active--;
      this.waiting.shift()?.();
    };
  }

  /** Fetches a URL, following up to maxRedirects redirects unless told not to. */
  async fetch(request: FetchRequest): Promise<Exchange> {
    const exchange = await this.fetchFollowing(request);
    if (this.options.onExchange && !this.aborter.signal.aborted) {
      try {
        this.options.onExchange(exchange);
      } catch {
        // an observer's failure is not the scan's
      }
    }
    return exchange;
  }

  private async fetchFollowing(request: FetchRequest): Promise<Exchange> {
    const method = (request.method ?? 'GET').toUpperCase();
    const requestHeaders: Record<string, string> = {
      'user-agent': USER_AGENT,
      accept: method === 'GET' ? 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' : '*/*',
      'accept-encoding': 'gzip, deflate, br',
      ...Object.fromEntries(Object.entries(request.headers ?? {}).map(([key, value]) => [key.toLowerCase(), value])),
    };
    const started = performance.now();
    const redirects: Array<{ url: string; status: number; location: string; headers: HeaderList }> = [];
    let url = request.url;
    const base: Omit<Exchange, 'finalUrl' | 'status' | 'headers' | 'contentType' | 'body' | 'bodyBytes' | 'truncated' | 'timingMs'> = {
      method,
      url: request.url,
      requestHeaders,
      redirects,
    };
    const failed = (error: string, finalUrl = url): Exchange => ({
      ...base,
      finalUrl,
      status: 0,
      headers: [],
      contentType: '',
      body: '',
      bodyBytes: 0,
      truncated: false,
      timingMs: Math.round(performance.now() - started),
      error,
    });

    for (;;) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return failed(`${url} is not a valid URL`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return failed(`${url}: only http and https are scanned`);
      const literal = parsed.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal)) {
        const refusal = addressRefusal(this.options.policy, literal, literal);
        if (refusal) return failed(refusal);
      }
      if (this.aborter.signal.aborted) return failed('scan aborted');

      const answer = await this.exchangeOnce(method, parsed, requestHeaders, request);
      if (typeof answer === 'string') return failed(answer);
      const hop = answer;

      const location = hop.headers.find(([name]) => name === 'location')?.[1];
      if (!request.noRedirect && hop.status >= 300 && hop.status < 400 && location !== undefined) {
        let next: string;
        try {
          next = new URL(location, url).href;
        } catch {
          next = '';
        }
        redirects.push({ url, status: hop.status, location, headers: hop.headers });
        if (!next) return { ...failed(`${url} redirects to an invalid location: ${location}`), status: hop.status, headers: hop.headers };
        // A URL seen before on this chain would only lead round again: stop at once rather than after the limit.
        if (next === request.url || redirects.some((hop) => hop.url === next)) return failed(`${request.url} redirects in a loop (back to ${next})`, next);
        if (redirects.length > this.maxRedirects) return failed(`${request.url}: more than ${this.maxRedirects} redirects`, next);
        url = next;
        continue;
      }
      return {
        ...base,
        finalUrl: url,
        status: hop.status,
        headers: hop.headers,
        contentType: hop.contentType,
        body: hop.body,
        bodyBytes: hop.bodyBytes,
        truncated: hop.truncated,
        timingMs: Math.round(performance.now() - started),
        tls: hop.tls,
      };
    }
  }

  /**
   * One hop to one host, paced: waits for the host's window, retries when the host asks to slow down (429,
   * Retry-After), and remembers a host that cannot be reached so later requests fail at once with the same error.
   * Returns the hop or the error text.
   */
  private async exchangeOnce(method: string, url: URL, headers: Record<string, string>, request: SendOptions): Promise<Hop | string> {
    const host = url.host;
    for (let attempt = 0; ; attempt++) {
      const known = this.unreachable.get(host);
      if (known) return known;
      await this.limiter.acquire(host);
      const dead = this.unreachable.get(host);
      if (this.aborter.signal.aborted || dead) {
        this.limiter.release(host, 'failed');
        return dead ?? 'scan aborted';
      }
      const release = await this.slot();
      let hop: Hop;
      try {
        hop = await this.onceOnFreshSocketIfReset(method, url, headers, request);
      } catch (error) {
        this.limiter.release(host, 'failed');
        const text = describeError(error as NodeJS.ErrnoException, url.href);
        if (hostIsUnreachable(error as NodeJS.ErrnoException)) this.unreachable.set(host, text);
        return text;
      } finally {
        release();
      }
      const retryAfter = hop.headers.find(([name]) => name === 'retry-after')?.[1];
      if (hop.status === 429 || hop.status === 503 || retryAfter !== undefined) this.slowDowns.set(host, (this.slowDowns.get(host) ?? 0) + 1);
      const retryIn = this.limiter.release(host, { status: hop.status, retryAfter, latencyMs: hop.firstByteMs, attempt });
      if (retryIn === undefined || request.once === true || attempt >= this.maxRetries || this.aborter.signal.aborted) return hop;
      this.stats.retries++;
    }
  }

  /**
   * A kept-alive socket the host closed as it idled out (Node's servers after 5 s) can be handed to a request at
   * the moment the close arrives: the request fails with a reset before the host read it. A request that can be
   * sent twice (GET, HEAD, OPTIONS, or one marked `repeatable`) is then sent once more on a new connection, as browsers
   * do; a reset on a new connection is the host's answer.
   */
  private async onceOnFreshSocketIfReset(method: string, url: URL, headers: Record<string, string>, request: SendOptions): Promise<Hop> {
    const binary = request.binary === true;
    try {
      return await this.once(method, url, headers, request.body, binary);
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { reusedSocket?: boolean };
      const resendable = IDEMPOTENT.has(method) || request.repeatable === true;
      if (!failedOnStaleConnection(failure, failure.reusedSocket) || !resendable || this.aborter.signal.aborted) throw error;
      this.stats.resetRetries++;
      return this.once(method, url, headers, request.body, binary);
    }
  }

  private once(method: string, url: URL, headers: Record<string, string>, body: string | undefined, binary: boolean): Promise<Hop> {
    const secure = url.protocol === 'https:';
    const transport = secure ? https : http;
    // The lookup maps the name to its address; the port comes from the same mapping.
    const mapped = isIP(url.hostname) ? undefined : this.options.resolveHost?.(url.hostname);
    const sentHeaders = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const sent = performance.now();
    let connected = false;
    let deadline: NodeJS.Timeout | undefined;
    this.stats.attempts++;
    const exchange = new Promise<Hop>((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method,
          headers: mapped ? { ...sentHeaders, host: url.host } : sentHeaders,
          // Only when mapped: an undefined port would replace the URL's.
          ...(mapped ? { port: mapped.port } : {}),
          agent: secure ? this.httpsAgent : this.httpAgent,
          signal: this.aborter.signal,
          timeout: this.options.timeoutMs,
          servername: isIP(url.hostname) ? undefined : url.hostname,
        },
        (response) => {
          this.stats.requests++;
          const head = {
            status: response.statusCode ?? 0,
            firstByteMs: performance.now() - sent,
            headers: headerList(response),
            contentType: response.headers['content-type'] ?? '',
            tls: secure ? tlsInfo(response.socket as TLSSocket) : undefined,
          };
          if (method === 'HEAD' || head.status === 204 || head.status === 304) {
            response.resume();
            resolve({ ...head, body: '', bodyBytes: 0, truncated: false });
            return;
          }
          this.readBody(response, head.contentType, binary).then((read) => resolve({ ...head, ...read }), reject);
        },
      );
      // One deadline over the whole exchange, headers and body alike: the idle timeout below never fires for a
      // host that trickles a byte every few seconds. The promise settles with the error; later data is dropped.
      deadline = setTimeout(() => {
        const error = Object.assign(new Error(`the answer took longer than ${seconds(this.maxExchangeMs)} s`), { code: 'ETOOSLOW', connected });
        reject(error);
        req.destroy(error);
      }, this.maxExchangeMs);
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      req.on('error', (error: NodeJS.ErrnoException) => reject(Object.assign(error, { connected, reusedSocket: req.reusedSocket })));
      if (body !== undefined) req.write(body);
      req.end();
    });
    return exchange.finally(() => clearTimeout(deadline));
  }

  /**
   * Reads and decodes a body as it streams in, never past `maxBodyBytes` received or decoded: at the cap the
   * connection and the decoder are destroyed at once, so neither a huge body nor a compression bomb is read further.
   */
  private readBody(response: IncomingMessage, contentType: string, binary: boolean): Promise<{ body: string; bodyBytes: number; truncated: boolean }> {
    const encoding = (response.headers['content-encoding'] ?? '').toLowerCase().trim();
    const decoder =
      encoding === 'gzip' || encoding === 'x-gzip'
        ? zlib.createGunzip()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : encoding === 'deflate'
            ? zlib.createInflate()
            : undefined;
    const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder) : response;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let received = 0;
      let truncated = false;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve({ ...decodeBody(Buffer.concat(chunks), contentType, binary), bodyBytes: size, truncated });
      };
      const stop = () => {
        truncated = true;
        response.destroy();
        decoder?.destroy();
        finish();
      };
      // Compressed bytes count too: a stream of tiny gzip members can decode to almost nothing yet never end.
      if (decoder)
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > this.maxBody && !done) stop();
        });
      stream.on('data', (chunk: Buffer) => {
        if (done) return;
        this.stats.bytes += chunk.length;
        if (size + chunk.length > this.maxBody) {
          chunks.push(chunk.subarray(0, this.maxBody - size));
          size = this.maxBody;
          return stop();
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('end', finish);
      stream.on('error', (error) => {
        if (done) return;
        // A broken compressed stream still leaves what arrived readable.
        if (chunks.length) finish();
        else reject(error instanceof Error ? error : new Error(String(error)));
      });
      response.on('aborted', finish);
    });
  }
}

/** Milliseconds as seconds for messages: 600 -> "0.6", 30000 -> "30". */
function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function decodeBody(buffer: Buffer, contentType: string, binary: boolean): { body: string } {
  if (buffer.length === 0) return { body: '' };
  const looksBinary = buffer.subarray(0, 1024).includes(0);
  if (binary && looksBinary) return { body: buffer.toString('latin1') };
  if (BINARY_TYPE.test(contentType) || (looksBinary && !TEXT_TYPE.test(contentType))) return { body: binary ? buffer.toString('latin1') : '' };
  const charset = /charset=([\w-]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    try {
      return { body: new TextDecoder(charset).decode(buffer) };
    } catch {
      // unknown charset: fall through to UTF-8
    }
  }
  return { body: buffer.toString('utf8') };
}
