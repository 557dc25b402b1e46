import { Resolver } from 'node:dns/promises';
import { TXT_PREFIX, VERIFICATION_PATH } from '../../common/domains';
import type { AddressPolicy, HostResolver } from '../../engine/retrieval/address-policy';
import { Fetcher } from '../../engine/retrieval/fetcher';

// Proof that a workspace controls a domain: its token served over HTTPS at /.well-known/vibeeval-verification.txt,
// or a DNS TXT record `vibeeval-verification=<token>` on the domain itself. Both are tried; either one proves it.

/** The one DNS question verification asks; `node:dns/promises` Resolver in production, a stand-in in tests. */
export interface TxtResolver {
  resolveTxt(name: string): Promise<string[][]>;
}

/** How long each proof may take: a user waits for the answer of the Verify button. */
const VERIFY_TIMEOUT_MS = 5000;
/** The token file holds one line; anything longer is not it. */
const MAX_TOKEN_FILE_BYTES = 1024;

/** A resolver with a short timeout and two tries, so a dead name server cannot hold the Verify button. */
export function systemTxtResolver(): TxtResolver {
  return new Resolver({ timeout: VERIFY_TIMEOUT_MS / 2, tries: 2 });
}

export interface VerifierOptions {
  /** Every outbound request of the server obeys the scans' address policy (private addresses refused on a shared server). */
  policy: AddressPolicy;
  resolver: TxtResolver;
  /** Tests only: where the domain's site answers (default `https://<domain>`), and the address it is reached at. */
  siteOrigin?: (domain: string) => string;
  resolveHost?: HostResolver;
}

export type VerifyOutcome = { verified: true; method: 'http' | 'dns' } | { verified: false; reason: string };

/** Checks both proofs at once; verified when either holds, else both reasons in one sentence. */
export async function verifyDomain(domain: string, token: string, options: VerifierOptions): Promise<VerifyOutcome> {
  const [http, dns] = await Promise.all([httpProof(domain, token, options), dnsProof(domain, token, options.resolver)]);
  if (http === null) return { verified: true, method: 'http' };
  if (dns === null) return { verified: true, method: 'dns' };
  return { verified: false, reason: `${http}; ${dns}.` };
}

/** null when the token file holds the token, else why not. */
async function httpProof(domain: string, token: string, options: VerifierOptions): Promise<string | null> {
  const url = `${options.siteOrigin?.(domain) ?? `https://${domain}`}${VERIFICATION_PATH}`;
  // Redirects are not followed: the proof must come from the domain itself, not from wherever it sends visitors.
  // An untrusted certificate fails the handshake: a proof read through a man in the middle proves nothing.
  const fetcher = new Fetcher({
    policy: options.policy,
    timeoutMs: VERIFY_TIMEOUT_MS,
    maxBodyBytes: MAX_TOKEN_FILE_BYTES,
    maxRedirects: 0,
    maxRetries: 0,
    concurrency: 1,
    requireTrustedTls: true,
    resolveHost: options.resolveHost,
  });
  try {
    const exchange = await fetcher.fetch({ method: 'GET', url, headers: { accept: 'text/plain', 'accept-encoding': 'identity' }, noRedirect: true });
    if (exchange.error || exchange.status === 0) return `${url} could not be fetched (${exchange.error ?? 'no answer'})`;
    if (exchange.status !== 200) return `${url} answered ${exchange.status}`;
    return exchange.body.trim() === token ? null : `${url} does not hold this domain's token`;
  } finally {
    fetcher.close();
  }
}

/** null when a TXT record of the domain is `vibeeval-verification=<token>`, else why not. */
async function dnsProof(domain: string, token: string, resolver: TxtResolver): Promise<string | null> {
  let records: string[][];
  try {
    records = await resolver.resolveTxt(domain);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENODATA' || code === 'ENOTFOUND') return `${domain} has no TXT record ${TXT_PREFIX}${token}`;
    return `the TXT records of ${domain} could not be read (${code ?? 'DNS error'})`;
  }
  // A long TXT record arrives in chunks of 255 characters: joined, they are the value.
  const expected = `${TXT_PREFIX}${token}`;
  return records.some((chunks) => chunks.join('').trim() === expected) ? null : `${domain} has no TXT record ${expected}`;
}
