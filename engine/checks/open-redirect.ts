import { exchangeEvidence } from '../analysis/probe-answers';
import { header } from '../http/headers';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type SiteBeforeProbes } from '../types';

const ID = 'open-redirect';
const TARGET = 'https://vibeeval-redirect.example/';
const TARGET_HOST = 'vibeeval-redirect.example';
const MAX_PROBES = 10;

export const REDIRECT_PARAMS = [
  'next',
  'redirect',
  'redirect_uri',
  'redirect_url',
  'url',
  'return',
  'returnto',
  'return_to',
  'returnurl',
  'continue',
  'dest',
  'destination',
  'goto',
  'target',
  'r',
  'u',
];
/** Guessed on the start URL when the crawl found no redirect parameter. */
const GUESSES = ['next', 'redirect', 'url', 'returnTo'];

function isRedirectParam(name: string): boolean {
  return REDIRECT_PARAMS.includes(name.toLowerCase());
}

/** Same-origin URLs and redirect-like parameter names from links and GET forms, then guesses on the start URL. */
export function planOpenRedirect(site: SiteBeforeProbes): Array<{ key: string; url: string; param: string }> {
  const plans: Array<{ key: string; url: string; param: string }> = [];
  const seen = new Set<string>();
  const add = (base: URL, param: string) => {
    const shape = `${base.pathname}?${param}`;
    if (seen.has(shape) || plans.length >= MAX_PROBES) return;
    seen.add(shape);
    const url = new URL(base.href);
    url.hash = '';
    url.searchParams.set(param, TARGET);
    plans.push({ key: `${ID}:${plans.length}`, url: url.href, param });
  };
  for (const page of site.pages) {
    for (const link of page.html?.links ?? []) {
      try {
        const url = new URL(link);
        if (url.origin !== site.origin) continue;
        for (const name of url.searchParams.keys()) if (isRedirectParam(name)) add(url, name);
      } catch {
        // ignore unparsable links
      }
    }
    for (const form of page.html?.forms ?? []) {
      if (form.method !== 'get') continue;
      try {
        const action = new URL(form.action);
        if (action.origin !== site.origin) continue;
        for (const input of form.inputs) if (input.name && isRedirectParam(input.name)) add(action, input.name);
      } catch {
        // ignore unparsable actions
      }
    }
  }
  const start = new URL(site.finalUrl);
  for (const guess of GUESSES) add(start, guess);
  return plans;
}

/** The Location the answer sent, from the response itself or the first recorded hop. */
function locationOf(answer: Exchange): string | undefined {
  if (answer.status >= 300 && answer.status < 400) return header(answer.headers, 'location');
  return answer.redirects[0]?.location;
}

/** True when a Location value sends the browser to the test host (absolute, scheme-relative, or with backslashes). */
export function pointsToTarget(location: string, base: string): boolean {
  try {
    return new URL(location.trim().replace(/\\/g, '/'), base).hostname === TARGET_HOST;
  } catch {
    return false;
  }
}

export const openRedirect = defineCheck({
  id: ID,
  family: 'active',
  title: 'Open redirect',
  severity: 'medium',
  confidence: 'high',
  cwe: 601,
  owasp: 'A01',
  description:
    'Active check: sets redirect-like parameters (next, redirect, url, returnTo, …) found in crawled links and forms, plus a few guesses on the start page, to an external test URL and reports redirects to it.',
  remediation:
    'Redirect only to relative paths or to an allow-list of your own hosts; reject values with a scheme or a leading //, and map return targets to identifiers instead of accepting URLs.',
  references: ['https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html', 'https://cwe.mitre.org/data/definitions/601.html'],
  appliesTo: (site) => site.options.active === true,
  probes: (site): ProbeRequest[] => (site.options.active ? planOpenRedirect(site).map(({ key, url }) => ({ key, method: 'GET', url, noRedirect: true })) : []),
  run(site) {
    if (!site.options.active) return [];
    const findings: FindingDraft[] = [];
    for (const plan of planOpenRedirect(site)) {
      const answer = site.probes.get(plan.key);
      if (!answer || answer.error) continue;
      const location = locationOf(answer);
      if (!location || !pointsToTarget(location, plan.url)) continue;
      const path = new URL(plan.url).pathname;
      findings.push({
        url: plan.url,
        key: `${path}?${plan.param}`,
        detail: `${path} redirects to any URL given in the ${plan.param} parameter (it sent the browser to ${TARGET}); phishing links can borrow the site's name to send victims elsewhere or leak OAuth tokens.`,
        evidence: exchangeEvidence(answer, `Location: ${location}`, { headers: ['location', 'content-type'], excerpt: '' }),
      });
    }
    return findings;
  },
});
