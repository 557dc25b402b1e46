import { cspPolicies, isBroadSource } from '../analysis/csp';
import { dedupeFindings, headerEvidence, htmlPages } from '../analysis/evidence';
import { header } from '../http/headers';
import { defineCheck, type Exchange, type ParsedHtml } from '../types';

const SHOWN = ['x-frame-options', 'content-security-policy'];

/** Why a page can be framed by another site, or undefined when it cannot. */
export function framingGap(exchange: Exchange, html?: ParsedHtml): { reason: string; match?: string } | undefined {
  // frame-ancestors only works from a header policy (browsers ignore it in <meta>) and overrides X-Frame-Options.
  const ancestors = cspPolicies(exchange, html)
    .filter((policy) => policy.delivery === 'header')
    .map((policy) => policy.directives.get('frame-ancestors'))
    .filter((sources): sources is string[] => !!sources);
  if (ancestors.length) {
    const open = ancestors.every((sources) => sources.some(isBroadSource));
    if (!open) return undefined;
    return { reason: 'CSP frame-ancestors allows any site to frame the page.', match: `frame-ancestors ${ancestors[0]!.join(' ')}` };
  }
  const xfo = header(exchange.headers, 'x-frame-options');
  const value = xfo?.trim().toLowerCase();
  if (value === 'deny' || value === 'sameorigin') return undefined;
  if (xfo === undefined) return { reason: 'The page sends neither X-Frame-Options nor CSP frame-ancestors, so any site can frame it.' };
  if (value?.startsWith('allow-from')) return { reason: 'X-Frame-Options ALLOW-FROM is ignored by current browsers, so any site can frame the page.', match: xfo };
  return { reason: `X-Frame-Options has an invalid value ("${xfo}") that browsers ignore, so any site can frame the page.`, match: xfo };
}

/** Pages must refuse to be framed by other sites. */
export const clickjacking = defineCheck({
  id: 'clickjacking',
  family: 'headers',
  title: 'Page can be framed (clickjacking)',
  severity: 'medium',
  confidence: 'high',
  cwe: 1021,
  owasp: 'A02',
  description:
    'Checks that HTML pages forbid framing by other sites with X-Frame-Options DENY/SAMEORIGIN or CSP frame-ancestors; otherwise an attacker can overlay the page invisibly and trick users into clicking.',
  remediation: "Send `Content-Security-Policy: frame-ancestors 'none'` (or 'self'), plus `X-Frame-Options: DENY` for old browsers.",
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/Security/Practical_implementation_guides/Clickjacking',
    'https://cheatsheetseries.owasp.org/cheatsheets/Clickjacking_Defense_Cheat_Sheet.html',
    'https://www.zaproxy.org/docs/alerts/10020/',
  ],
  run(site) {
    const drafts = htmlPages(site).flatMap((page) => {
      const gap = framingGap(page.exchange, page.html);
      if (!gap) return [];
      return [{ url: page.url, detail: gap.reason, evidence: headerEvidence(page.exchange, SHOWN, gap.match), signature: `${gap.reason} ${gap.match ?? ''}` }];
    });
    return dedupeFindings(drafts);
  },
});
