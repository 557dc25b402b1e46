import { describe, expect, it } from 'vitest';
import { CORS_NULL_PREFIX } from '../analysis/cors';
import { makeSite, plannedProbes } from '../testing/site';
import { corsNullOrigin } from './cors-null-origin';

const URL = 'https://app.example.com/';
const site = (headers?: Record<string, string>) =>
  makeSite({ root: { url: URL, body: '' }, probes: headers ? { [`${CORS_NULL_PREFIX}${URL}`]: { url: URL, headers, body: '', requestHeaders: { Origin: 'null' } } } : {} });

describe('cors-null-origin', () => {
  it('sends Origin: null to the start URL', () => {
    expect(plannedProbes(corsNullOrigin, site())).toEqual([{ key: `${CORS_NULL_PREFIX}${URL}`, method: 'GET', url: URL, headers: { Origin: 'null' } }]);
  });

  it.each([[undefined], [{}], [{ 'access-control-allow-origin': 'null' }], [{ 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' }]])(
    'passes: %o',
    (headers) => {
      expect(corsNullOrigin.run(site(headers))).toEqual([]);
    },
  );

  it('flags null echoed with credentials', () => {
    const findings = corsNullOrigin.run(site({ 'access-control-allow-origin': 'null', 'access-control-allow-credentials': 'true' }));
    expect(findings).toMatchObject([{ url: URL, evidence: { request: `GET ${URL}\nOrigin: null` } }]);
  });
});
