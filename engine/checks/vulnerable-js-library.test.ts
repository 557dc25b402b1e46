import { describe, expect, it } from 'vitest';
import { makeSite, type SiteInit } from '../testing/site';
import { vulnerableJsLibrary } from './vulnerable-js-library';

const page = (html: string, extra: Partial<SiteInit> = {}) => makeSite({ root: { url: 'https://app.example/', body: html }, ...extra });

describe('vulnerable-js-library', () => {
  it.each([
    ['current jQuery from a CDN', page('<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script>')],
    [
      'bundle without known banners',
      page('<script src="/assets/index.js"></script>', { assets: [{ url: 'https://app.example/assets/index.js', body: 'var a=1;function b(){}' }] }),
    ],
    ['current React DOM in a bundle', page('', { assets: [{ url: 'https://app.example/assets/index.js', body: 'x={version:"18.3.1",rendererPackageName:"react-dom"}' }] })],
  ])('no finding: %s', (_name, site) => {
    expect(vulnerableJsLibrary.run(site)).toEqual([]);
  });

  it('reports one finding per library and version per script, with all advisories', () => {
    const site = page('<script src="https://code.jquery.com/jquery-1.12.4.min.js"></script><script src="/assets/index.js"></script>', {
      assets: [
        { url: 'https://code.jquery.com/jquery-1.12.4.min.js', body: '/*! jQuery v1.12.4 | (c) jQuery Foundation | jquery.org/license */' },
        { url: 'https://app.example/assets/index.js', body: '/*! @license DOMPurify 2.0.8 */ var t="4.17.15",e=200,r="x",u="__lodash_hash_undefined__";' },
      ],
    });
    const findings = vulnerableJsLibrary.run(site);
    expect(findings.map((f) => [f.url, f.key, f.severity])).toEqual([
      ['https://code.jquery.com/jquery-1.12.4.min.js', 'jquery@1.12.4', 'medium'],
      ['https://app.example/assets/index.js', 'lodash@4.17.15', 'high'],
      ['https://app.example/assets/index.js', 'DOMPurify@2.0.8', 'high'],
    ]);
    expect(findings[0]?.detail).toContain('CVE-2020-11022');
    expect(findings[0]?.evidence.match).toContain('https://github.com/advisories/GHSA-gxr4-xjj5-5px2');
  });

  it('reports an end-of-life-only library as low with its own title', () => {
    const site = page('', { assets: [{ url: 'https://app.example/yui.js', body: '/*\nYUI 3.18.1 (build f7e7bcb)\n*/' }] });
    const [finding] = vulnerableJsLibrary.run(site);
    expect(finding?.severity).toBe('low');
    expect(finding?.title).toMatch(/End-of-life/);
  });
});
