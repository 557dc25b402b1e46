import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { apiUnauthenticatedData } from './api-unauthenticated-data';

const ORIGIN = 'https://crm.example.com';
const BUNDLE = 'const API_BASE="/api";fetch(`${API_BASE}/customers`);fetch("/api/products");fetch("/api/me");fetch("/api/auth/logout")';
const BCRYPT = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
const json = (path: string, body: unknown, init: Partial<ExchangeInit> = {}): Record<string, ExchangeInit> => ({
  [`api-unauthenticated-data:GET:${ORIGIN}${path}`]: { url: `${ORIGIN}${path}`, body: JSON.stringify(body), contentType: 'application/json', ...init },
});
const SHELL = '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>';
const siteWith = (probes: Record<string, ExchangeInit> = {}, bundle = BUNDLE) =>
  makeSite({
    root: { url: `${ORIGIN}/`, body: SHELL },
    assets: [{ url: `${ORIGIN}/assets/index.js`, body: bundle }],
    notFound: { url: `${ORIGIN}/this-does-not-exist`, body: SHELL },
    probes,
  });

describe('api-unauthenticated-data', () => {
  it('plans GETs without credentials for the endpoints the code calls, never a side-effect path', () => {
    const probes = plannedProbes(apiUnauthenticatedData, siteWith());
    expect(probes.every((p) => p.method === 'GET')).toBe(true);
    expect(probes.every((p) => !p.headers?.Authorization && !p.headers?.Cookie)).toBe(true);
    const urls = probes.map((p) => p.url);
    expect(urls).toEqual(expect.arrayContaining([`${ORIGIN}/api/customers`, `${ORIGIN}/api/products`, `${ORIGIN}/api/me`, `${ORIGIN}/openapi.json`]));
    expect(urls.some((u) => u.includes('logout'))).toBe(false);
  });

  const clean: Record<string, Record<string, ExchangeInit>> = {
    'no answers': {},
    '401 with a JSON error': json('/api/customers', { error: 'unauthorized' }, { status: 401 }),
    '403': json('/api/customers', [{ id: 1, email: 'a@example.com' }], { status: 403 }),
    'a public product catalogue': json('/api/products', [
      { id: 1, name: 'Mug', price: 9 },
      { id: 2, name: 'Tee', price: 19 },
    ]),
    'the SPA shell for an unknown API path': { [`api-unauthenticated-data:GET:${ORIGIN}/api/customers`]: { url: `${ORIGIN}/api/customers`, body: SHELL } },
    'a redirect to the login page': json(
      '/api/customers',
      [
        { id: 1, email: 'a@example.com' },
        { id: 2, email: 'b@example.com' },
      ],
      {
        finalUrl: `${ORIGIN}/login`,
        redirects: [{ url: `${ORIGIN}/api/customers`, status: 302, location: '/login', headers: [] }],
      },
    ),
    'an empty session': json('/api/me', { user: null }),
  };
  it.each(Object.entries(clean))('no finding: %s', (_name, probes) => {
    expect(apiUnauthenticatedData.run(siteWith(probes))).toEqual([]);
  });

  it('reports what came back, with severity from it and a masked excerpt', () => {
    const findings = apiUnauthenticatedData.run(
      siteWith({
        ...json('/api/customers', {
          data: [
            { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 555 0100' },
            { id: 2, name: 'Bob', email: 'bob@example.com' },
          ],
        }),
        ...json('/api/me', { id: 7, email: 'ada@example.com', password_hash: BCRYPT }),
      }),
    );
    findings.sort((a, b) => a.url.localeCompare(b.url));
    expect(findings.map((f) => [f.url, f.severity])).toEqual([
      [`${ORIGIN}/api/customers`, 'high'],
      [`${ORIGIN}/api/me`, 'critical'],
    ]);
    expect(findings[0]!.detail).toContain('records of 2 people with email, phone');
    expect(findings[0]!.detail).toContain('High: the answer holds records of 2 people with an email address and a phone number.');
    expect(findings[1]!.detail).toContain('credentials in fields password_hash');
    expect(findings[0]!.evidence.request).toBe(`GET ${ORIGIN}/api/customers\nAccept: application/json\n(no cookies, no Authorization header)`);
    expect(findings[0]!.evidence.response).toContain('a***@example.com');
    const all = JSON.stringify(findings);
    for (const leaked of ['ada@example.com', 'bob@example.com', 'Lovelace', '0100', 'N9qo8uLO']) expect(all).not.toContain(leaked);
  });

  it('probes the GET operations of a served OpenAPI document in the second round', () => {
    const doc = { openapi: '3.0.3', paths: { '/api/v1/users': { get: {} }, '/api/v1/users/{id}': { get: { parameters: [{ in: 'path', name: 'id', example: 1 }] }, delete: {} } } };
    const first = siteWith({ 'api-docs:/openapi.json': { url: `${ORIGIN}/openapi.json`, body: JSON.stringify(doc), contentType: 'application/json' } }, '');
    const second = apiUnauthenticatedData.followUpProbes!(first);
    expect(second.map((p) => [p.method, p.url])).toEqual([
      ['GET', `${ORIGIN}/api/v1/users/1`],
      ['GET', `${ORIGIN}/api/v1/users`],
    ]);
    const answered = siteWith(
      {
        'api-docs:/openapi.json': { url: `${ORIGIN}/openapi.json`, body: JSON.stringify(doc), contentType: 'application/json' },
        ...json('/api/v1/users', [
          { id: 1, email: 'a@example.com' },
          { id: 2, email: 'b@example.com' },
        ]),
      },
      '',
    );
    expect(apiUnauthenticatedData.followUpProbes!(answered).map((p) => p.url)).toEqual([`${ORIGIN}/api/v1/users/1`]);
    const [finding] = apiUnauthenticatedData.run(answered);
    expect(finding).toMatchObject({ url: `${ORIGIN}/api/v1/users`, severity: 'high' });
    expect(finding!.detail).toContain('the API documentation');
  });
});
