import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit, type SiteInit } from '../testing/site';
import { exposedSourceMap, parseSourceMap } from './exposed-source-map';

const ORIGIN = 'https://app.example';
const SPA = '<!doctype html><html><head><script type="module" src="/assets/index-1a2b.js"></script></head><body></body></html>';
const MAP = JSON.stringify({ version: 3, sources: ['../src/App.tsx', '../node_modules/react/index.js'], sourcesContent: ['export const key = 1;', null], mappings: 'AAAA' });
const base = (extra: Partial<SiteInit> = {}) => makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-1-404.txt`, body: SPA }, ...extra });
const script = (body: string): SiteInit['assets'] => [{ url: `${ORIGIN}/assets/index-1a2b.js`, body, referrer: `${ORIGIN}/` }];

describe('exposed-source-map', () => {
  it('reads maps, including truncated ones', () => {
    expect(parseSourceMap(MAP)).toEqual({ sources: ['../src/App.tsx', '../node_modules/react/index.js'], embedded: 1 });
    expect(parseSourceMap(MAP.slice(0, 80))?.sources).toContain('../src/App.tsx');
    expect(parseSourceMap('{"name":"app","version":"3.0.0"}')).toBeUndefined();
  });

  it('probes <script>.map only for same-origin scripts without a reference', () => {
    expect(plannedProbes(exposedSourceMap, base({ assets: script('console.log(1)') })).map((p) => p.url)).toEqual([`${ORIGIN}/assets/index-1a2b.js.map`]);
    expect(plannedProbes(exposedSourceMap, base({ assets: script('console.log(1)\n//# sourceMappingURL=index-1a2b.js.map') }))).toEqual([]);
    expect(plannedProbes(exposedSourceMap, base({ assets: [{ url: 'https://cdn.example/lib.js', body: 'x' }] }))).toEqual([]);
  });

  const probe = (body: string, extra: Partial<ExchangeInit> = {}) => ({
    'exposed-source-map:/assets/index-1a2b.js.map': { url: `${ORIGIN}/assets/index-1a2b.js.map`, body, contentType: 'application/json', ...extra },
  });
  it.each([
    ['SPA shell for the guessed map', probe(SPA, { contentType: 'text/html' })],
    ['404', probe(MAP, { status: 404 })],
    ['JSON that is not a map', probe('{"ok":true}')],
  ])('no finding: %s', (_name, probes) => {
    expect(exposedSourceMap.run(base({ assets: script('console.log(1)'), probes }))).toEqual([]);
  });

  it('reports a guessed map with embedded sources as medium', () => {
    const [finding] = exposedSourceMap.run(base({ assets: script('console.log(1)'), probes: probe(MAP) }));
    expect(finding?.severity).toBe('medium');
    expect(finding?.detail).toContain('src/App.tsx');
  });

  it('uses maps retrieval already fetched, low without sourcesContent', () => {
    const assets: SiteInit['assets'] = [
      { url: `${ORIGIN}/assets/index-1a2b.js`, body: 'x\n//# sourceMappingURL=index-1a2b.js.map' },
      {
        url: `${ORIGIN}/assets/index-1a2b.js.map`,
        kind: 'sourcemap',
        referrer: `${ORIGIN}/assets/index-1a2b.js`,
        body: JSON.stringify({ version: 3, sources: ['a.ts'], mappings: 'AA' }),
        contentType: 'application/json',
      },
    ];
    expect(exposedSourceMap.run(base({ assets }))[0]?.severity).toBe('low');
  });
});
