import { describe, expect, it } from 'vitest';
import { CORS_GET_PREFIX, CORS_PREFLIGHT_PREFIX, PROBE_ORIGIN } from '../analysis/cors';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { corsReflectedOrigin } from './cors-reflected-origin';

const URL = 'https://app.example.com/';
const API = 'https://app.example.com/api/me';
const answer = (url: string, headers: Record<string, string>): ExchangeInit => ({ url, headers, body: '{}', requestHeaders: { Origin: PROBE_ORIGIN } });
const site = (probes: Record<string, ExchangeInit>) =>
  makeSite({
    root: { url: URL, body: '<a href="/api/me">me</a><a href="https://other.example/api/x">x</a>' },
    probes,
  });

describe('cors-reflected-origin', () => {
  it('probes the start URL and same-origin /api/ URLs, plus one preflight', () => {
    const probes = plannedProbes(corsReflectedOrigin, site({}));
    expect(probes.map((probe) => [probe.key, probe.method, probe.headers?.Origin])).toEqual([
      [`${CORS_GET_PREFIX}${URL}`, 'GET', PROBE_ORIGIN],
      [`${CORS_GET_PREFIX}${API}`, 'GET', PROBE_ORIGIN],
      [`${CORS_PREFLIGHT_PREFIX}${URL}`, 'OPTIONS', PROBE_ORIGIN],
    ]);
  });

  it.each([
    ['no CORS headers', {}],
    ['an allow-list that does not include the probe', { 'access-control-allow-origin': 'https://app.example.com', 'access-control-allow-credentials': 'true' }],
    ['wildcard', { 'access-control-allow-origin': '*' }],
  ])('passes: %s', (_name, headers) => {
    expect(corsReflectedOrigin.run(site({ [`${CORS_GET_PREFIX}${URL}`]: answer(URL, headers) }))).toEqual([]);
  });

  it('passes when probes failed or were not run', () => {
    expect(corsReflectedOrigin.run(site({ [`${CORS_GET_PREFIX}${URL}`]: { url: URL, error: 'ETIMEDOUT' } }))).toEqual([]);
    expect(corsReflectedOrigin.run(site({}))).toEqual([]);
  });

  it('flags reflection with credentials as high, without as medium on an API and low elsewhere', () => {
    const findings = corsReflectedOrigin.run(
      site({
        [`${CORS_GET_PREFIX}${API}`]: answer(API, { 'access-control-allow-origin': PROBE_ORIGIN, 'access-control-allow-credentials': 'true' }),
        [`${CORS_GET_PREFIX}${URL}`]: answer(URL, { 'access-control-allow-origin': PROBE_ORIGIN }),
      }),
    );
    expect(findings.map((finding) => [finding.url, finding.severity])).toEqual([
      [URL, 'low'],
      [API, 'high'],
    ]);
    expect(findings[1]!.evidence.request).toBe(`GET ${API}\nOrigin: ${PROBE_ORIGIN}`);
    expect(findings[1]!.evidence.response).toContain('access-control-allow-credentials: true');
  });

  it('flags a reflecting preflight', () => {
    const preflight = { ...answer(URL, { 'access-control-allow-origin': PROBE_ORIGIN, 'access-control-allow-credentials': 'true' }), method: 'OPTIONS' };
    expect(corsReflectedOrigin.run(site({ [`${CORS_PREFLIGHT_PREFIX}${URL}`]: preflight }))).toMatchObject([{ key: 'preflight', severity: 'high' }]);
  });
});
