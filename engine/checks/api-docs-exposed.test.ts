import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { apiDocsExposed, privilegedWrites } from './api-docs-exposed';

const ORIGIN = 'https://api.example.com';
const SHELL = '<!doctype html><html><body><div id="root"></div></body></html>';
const doc = (paths: Record<string, Record<string, unknown>>) => JSON.stringify({ openapi: '3.0.3', info: { title: 'Backend', version: '1' }, paths });
const at = (key: string, path: string, body: string, init: Partial<ExchangeInit> = {}): Record<string, ExchangeInit> => ({
  [key]: { url: `${ORIGIN}${path}`, body, contentType: body.startsWith('{') ? 'application/json' : 'text/html', ...init },
});
const siteWith = (probes: Record<string, ExchangeInit> = {}) =>
  makeSite({ root: { url: `${ORIGIN}/`, body: SHELL }, notFound: { url: `${ORIGIN}/nope-404`, body: SHELL }, probes });
const SWAGGER_UI =
  '<!DOCTYPE html><html><head><link rel="stylesheet" href="./swagger-ui.css"></head><body><div id="swagger-ui"></div><script src="./swagger-ui-bundle.js"></script><script>SwaggerUIBundle({url:"/openapi.json"})</script></body></html>';

describe('api-docs-exposed', () => {
  it('plans GETs of the usual documentation paths', () => {
    const probes = plannedProbes(apiDocsExposed, siteWith());
    expect(probes.every((p) => p.method === 'GET')).toBe(true);
    expect(probes.map((p) => new URL(p.url).pathname)).toEqual(expect.arrayContaining(['/openapi.json', '/swagger.json', '/v3/api-docs', '/swagger-ui.html', '/redoc']));
  });

  const clean: Record<string, Record<string, ExchangeInit>> = {
    'no answers': {},
    '404s': at('api-docs:/openapi.json', '/openapi.json', '{"error":"not found"}', { status: 404 }),
    'JSON that is not OpenAPI': at('api-docs:/swagger.json', '/swagger.json', '{"paths":["/a"],"name":"x"}'),
    'the SPA shell at /docs': at('api-docs:/docs', '/docs', SHELL),
    'a product docs page that mentions swagger in prose': at('api-docs:/docs', '/docs', '<html><h1>Docs</h1><p>We like Swagger.</p></html>'),
    'documentation behind a login': at('api-docs-exposed:/swagger-ui.html', '/swagger-ui.html', SWAGGER_UI, { status: 401 }),
  };
  it.each(Object.entries(clean))('no finding: %s', (_name, probes) => {
    expect(apiDocsExposed.run(siteWith(probes))).toEqual([]);
  });

  it('low for a read-only spec, medium when it documents writes on users or admin', () => {
    const readOnly = apiDocsExposed.run(siteWith(at('api-docs:/openapi.json', '/openapi.json', doc({ '/products': { get: {} } }))));
    expect(readOnly.map((f) => [f.url, f.severity])).toEqual([[`${ORIGIN}/openapi.json`, 'low']]);
    expect(readOnly[0]!.detail).toContain('OpenAPI 3.0.3 description: 1 operations on 1 paths');
    const writes = apiDocsExposed.run(
      siteWith(at('api-docs:/v3/api-docs', '/v3/api-docs', doc({ '/api/admin/users/{id}': { get: {}, delete: {} }, '/api/products': { post: {} } }))),
    );
    expect(writes.map((f) => f.severity)).toEqual(['medium']);
    expect(writes[0]!.evidence.match).toBe('DELETE /api/admin/users/{id}');
    expect(privilegedWrites({ paths: { '/api/orders': { post: {} }, '/api/users': { put: {}, get: {} } } })).toEqual(['PUT /api/users']);
  });

  it('reports a Swagger UI page once alongside the document', () => {
    const findings = apiDocsExposed.run(
      siteWith({
        ...at('api-docs:/swagger.json', '/swagger.json', JSON.stringify({ swagger: '2.0', paths: { '/pets': { get: {} } } })),
        ...at('api-docs-exposed:/swagger-ui.html', '/swagger-ui.html', SWAGGER_UI),
        ...at('api-docs-exposed:/swagger-ui/', '/swagger-ui/', SWAGGER_UI),
      }),
    );
    expect(findings.map((f) => [f.title, f.severity])).toEqual([
      ['API documentation (OpenAPI/Swagger) served publicly', 'low'],
      ['Swagger UI API documentation page served publicly', 'low'],
    ]);
  });
});
