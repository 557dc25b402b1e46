import { collectApiEndpoints, OPENAPI_PATHS, type ApiEndpoint } from '../analysis/api-surface';
import { maskedJsonExcerpt, privateDataIn, type PrivateData } from '../analysis/private-data';
import { isSoft404, redirectedAway } from '../analysis/probe-answers';
import { header } from '../http/headers';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Site, type SiteBeforeProbes } from '../types';

const ID = 'api-unauthenticated-data';
const probeKeyOf = (url: string) => `${ID}:GET:${url}`;

/** The OpenAPI documents the site may serve: read first, so their GET operations are probed in a second round. */
export function openApiDocProbes(site: SiteBeforeProbes): ProbeRequest[] {
  return OPENAPI_PATHS.map((path) => ({
    key: `api-docs:${path}`,
    method: 'GET' as const,
    url: new URL(path, site.origin).href,
    headers: { Accept: 'application/json, text/html;q=0.8' },
  }));
}

function probeFor(endpoint: ApiEndpoint): ProbeRequest {
  // No cookie, no Authorization: what anyone on the internet gets.
  return { key: probeKeyOf(endpoint.url), method: 'GET', url: endpoint.url, headers: { Accept: 'application/json' } };
}

/** The JSON body of a 2xx answer that really is the endpoint (not a redirect to login, not the SPA's catch-all). */
export function jsonAnswer(site: Site, exchange: Exchange | undefined): unknown {
  if (!exchange || exchange.error || exchange.status < 200 || exchange.status > 299 || redirectedAway(exchange)) return undefined;
  if (isSoft404(exchange, site.notFound)) return undefined;
  const body = exchange.body.trim();
  if (!/json/i.test(exchange.contentType) && !/^[[{]/.test(body)) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function describe(data: PrivateData): string {
  const parts: string[] = [];
  if (data.credentials.length > 0) parts.push(`credentials in fields ${data.credentials.slice(0, 8).join(', ')}`);
  if (data.secrets.length > 0) parts.push(`secrets (${data.secrets.slice(0, 4).join(', ')})`);
  if (data.people > 0) {
    const who = data.people === 1 ? "one person's record" : `records of ${data.people} people`;
    parts.push(data.namesOnly ? `${who} (ids and names)` : `${who} with ${data.personal.slice(0, 8).join(', ')}`);
  }
  return parts.join('; ');
}

function finding(endpoint: ApiEndpoint, exchange: Exchange, json: unknown, data: PrivateData): FindingDraft {
  const path = new URL(endpoint.url).pathname;
  const summary = describe(data);
  return {
    url: endpoint.url,
    title: `API endpoint ${path} answers private data without authentication`,
    severity: data.severity,
    detail: `GET ${endpoint.url} without any session or key answered HTTP ${exchange.status} with ${summary}. ${data.reason} ${endpoint.source === 'openapi' ? `The endpoint is listed in the API documentation (${endpoint.seenIn})` : `The site's front end uses this endpoint (${endpoint.seenIn})`}.`,
    evidence: {
      request: `GET ${endpoint.url}\nAccept: application/json\n(no cookies, no Authorization header)`,
      response: [
        `HTTP ${exchange.status}`,
        `content-type: ${header(exchange.headers, 'content-type') ?? exchange.contentType}`,
        '',
        maskedJsonExcerpt(json, data.secretValues),
      ].join('\n'),
      match: summary,
    },
    key: path,
  };
}

function endpointsOf(site: SiteBeforeProbes, probes?: ReadonlyMap<string, Exchange>): ApiEndpoint[] {
  const docs = probes ? OPENAPI_PATHS.map((path) => probes.get(`api-docs:${path}`)).filter((e): e is Exchange => !!e) : [];
  return collectApiEndpoints(site, docs);
}

export const apiUnauthenticatedData = defineCheck({
  id: ID,
  family: 'api',
  title: 'API endpoint answers private data without authentication',
  severity: 'high',
  confidence: 'high',
  cwe: 306,
  owasp: 'A01',
  description:
    "Requests, with GET and no credentials, the site's own API endpoints that its code calls or its OpenAPI document lists, and reports those that answer personal data (emails, phones, dates of birth), credentials (password hashes, tokens, keys) or lists of user records. Severity follows what came back; public catalogues are not reported.",
  remediation:
    "Check the session on every API route before reading data: in Express add an auth middleware (e.g. app.use('/api', requireAuth)) and scope queries to req.user; in a Next.js route handler call the auth library (getServerSession, auth(), supabase.auth.getUser()) and return 401 when there is no user; with Supabase rely on row level security instead of a service-role client in the route. Return only the fields the screen needs (never password hashes or tokens), and treat every route the front end calls as public until it checks who is asking.",
  references: [
    'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
    'https://owasp.org/API-Security/editions/2023/en/0xa3-broken-object-property-level-authorization/',
    'https://nextjs.org/docs/app/building-your-application/authentication',
    'https://cwe.mitre.org/data/definitions/306.html',
  ],
  probes(site) {
    return [...openApiDocProbes(site), ...endpointsOf(site).map(probeFor)];
  },
  followUpProbes(site) {
    return endpointsOf(site, site.probes)
      .filter((e) => !site.probes.has(probeKeyOf(e.url)))
      .map(probeFor);
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const endpoint of endpointsOf(site, site.probes)) {
      const exchange = site.probes.get(probeKeyOf(endpoint.url));
      const json = jsonAnswer(site, exchange);
      if (json === undefined || !exchange) continue;
      const data = privateDataIn(json, exchange.body, new URL(endpoint.url).pathname);
      if (data) findings.push(finding(endpoint, exchange, json, data));
    }
    return findings;
  },
});
