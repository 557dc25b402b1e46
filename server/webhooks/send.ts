import type { AddressPolicy, HostResolver } from '../../engine/retrieval/address-policy';
import { urlRefusal } from '../../engine/retrieval/address-policy';
import { Fetcher } from '../../engine/retrieval/fetcher';

// One POST of a webhook to its receiver, through the scanner's HTTP client: the address policy is applied at
// connect time to the very addresses used (no private addresses in server mode, so DNS rebinding cannot reach
// the server's own network), redirects are not followed (a receiver cannot bounce the signed body elsewhere),
// the wait is short and only the first bytes of the answer are read.

/** What one attempt brought back: the receiver's status, or why none came. */
export interface SendOutcome {
  /** null when no answer came (timeout, refused address, connection error: see `error`). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first characters of the answer's body. */
  responseExcerpt: string | null;
}

export interface SendOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  /** Tests only: connect to these host names at another address (the policy still judges that address). */
  resolveHost?: HostResolver;
}

/** Bytes of the answer read at most: receivers answer with a status; their body is only shown as an excerpt. */
export const MAX_ANSWER_BYTES = 4096;
export const EXCERPT_CHARS = 500;

/** The policy's verdict on the URL's host before anything is sent (null = allowed); the connect-time check still applies. */
export function webhookUrlRefusal(policy: AddressPolicy, url: string): Promise<string | null> {
  return urlRefusal(policy, url, new Map());
}

/** Sends one signed body; never throws for network failures. A 2xx answer is a success, anything else is not. */
export async function sendWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendOutcome> {
  // One client per attempt: the fetcher remembers unreachable hosts, and a later attempt must try again.
  const fetcher = new Fetcher({
    policy: options.policy,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: MAX_ANSWER_BYTES,
    maxRedirects: 0,
    maxRetries: 0,
    concurrency: 1,
    // The signed body goes only to a receiver whose certificate is trusted: an untrusted one fails the handshake.
    requireTrustedTls: true,
    resolveHost: options.resolveHost,
  });
  const started = performance.now();
  try {
    const exchange = await fetcher.fetch({ method: 'POST', url, body, headers: { accept: '*/*', 'accept-encoding': 'identity', ...headers }, noRedirect: true });
    const durationMs = Math.round(performance.now() - started);
    if (exchange.error || exchange.status === 0) {
      return { statusCode: null, durationMs, error: exchange.error ?? 'no answer', responseExcerpt: null };
    }
    const excerpt = exchange.body ? exchange.body.slice(0, EXCERPT_CHARS) : null;
    // The scanner accepts bad certificates to report them; a signed event is not for a receiver we cannot trust.
    if (exchange.tls && !exchange.tls.authorized) {
      const host = new URL(url).host;
      return {
        statusCode: exchange.status,
        durationMs,
        error: `${host}'s certificate is not trusted (${exchange.tls.authorizationError ?? 'unknown reason'})`,
        responseExcerpt: excerpt,
      };
    }
    return { statusCode: exchange.status, durationMs, error: null, responseExcerpt: excerpt };
  } finally {
    fetcher.close();
  }
}

/** True when an attempt counts as delivered: a 2xx answer from a receiver we trust. */
export function delivered(outcome: SendOutcome): boolean {
  return outcome.error === null && outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
}
