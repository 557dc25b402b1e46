import { formatRequest, formatResponse } from '../analysis/probe-answers';
import { defineCheck, type Exchange, type FindingDraft, type Severity } from '../types';

const ID = 'server-version-disclosure';

/** A product token with a version: Apache/2.4.41, nginx/1.18.0, PHP/8.1.2, Microsoft-IIS/10.0, Varnish/6.0. */
const PRODUCT_VERSION = /(?<![\w.+-])[A-Za-z][\w.+-]*\/v?\d+(?:\.\d+)+/;
const BARE_VERSION = /\bv?\d+\.\d+(?:\.\d+)*\b/;

interface Rule {
  header: string;
  /** Severity of the finding, or undefined when the value discloses nothing. */
  judge: (value: string) => Severity | undefined;
}

const RULES: readonly Rule[] = [
  { header: 'server', judge: (v) => (PRODUCT_VERSION.test(v) || BARE_VERSION.test(v) ? 'low' : undefined) },
  // ZAP 10037 flags any X-Powered-By; without a version it only names the stack, so it is informational here.
  { header: 'x-powered-by', judge: (v) => (BARE_VERSION.test(v) ? 'low' : 'info') },
  { header: 'x-aspnet-version', judge: () => 'low' },
  { header: 'x-aspnetmvc-version', judge: () => 'low' },
  { header: 'x-generator', judge: (v) => (BARE_VERSION.test(v) ? 'low' : 'info') },
  { header: 'x-runtime-version', judge: () => 'low' },
  { header: 'via', judge: (v) => (PRODUCT_VERSION.test(v) ? 'low' : undefined) },
];

export const serverVersionDisclosure = defineCheck({
  id: ID,
  family: 'disclosure',
  title: 'Server software and version disclosed',
  severity: 'low',
  confidence: 'high',
  cwe: 497,
  owasp: 'A02',
  description:
    'Looks for software versions in response headers (Server, X-Powered-By, X-AspNet-Version, X-AspNetMvc-Version, X-Generator, Via) and in <meta name="generator">, which let attackers pick known exploits.',
  remediation:
    'Remove or blank the headers (e.g. server_tokens off in nginx, ServerTokens Prod in Apache, app.disable("x-powered-by") in Express, poweredByHeader: false in Next.js) and drop version numbers from the generator meta tag.',
  references: ['https://www.zaproxy.org/docs/alerts/10036/', 'https://www.zaproxy.org/docs/alerts/10037/', 'https://cwe.mitre.org/data/definitions/497.html'],
  run(site) {
    const findings: FindingDraft[] = [];
    const seen = new Set<string>();
    const exchanges: Exchange[] = [site.root, ...site.pages.map((page) => page.exchange)];
    for (const exchange of exchanges) {
      if (exchange.error) continue;
      for (const [name, value] of exchange.headers) {
        const rule = RULES.find((candidate) => candidate.header === name);
        const severity = rule?.judge(value);
        if (!rule || !severity || seen.has(`${name}:${value}`)) continue;
        seen.add(`${name}:${value}`);
        findings.push({
          url: exchange.finalUrl,
          key: `${name}:${value}`,
          severity,
          detail: `The ${name} header reveals "${value}".${severity === 'info' ? ' It names the technology but no version.' : ' Version numbers let attackers look up known vulnerabilities.'}`,
          evidence: {
            request: formatRequest(exchange),
            response: formatResponse(exchange, { headers: [name, 'content-type'], excerpt: '' }).trimEnd(),
            match: `${name}: ${value}`,
          },
        });
      }
    }
    for (const page of site.pages) {
      for (const meta of page.html?.metaNames ?? []) {
        if (meta.name !== 'generator' || !BARE_VERSION.test(meta.content) || seen.has(`generator:${meta.content}`)) continue;
        seen.add(`generator:${meta.content}`);
        findings.push({
          url: page.url,
          key: `generator:${meta.content}`,
          detail: `<meta name="generator"> reveals "${meta.content}", including its version.`,
          evidence: {
            request: formatRequest(page.exchange),
            response: formatResponse(page.exchange, { headers: ['content-type'], excerpt: `<meta name="generator" content="${meta.content}">` }),
            match: meta.content,
          },
        });
      }
    }
    return findings;
  },
});
