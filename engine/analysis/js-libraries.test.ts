import { describe, expect, it } from 'vitest';
import { advisoriesFor, compareVersions, detectFromContent, detectFromUrl, isAffected, requiredLiteral } from './js-libraries';
import { cpuTimed } from '../testing/cpu-time';

describe('version comparison with Retire.js versions', () => {
  it.each([
    ['1.8.3', '1.9.0b1', -1],
    ['1.9.0', '1.9.0b1', 1],
    ['3.0.0-rc.1', '3.0.0', -1],
    ['2.2.4', '2.999.999', -1],
    ['1.5.1.1', '1.5.1.2', -1],
    ['1.5.1.2', '1.5.1', 1],
    ['1.0RC2', '1.0.0', -1],
    ['1.10', '1.9.8', 1],
    ['4.0.0-beta', '4.0.0-beta.2', -1],
  ])('%s vs %s', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });

  it('applies [atOrAbove, below) ranges', () => {
    expect(isAffected('3.4.1', { atOrAbove: '1.2.0', below: '3.5.0' })).toBe(true);
    expect(isAffected('3.5.0', { atOrAbove: '1.2.0', below: '3.5.0' })).toBe(false);
    expect(isAffected('1.1.9', { atOrAbove: '1.2.0', below: '3.5.0' })).toBe(false);
    expect(isAffected('garbage', { below: '3.5.0' })).toBe(false);
  });
});

describe('requiredLiteral', () => {
  it.each([
    ['/\\*!? jQuery v([0-9]+)', ' jQuery v'],
    ['(?:a|b)Handlebars\\.VERSION', 'Handlebars.VERSION'],
    ['foo|barbaz', undefined],
    ['abc?def', 'def'],
    ['ab{0,3}xyz', 'xyz'],
  ])('%s', (pattern, expected) => {
    expect(requiredLiteral(pattern)).toBe(expected);
  });
});

describe('detection', () => {
  it('reads versions from CDN URLs and file names', () => {
    const hits = (url: string) => detectFromUrl(url).map((hit) => `${hit.library}@${hit.version}`);
    expect(hits('https://code.jquery.com/jquery-1.12.4.min.js')).toEqual(['jquery@1.12.4']);
    expect(hits('https://cdn.jsdelivr.net/npm/bootstrap@3.3.7/dist/js/bootstrap.min.js')).toEqual(['bootstrap@3.3.7']);
    expect(hits('https://cdnjs.cloudflare.com/ajax/libs/angular.js/1.5.8/angular.min.js')).toEqual(['angularjs@1.5.8']);
    expect(hits('https://unpkg.com/lodash@4.17.15/lodash.min.js')).toEqual(['lodash@4.17.15']);
    expect(hits('https://app.example/assets/index-4f3a2b.js')).toEqual([]);
  });

  it('finds several libraries in one bundle by their banners', () => {
    const bundle = [
      'import"x";var a=1;',
      '/*! jQuery v3.4.1 | (c) JS Foundation and other contributors | jquery.org/license */',
      'function n(){}var t="4.17.15",e=200,r="Unsupported core-js use.",u="__lodash_hash_undefined__";',
      '/*! @license DOMPurify 2.0.8 | (c) Cure53 and other contributors */',
      '/*! Select2 4.0.13 | https://github.com/select2/select2/blob/master/LICENSE.md */',
    ].join('\n');
    expect(
      detectFromContent(bundle)
        .map((hit) => `${hit.library}@${hit.version}`)
        .sort(),
    ).toEqual(['DOMPurify@2.0.8', 'jquery@3.4.1', 'lodash@4.17.15', 'select2@4.0.13']);
  });

  it('joins dojo and TinyMCE version parts', () => {
    expect(detectFromContent('dojo.version={major:1,minor:10,patch:4,flag:""}').map((h) => h.version)).toEqual(['1.10.4']);
    expect(detectFromContent('tinymce={majorVersion:"5",minorVersion:"10.2",releaseDate:"x"}').map((h) => h.version)).toEqual(['5.10.2']);
  });

  it('does not take the Underscore version inside the lodash banner for Underscore', () => {
    const lodashMin =
      '/**\n * @license\n * Lodash lodash.com/license | Underscore.js 1.8.3 underscorejs.org/LICENSE\n */\n;(function(){var u,t="4.17.21",r=200,e="x",f="__lodash_hash_undefined__";})';
    expect(detectFromContent(lodashMin).map((hit) => `${hit.library}@${hit.version}`)).toEqual(['lodash@4.17.21']);
  });

  it('lists advisories for a vulnerable version and none for a current one', () => {
    const ids = advisoriesFor('jquery', '3.4.1').flatMap((a) => a.identifiers.CVE ?? []);
    expect(ids).toEqual(expect.arrayContaining(['CVE-2020-11022', 'CVE-2020-11023']));
    expect(advisoriesFor('jquery', '3.7.1')).toEqual([]);
    expect(advisoriesFor('pdf.js', '4.0.379').map((a) => a.identifiers.CVE?.[0])).toContain('CVE-2024-4367');
    expect(advisoriesFor('ua-parser-js', '0.7.29').some((a) => a.severity === 'critical')).toBe(true);
  });

  it('analyses a 2 MB bundle in under 300 ms', () => {
    const filler = 'function a(b,c){return b+c}var d={e:"f",g:[1,2,3]},h=window.location.href;if(d.e==="f"){h+="?x=1"}\n';
    let bundle = '';
    while (bundle.length < 2 * 1024 * 1024) bundle += filler;
    bundle = `${bundle.slice(0, 1_000_000)}/*! jQuery v3.4.1 | (c) JS Foundation */${bundle.slice(1_000_000)}version:"16.4.1",rendererPackageName:"react-dom"`;
    detectFromContent(bundle.slice(0, 1000)); // warm the regexes
    const { result: hits, ms: elapsed } = cpuTimed(() => detectFromContent(bundle));
    expect(hits.map((hit) => `${hit.library}@${hit.version}`).sort()).toEqual(['jquery@3.4.1', 'react-dom@16.4.1']);
    console.info(`2 MB bundle analysed in ${elapsed.toFixed(1)} ms`);
    expect(elapsed).toBeLessThan(300);
  });
});
