import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { serverVersionDisclosure } from './server-version-disclosure';

const root = (headers: Record<string, string>, body = '<html><body>x</body></html>') => makeSite({ root: { url: 'https://app.example/', headers, body } });

describe('server-version-disclosure', () => {
  it.each([
    ['product without version', { server: 'nginx' }],
    ['CDN name', { server: 'cloudflare' }],
    ['Via without product version', { via: '1.1 vegur' }],
  ])('no finding: %s', (_name, headers) => {
    expect(serverVersionDisclosure.run(root(headers))).toEqual([]);
  });

  it('reports versioned headers as low and a bare X-Powered-By as info', () => {
    const findings = serverVersionDisclosure.run(
      root({ server: 'Apache/2.4.41 (Ubuntu)', 'x-powered-by': 'Express', 'x-aspnet-version': '4.0.30319', via: '1.1 varnish (Varnish/6.0)' }),
    );
    expect(findings.map((f) => [f.key, f.severity])).toEqual([
      ['server:Apache/2.4.41 (Ubuntu)', 'low'],
      ['x-powered-by:Express', 'info'],
      ['x-aspnet-version:4.0.30319', 'low'],
      ['via:1.1 varnish (Varnish/6.0)', 'low'],
    ]);
    expect(findings[0]?.evidence.match).toBe('server: Apache/2.4.41 (Ubuntu)');
  });

  it('reports a generator meta tag with a version, once', () => {
    const findings = serverVersionDisclosure.run(root({}, '<html><head><meta name="generator" content="WordPress 6.4.2"></head></html>'));
    expect(findings).toHaveLength(1);
    expect(findings[0]?.detail).toContain('WordPress 6.4.2');
  });
});
