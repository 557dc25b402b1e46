import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { maliciousScriptHost, maliciousHost } from './malicious-script-host';

describe('malicious-script-host', () => {
  it('matches listed hosts and their subdomains only', () => {
    expect(maliciousHost('https://cdn.polyfill.io/v3/polyfill.min.js')?.host).toBe('polyfill.io');
    expect(maliciousHost('https://polyfill.io/v3/polyfill.min.js')?.host).toBe('polyfill.io');
    expect(maliciousHost('https://cdnjs.cloudflare.com/polyfill/v3/polyfill.min.js')).toBeUndefined();
    expect(maliciousHost('https://notpolyfill.io/x.js')).toBeUndefined();
  });

  it('does not report safe scripts', () => {
    expect(
      maliciousScriptHost.run(makeSite({ root: { url: 'https://app.example/', body: '<script src="https://cdnjs.cloudflare.com/polyfill/v3/polyfill.min.js"></script>' } })),
    ).toEqual([]);
  });

  it('reports polyfill.io as critical, once per page and host', () => {
    const site = makeSite({
      root: { url: 'https://app.example/', body: '<script src="https://cdn.polyfill.io/v3/polyfill.min.js?features=default"></script>' },
      assets: [{ url: 'https://cdn.polyfill.io/v3/polyfill.min.js?features=default', referrer: 'https://app.example/', body: '' }],
    });
    const findings = maliciousScriptHost.run(site);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.key).toBe('polyfill.io');
    expect(maliciousScriptHost.severity).toBe('critical');
  });
});
