import { dedupeFindings, headerEvidence, htmlPages } from '../analysis/evidence';
import { headerAll } from '../http/headers';
import { defineCheck, type Exchange, type ParsedHtml } from '../types';

const POLICIES = new Set([
  'no-referrer',
  'no-referrer-when-downgrade',
  'same-origin',
  'origin',
  'strict-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
]);
/** Policies that send the full URL (path and query) to other sites. */
const LEAKY = new Set(['unsafe-url', 'no-referrer-when-downgrade']);

/**
 * The policy in force: the last recognised token of the header values and of <meta name="referrer">
 * (the meta comes last, as in the HTTP Observatory), or undefined when neither is set.
 */
export function effectiveReferrerPolicy(exchange: Exchange, html?: ParsedHtml): { policy?: string; raw: string } | undefined {
  const values = headerAll(exchange.headers, 'referrer-policy');
  const meta = html?.metaNames.filter((entry) => entry.name.trim() === 'referrer' && entry.content).at(-1);
  if (meta) values.push(meta.content);
  if (!values.length) return undefined;
  const raw = values.join(', ');
  const tokens = raw.split(',').map((token) => token.trim().toLowerCase());
  return { policy: tokens.filter((token) => POLICIES.has(token)).at(-1), raw };
}

/** Pages should set a Referrer-Policy that does not leak full URLs across sites. */
export const referrerPolicy = defineCheck({
  id: 'referrer-policy',
  family: 'headers',
  title: 'Referrer-Policy missing or leaky',
  severity: 'low',
  confidence: 'high',
  cwe: 200,
  owasp: 'A02',
  description:
    'Checks the Referrer-Policy header (or <meta name="referrer">): missing, invalid, or unsafe-url / no-referrer-when-downgrade, which send full URLs, including tokens in query strings, to every linked or embedded site.',
  remediation: 'Send `Referrer-Policy: strict-origin-when-cross-origin` (or no-referrer / same-origin where possible).',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Referrer-Policy',
    'https://developer.mozilla.org/en-US/docs/Web/Security/Practical_implementation_guides/Referrer_policy',
    'https://owasp.org/www-project-secure-headers/',
  ],
  run(site) {
    const drafts = htmlPages(site).flatMap((page) => {
      const found = effectiveReferrerPolicy(page.exchange, page.html);
      const evidence = headerEvidence(page.exchange, ['referrer-policy'], found?.raw);
      if (!found) {
        return [
          {
            url: page.url,
            detail: 'The page sets no Referrer-Policy; browsers fall back to their default, which older ones make no-referrer-when-downgrade.',
            evidence,
            key: 'missing',
            signature: 'missing',
          },
        ];
      }
      if (!found.policy) {
        return [{ url: page.url, detail: `Referrer-Policy "${found.raw}" has no value browsers recognise.`, evidence, key: 'invalid', signature: `invalid ${found.raw}` }];
      }
      if (LEAKY.has(found.policy)) {
        return [
          {
            url: page.url,
            detail: `Referrer-Policy is ${found.policy}: full URLs, query strings included, go to other sites.`,
            evidence,
            key: 'unsafe',
            signature: `unsafe ${found.raw}`,
          },
        ];
      }
      return [];
    });
    return dedupeFindings(drafts);
  },
});
