import { formatRequest, formatResponse, isLoopback } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft, type Page } from '../types';

const ID = 'password-over-http';
const PASSWORD_INPUT = /<input\b[^<>]*\btype\s*=\s*["']?password\b[^<>]*>/i;

/** The markup of the first password field of a page, from the parsed forms or the raw HTML (fields outside forms). */
export function passwordField(page: Page): string | undefined {
  const inForm = page.html?.forms.some((form) => form.inputs.some((input) => input.type === 'password'));
  const raw = PASSWORD_INPUT.exec(page.exchange.body.slice(0, 500_000))?.[0];
  if (raw) return raw;
  return inForm ? '<input type="password">' : undefined;
}

export const passwordOverHttp = defineCheck({
  id: ID,
  family: 'forms',
  title: 'Password field on a page served over HTTP',
  severity: 'high',
  confidence: 'high',
  cwe: 319,
  owasp: 'A04',
  description: 'Reports pages delivered over plain HTTP that contain a password field: the page itself can be altered in transit and the password read or redirected.',
  remediation: 'Serve the whole site over HTTPS, redirect HTTP to HTTPS and enable HSTS; never serve login pages over HTTP, even if the form posts to HTTPS.',
  references: ['https://cwe.mitre.org/data/definitions/319.html', 'https://developer.mozilla.org/en-US/docs/Web/Security/Insecure_passwords'],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const page of site.pages) {
      if (page.exchange.error || !page.html) continue;
      const url = new URL(page.exchange.finalUrl);
      if (url.protocol !== 'http:' || isLoopback(url.hostname)) continue;
      const field = passwordField(page);
      if (!field) continue;
      findings.push({
        url: page.url,
        detail: `${page.url} is served over plain HTTP and contains a password field; anyone on the network path can read or modify the page and capture the password.`,
        evidence: { request: formatRequest(page.exchange), response: formatResponse(page.exchange, { headers: ['content-type'], excerpt: field }), match: field },
      });
    }
    return findings;
  },
});
