import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { subresourceIntegrity } from './subresource-integrity';

const run = (body: string) => subresourceIntegrity.run(makeSite({ root: { url: 'https://app.example.com/', body } }));

describe('subresource-integrity', () => {
  it.each([
    ['same-origin script and stylesheet', '<script src="/assets/app.js"></script><link rel="stylesheet" href="/app.css">'],
    ['third-party script with integrity', '<script src="https://cdn.jsdelivr.net/npm/x@1/x.js" integrity="sha384-abc" crossorigin="anonymous"></script>'],
    ['inline script', '<script>console.log(1)</script>'],
    // The snippet of the Installation tab (renderer continuous-format scriptTag): the product's own, changed in place.
    ['vibeeval monitoring script', '<script src="http://127.0.0.1:3000/latest.js" data-site="vst_AbC123xyz_-9" async></script>'],
  ])('passes: %s', (_name, body) => {
    expect(run(body)).toEqual([]);
  });

  it('flags a third-party script (medium) and stylesheet (low) without integrity', () => {
    const findings = run('<script src="https://cdn.jsdelivr.net/npm/x@1/x.js"></script><link rel="stylesheet" href="https://unpkg.com/y@2/y.css">');
    expect(findings.map((finding) => [finding.key, finding.severity])).toEqual([
      ['https://cdn.jsdelivr.net/npm/x@1/x.js', 'medium'],
      ['https://unpkg.com/y@2/y.css', 'low'],
    ]);
    expect(findings[0]!.evidence.response).toContain('<script src="https://cdn.jsdelivr.net/npm/x@1/x.js">');
  });

  it('does not excuse a look-alike of the monitoring script: another path, or no site token', () => {
    const findings = run('<script src="https://evil.example/latest.js"></script><script src="https://evil.example/x.js" data-site="vst_AbC123xyz_-9"></script>');
    expect(findings.map((finding) => finding.key)).toEqual(['https://evil.example/latest.js', 'https://evil.example/x.js']);
  });

  it('treats a subdomain of the same site as another origin, and evergreen services as low', () => {
    const findings = run('<script src="https://static.example.com/a.js"></script><script src="https://js.stripe.com/v3/"></script>');
    expect(findings.map((finding) => finding.severity)).toEqual(['medium', 'low']);
  });
});
