import { formatRequest, formatResponse } from '../analysis/probe-answers';
import { headerAll } from '../http/headers';
import { defineCheck, type FindingDraft, type Site } from '../types';

const ID = 'login-form-no-csrf';
const TOKEN_NAME = /csrf|xsrf|_token|authenticity_token|__requestverificationtoken|nonce|form_key|_wpnonce/i;

/** True when any cookie the site set carries SameSite=Lax or Strict, which already blocks cross-site form posts with it. */
export function hasSameSiteCookie(site: Site): boolean {
  const exchanges = [site.root, ...site.pages.map((page) => page.exchange)];
  for (const exchange of exchanges) {
    for (const cookie of headerAll(exchange.headers, 'set-cookie')) if (/;\s*samesite\s*=\s*(?:lax|strict)\b/i.test(cookie)) return true;
  }
  return site.rendering.cookies.some((cookie) => /^(?:lax|strict)$/i.test(cookie.sameSite));
}

export const loginFormNoCsrf = defineCheck({
  id: ID,
  family: 'forms',
  title: 'Login form without anti-CSRF token',
  severity: 'low',
  confidence: 'low',
  cwe: 352,
  owasp: 'A01',
  description:
    'Reports HTML login forms (POST with a password field, submitting to the site itself) that carry no anti-CSRF token and where no SameSite=Lax/Strict cookie protects the session. Single-page apps that log in with fetch and JSON are out of scope.',
  remediation:
    "Add a per-session anti-CSRF token to the form (most frameworks do this for you) and set session cookies with SameSite=Lax or Strict; login CSRF lets an attacker sign a victim into the attacker's account.",
  references: [
    'https://www.zaproxy.org/docs/alerts/10202/',
    'https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html',
    'https://cwe.mitre.org/data/definitions/352.html',
  ],
  run(site) {
    if (hasSameSiteCookie(site)) return [];
    const findings: FindingDraft[] = [];
    for (const page of site.pages) {
      for (const form of page.html?.forms ?? []) {
        if (form.method !== 'post' || !form.inputs.some((input) => input.type === 'password')) continue;
        let sameOrigin = false;
        try {
          sameOrigin = new URL(form.action).origin === site.origin;
        } catch {
          // unparsable action: not ours to judge
        }
        // Forms posting to another origin (an identity provider) are protected, or not, by that origin's cookies.
        if (!sameOrigin) continue;
        if (form.inputs.some((input) => input.type === 'hidden' && TOKEN_NAME.test(input.name))) continue;
        const names = form.inputs.map((input) => `${input.name || '(unnamed)'}:${input.type}`);
        findings.push({
          url: page.url,
          key: form.action,
          detail: `The login form on ${page.url} (POST ${form.action}) has no hidden anti-CSRF token (fields: ${names.join(', ')}) and the site sets no SameSite=Lax/Strict cookie.`,
          evidence: {
            request: formatRequest(page.exchange),
            response: formatResponse(page.exchange, { headers: ['content-type', 'set-cookie'], excerpt: `<form method="post" action="${form.action}"> ${names.join(' ')}` }),
            match: `fields: ${names.join(', ')}`,
          },
        });
      }
    }
    return findings;
  },
});
