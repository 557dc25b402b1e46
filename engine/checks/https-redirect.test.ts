import { describe, expect, it } from 'vitest';
import { HTTPS_REDIRECT_PROBE_KEY } from '../analysis/redirection';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { httpsRedirect } from './https-redirect';

const root = { url: 'https://app.example.com/', body: '<html></html>' };
const hop = (url: string, location: string, status = 301) => ({ url, status, location, headers: [['location', location]] as const });
const site = (probe?: ExchangeInit) => makeSite({ root, probes: probe ? { [HTTPS_REDIRECT_PROBE_KEY]: probe } : {} });

describe('https-redirect', () => {
  it('plans GET http://<host><path> under the shared key', () => {
    const probes = plannedProbes(httpsRedirect, makeSite({ root: { url: 'https://app.example.com/dash?x=1', body: '' } }));
    expect(probes).toEqual([{ key: HTTPS_REDIRECT_PROBE_KEY, method: 'GET', url: 'http://app.example.com/dash?x=1' }]);
  });

  const valid: Array<[string, ExchangeInit | undefined]> = [
    [
      'redirect straight to https on the same host',
      { url: 'http://app.example.com/', finalUrl: 'https://app.example.com/', redirects: [hop('http://app.example.com/', 'https://app.example.com/')] },
    ],
    ['no answer over HTTP', { url: 'http://app.example.com/', error: 'ECONNREFUSED' }],
    ['probe not run', undefined],
    ['HTTP answers 403 without content', { url: 'http://app.example.com/', status: 403, body: 'forbidden' }],
  ];
  it.each(valid)('passes: %s', (_name, probe) => {
    expect(httpsRedirect.run(site(probe))).toEqual([]);
  });

  it('flags content served over HTTP', () => {
    const [finding, ...rest] = httpsRedirect.run(site({ url: 'http://app.example.com/', body: '<h1>Welcome</h1>' }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ url: 'http://app.example.com/', key: 'no-redirect' });
    expect(finding!.evidence.request).toBe('GET http://app.example.com/');
    expect(finding!.evidence.response).toContain('<h1>Welcome</h1>');
    expect(finding!.severity).toBeUndefined();
  });

  it('flags a first hop to another http URL', () => {
    const probe = {
      url: 'http://example.com/',
      finalUrl: 'https://www.example.com/',
      redirects: [hop('http://example.com/', 'http://www.example.com/'), hop('http://www.example.com/', 'https://www.example.com/')],
    };
    const [finding] = httpsRedirect.run(site(probe));
    expect(finding).toMatchObject({ key: 'first-hop-http', evidence: { match: 'http://www.example.com/' } });
    expect(finding!.evidence.response).toContain('location: http://www.example.com/');
  });

  it('flags a redirect that never reaches https', () => {
    const probe = { url: 'http://example.com/', finalUrl: 'http://example.com/home', redirects: [hop('http://example.com/', '/home')] };
    expect(httpsRedirect.run(site(probe))).toMatchObject([{ key: 'final-not-https' }]);
  });

  it('reports an off-host first hop as low', () => {
    const probe = { url: 'http://example.com/', finalUrl: 'https://www.example.com/', redirects: [hop('http://example.com/', 'https://www.example.com/')] };
    expect(httpsRedirect.run(site(probe))).toMatchObject([{ key: 'off-host', severity: 'low' }]);
  });

  it('reads a probe that did not follow redirects (Location only)', () => {
    const probe = { url: 'http://app.example.com/', status: 301, headers: { location: 'http://app.example.com/login' }, body: '' };
    expect(httpsRedirect.run(site(probe))).toMatchObject([{ key: 'final-not-https' }]);
  });
});

describe('https-redirect on the local machine', () => {
  it('does not apply to loopback hosts (development servers)', () => {
    const site = makeSite({ root: { url: 'http://127.0.0.1:5173/', body: '<p>dev</p>' } });
    expect(httpsRedirect.appliesTo?.(site)).toBe(false);
    expect(httpsRedirect.appliesTo?.(makeSite({ root: { url: 'http://shop.example/', body: '<p>x</p>' } }))).toBe(true);
  });
});
