import { z } from 'zod';

// Domains a workspace proves it controls (GET/POST /domains, POST /domains/{id}/verify, DELETE /domains/{id}). On a
// shared server, active mode scans only verified domains and their subdomains; the desktop app's own server needs none.

/** Where the token is served: `https://<domain>` + this path. */
export const VERIFICATION_PATH = '/.well-known/vibeeval-verification.txt';
/** The DNS TXT record's value is this prefix followed by the token. */
export const TXT_PREFIX = 'vibeeval-verification=';
/** Domains one workspace may list: its clients' sites, few enough that the list stays one screen. */
export const MAX_DOMAINS_PER_WORKSPACE = 50;
const MAX_DOMAIN_CHARS = 253;

export const DOMAIN_TEXTS = {
  required: 'Domain is required',
  invalid: 'Enter a domain name such as example.com, without https:// or a path',
  tooLong: `Domain cannot exceed ${MAX_DOMAIN_CHARS} characters`,
  duplicate: 'This domain is already in the list',
  tooMany: `You can list at most ${MAX_DOMAINS_PER_WORKSPACE} domains; remove one to add another.`,
  notFound: 'Domain not found',
  loadFailed: 'Failed to load domains',
  addFailed: 'Failed to add domain',
  verifyFailed: 'Verification failed',
  removeFailed: 'Failed to remove domain',
  /** POST /v1/scans with options.active on a shared server, for a host that no verified domain covers. */
  activeNeedsVerifiedDomain: (host: string) =>
    `${host} is not a verified domain of this workspace, and on this shared server active mode runs only on verified domains: add it (or a domain above it) under Settings > Members > Domains and verify it, or scan without active mode.`,
} as const;

/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = /^[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?$/;

/** A domain as stored: lower case, no trailing dot; null when the text is not a host name (IP literals included). */
export function normalizeDomain(value: string): string | null {
  const domain = value.trim().toLowerCase().replace(/\.$/, '');
  if (!domain || domain.length > MAX_DOMAIN_CHARS) return null;
  const labels = domain.split('.');
  // At least a name and a top-level label; a numeric top-level label would be an IPv4 address.
  if (labels.length < 2 || /^\d+$/.test(labels[labels.length - 1]!)) return null;
  return labels.every((label) => LABEL.test(label)) ? domain : null;
}

/** True when `host` is `domain` or one of its subdomains (a verified domain covers both). */
export function hostCoveredBy(host: string, domain: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === domain || name.endsWith(`.${domain}`);
}

/** POST /domains. */
export const domainBodySchema = z
  .object({
    domain: z
      .string({ message: DOMAIN_TEXTS.required })
      .trim()
      .min(1, DOMAIN_TEXTS.required)
      .max(MAX_DOMAIN_CHARS, DOMAIN_TEXTS.tooLong)
      .refine((value) => normalizeDomain(value) !== null, DOMAIN_TEXTS.invalid)
      .transform((value) => normalizeDomain(value)!),
  })
  .strict();

export const DOMAIN_STATES = ['pending', 'verified', 'failed'] as const;

/** A domain as the API returns it. */
export const domainSchema = z.object({
  id: z.string(),
  domain: z.string(),
  /** pending: never checked; verified: the last check found the token; failed: the last check did not. */
  state: z.enum(DOMAIN_STATES),
  token: z.string(),
  /** The URL to serve the token at and the TXT record to publish instead. */
  http_url: z.string(),
  txt_record: z.string(),
  verified_at: z.string().nullable(),
  checked_at: z.string().nullable(),
  /** Why the last check failed, in words for the user. */
  last_error: z.string().nullable(),
  created_at: z.string(),
});
export type Domain = z.infer<typeof domainSchema>;

/** The URL that must answer the token. */
export const verificationUrl = (domain: string) => `https://${domain}${VERIFICATION_PATH}`;
