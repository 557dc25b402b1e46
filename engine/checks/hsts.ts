import { headerEvidence, isHttps } from '../analysis/evidence';
import { headerAll } from '../http/headers';
import { defineCheck, type FindingDraft } from '../types';

/**
 * Six months, as the HTTP Observatory counts it: 15552000 s (180 days) rather than 15768000, because many
 * sites use 180 days; using the same threshold keeps this check and the Observatory score in agreement.
 */
export const HSTS_MIN_MAX_AGE = 15_552_000;

const SHOWN = ['strict-transport-security'];

/** Parses the directives of a Strict-Transport-Security value. */
export function parseHsts(value: string): { maxAge?: number; includeSubDomains: boolean; preload: boolean } {
  let maxAge: number | undefined;
  let includeSubDomains = false;
  let preload = false;
  for (const part of value.split(';')) {
    const [name = '', raw = ''] = part.split('=').map((piece) => piece.trim());
    const directive = name.toLowerCase();
    if (directive === 'max-age' && maxAge === undefined) {
      const digits = raw.replace(/^"(.*)"$/, '$1');
      if (/^\d+$/.test(digits)) maxAge = Number(digits);
    } else if (directive === 'includesubdomains') includeSubDomains = true;
    else if (directive === 'preload') preload = true;
  }
  return { maxAge, includeSubDomains, preload };
}

/** The HTTPS start page must send Strict-Transport-Security with a long max-age. */
export const hsts = defineCheck({
  id: 'hsts',
  family: 'transport',
  title: 'Strict-Transport-Security missing or weak',
  severity: 'medium',
  confidence: 'high',
  cwe: 319,
  owasp: 'A04',
  description:
    'Checks that the HTTPS start page sends Strict-Transport-Security with a max-age of at least six months, so browsers never contact the site over plain HTTP where traffic can be read or rewritten.',
  remediation: 'Send `Strict-Transport-Security: max-age=63072000; includeSubDomains` (add `preload` and submit the domain to hstspreload.org once every subdomain serves HTTPS).',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Strict-Transport-Security',
    'https://cheatsheetseries.owasp.org/cheatsheets/HTTP_Strict_Transport_Security_Cheat_Sheet.html',
    'https://www.zaproxy.org/docs/alerts/10035/',
  ],
  appliesTo: (site) => isHttps(site.finalUrl) && !site.root.error,
  run(site) {
    const exchange = site.root;
    const url = site.finalUrl;
    const values = headerAll(exchange.headers, 'strict-transport-security');
    const value = values[0];
    if (value === undefined) {
      return [{ url, detail: `${url} does not send a Strict-Transport-Security header.`, evidence: headerEvidence(exchange, SHOWN), key: 'missing' }];
    }
    const parsed = parseHsts(value);
    const evidence = headerEvidence(exchange, SHOWN, value);
    const findings: FindingDraft[] = [];
    if (parsed.maxAge === undefined) {
      return [{ url, detail: `The Strict-Transport-Security header has no valid max-age, so browsers ignore it: "${value}".`, evidence, key: 'invalid' }];
    }
    if (parsed.maxAge === 0) {
      return [{ url, detail: 'Strict-Transport-Security sets max-age=0, which tells browsers to forget HSTS for this host.', evidence, key: 'missing' }];
    }
    if (parsed.maxAge < HSTS_MIN_MAX_AGE) {
      const days = Math.round(parsed.maxAge / 86_400);
      findings.push({ url, severity: 'low', detail: `Strict-Transport-Security max-age is ${parsed.maxAge} s (about ${days} days), under six months.`, evidence, key: 'short' });
    }
    if (!parsed.includeSubDomains) {
      findings.push({
        url,
        severity: 'info',
        detail: 'Strict-Transport-Security lacks includeSubDomains, so subdomains can still be reached (and cookies for the parent domain sent) over HTTP.',
        evidence,
        key: 'subdomains',
      });
    }
    return findings;
  },
});
