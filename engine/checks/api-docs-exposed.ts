import { parseOpenApi } from '../analysis/api-surface';
import { excerptAround, formatRequest, formatResponse, isSoft404, redirectedAway } from '../analysis/probe-answers';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Site } from '../types';
import { openApiDocProbes } from './api-unauthenticated-data';

const ID = 'api-docs-exposed';
/** Documentation pages: Swagger UI and Redoc. The JSON documents themselves share the API check's probes. */
const UI_PATHS = ['/swagger-ui.html', '/swagger-ui/', '/api/docs', '/redoc'] as const;
const UI_MARKER = /SwaggerUIBundle|swagger-ui(?:-bundle|-standalone-preset)?\.(?:js|css)|id=["']swagger-ui["']|<redoc[\s>]|redoc(?:\.standalone)?\.js|Redoc\.init\(/;
const WRITE = new Set(['post', 'put', 'patch', 'delete']);
/** Resources whose writes matter most: accounts, roles, administration. */
const PRIVILEGED = /(?:^|\/)(?:admin\w*|users?|accounts?|members?|customers?|roles?|permissions?|staff|employees?|auth|internal)(?:\/|$)/i;

const uiProbes = (site: Pick<Site, 'origin'>): ProbeRequest[] => UI_PATHS.map((path) => ({ key: `${ID}:${path}`, method: 'GET', url: new URL(path, site.origin).href }));

function usable(site: Site, exchange: Exchange | undefined): Exchange | undefined {
  if (!exchange || exchange.error || exchange.status < 200 || exchange.status > 299 || redirectedAway(exchange)) return undefined;
  return isSoft404(exchange, site.notFound) ? undefined : exchange;
}

/** Non-GET operations on privileged-looking paths: "DELETE /api/users/{id}". */
export function privilegedWrites(doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    if (!item || typeof item !== 'object' || !PRIVILEGED.test(path)) continue;
    for (const method of Object.keys(item)) if (WRITE.has(method.toLowerCase())) out.push(`${method.toUpperCase()} ${path}`);
  }
  return out;
}

function docFinding(exchange: Exchange, doc: Record<string, unknown>): FindingDraft {
  const operations = Object.values(doc.paths as Record<string, Record<string, unknown>>).reduce(
    (n, item) => n + Object.keys(item ?? {}).filter((m) => /^(?:get|post|put|patch|delete|head|options)$/i.test(m)).length,
    0,
  );
  const writes = privilegedWrites(doc);
  const version = typeof doc.openapi === 'string' ? `OpenAPI ${doc.openapi}` : `Swagger ${String(doc.swagger)}`;
  return {
    url: exchange.url,
    title: 'API documentation (OpenAPI/Swagger) served publicly',
    severity: writes.length > 0 ? 'medium' : 'low',
    detail:
      `${exchange.url} serves the site's ${version} description: ${operations} operations on ${Object.keys(doc.paths as object).length} paths, readable by anyone.` +
      (writes.length > 0 ? ` It documents writes on accounts or administration: ${writes.slice(0, 6).join(', ')}.` : ''),
    evidence: {
      request: formatRequest(exchange),
      response: formatResponse(exchange, { headers: ['content-type'] }),
      match: writes.length > 0 ? writes.slice(0, 10).join('\n') : version,
    },
    key: new URL(exchange.url).pathname,
  };
}

function uiFinding(exchange: Exchange): FindingDraft | undefined {
  const marker = UI_MARKER.exec(exchange.body);
  if (!marker) return undefined;
  const redoc = /redoc/i.test(marker[0]);
  return {
    url: exchange.url,
    title: `${redoc ? 'Redoc' : 'Swagger UI'} API documentation page served publicly`,
    severity: 'low',
    detail: `${exchange.url} serves an interactive ${redoc ? 'Redoc' : 'Swagger UI'} page that lists the API's operations to anyone.`,
    evidence: {
      request: formatRequest(exchange),
      response: formatResponse(exchange, { headers: ['content-type'], excerpt: excerptAround(exchange.body, marker.index, 400) }),
      match: marker[0],
    },
    key: new URL(exchange.url).pathname,
  };
}

export const apiDocsExposed = defineCheck({
  id: ID,
  family: 'api',
  title: 'API documentation served publicly',
  severity: 'low',
  confidence: 'high',
  cwe: 200,
  owasp: 'A02',
  description:
    'Looks for an OpenAPI/Swagger JSON document or a Swagger UI / Redoc page at the usual paths. Public documentation maps every operation for an attacker; it is medium when it documents writes on users, accounts or administration.',
  remediation:
    "Serve API documentation only in development or behind authentication: in Express mount swagger-ui-express only when NODE_ENV !== 'production' (or behind your auth middleware); in FastAPI pass docs_url=None, redoc_url=None, openapi_url=None in production; in ASP.NET call app.UseSwagger() only in the Development environment; in Spring set springdoc.api-docs.enabled=false. Whatever stays documented must check authentication on every operation.",
  references: [
    'https://owasp.org/API-Security/editions/2023/en/0xa9-improper-inventory-management/',
    'https://swagger.io/docs/specification/v3_0/about/',
    'https://fastapi.tiangolo.com/how-to/conditional-openapi/',
  ],
  probes(site) {
    return [...openApiDocProbes(site), ...uiProbes(site)];
  },
  run(site) {
    const docs: FindingDraft[] = [];
    const pages: FindingDraft[] = [];
    for (const probe of [...openApiDocProbes(site), ...uiProbes(site)]) {
      const exchange = usable(site, site.probes.get(probe.key));
      if (!exchange) continue;
      const doc = parseOpenApi(exchange);
      if (doc) docs.push(docFinding(exchange, doc));
      else if (/html/i.test(exchange.contentType)) {
        const ui = uiFinding(exchange);
        if (ui) pages.push(ui);
      }
    }
    // The documents, then one page that renders them: the same exposure seen from several paths is not several findings.
    return [...docs.slice(0, 2), ...pages.slice(0, 1)];
  },
});
