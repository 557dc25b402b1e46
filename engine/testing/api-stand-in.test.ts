import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scan } from '../scan';
import { startApiStandIn, type ApiStandIn } from './api-stand-in';

const API_CHECKS = ['api-unauthenticated-data', 'api-docs-exposed', 'admin-page-unauthenticated', 'graphql-introspection'];

describe('API stand-in scanned end to end', () => {
  let open: ApiStandIn;
  let closed: ApiStandIn;
  beforeAll(async () => {
    [open, closed] = await Promise.all([startApiStandIn({ openApi: true, docs: true, introspection: true, adminOpen: true }), startApiStandIn()]);
  });
  afterAll(async () => {
    await Promise.all([open.close(), closed.close()]);
  });

  const run = (standIn: ApiStandIn) => scan(standIn.url, { render: false, rateLimit: 0, maxPages: 5 }, { addressPolicy: { allowPrivate: true }, chromiumPath: null });

  it('a full passive scan finds every API weakness and sends no write', async () => {
    const result = await run(open);
    const api = result.findings.filter((f) => API_CHECKS.includes(f.checkId)).map((f) => [f.checkId, new URL(f.url).pathname, f.severity]);
    expect(api).toEqual(
      expect.arrayContaining([
        ['api-unauthenticated-data', '/api/customers', 'high'],
        ['api-unauthenticated-data', '/api/me', 'critical'],
        ['api-unauthenticated-data', '/api/users', 'critical'],
        // Only the OpenAPI document names it: requested in the second round.
        ['api-unauthenticated-data', '/api/v1/accounts', 'high'],
        ['api-docs-exposed', '/openapi.json', 'medium'],
        ['graphql-introspection', '/graphql', 'high'],
        ['admin-page-unauthenticated', '/admin', 'high'],
      ]),
    );
    expect(JSON.stringify(result.findings)).not.toContain('ada@example.test');
    expect(open.writes).toBe(0);
    expect(open.requests.some((r) => /logout|delete/.test(r.url))).toBe(false);
    expect(open.requests.filter((r) => r.method === 'OPTIONS').every((r) => r.url === '/')).toBe(true);
  }, 20_000);

  it('the same app answering 401, redirecting and hiding its schema: no API finding', async () => {
    const result = await run(closed);
    expect(result.findings.filter((f) => API_CHECKS.includes(f.checkId))).toEqual([]);
    expect(closed.writes).toBe(0);
  }, 20_000);
});
