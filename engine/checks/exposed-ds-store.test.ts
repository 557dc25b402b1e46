import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { dsStoreNames, exposedDsStore } from './exposed-ds-store';

const ORIGIN = 'https://app.example';
const SPA = '<!doctype html><html><body></body></html>';

/** A minimal .DS_Store body as a latin1 string: header magic then records (UTF-16BE names). */
function dsStore(names: string[]): string {
  const record = (name: string) => `\x00\x00\x00${String.fromCharCode(name.length)}${[...name].map((c) => `\x00${c}`).join('')}Ilocblob\x00\x00\x00\x10${'\x00'.repeat(16)}`;
  return `\x00\x00\x00\x01Bud1${'\x00'.repeat(20)}${names.map(record).join('')}`;
}
const site = (probe?: ExchangeInit) =>
  makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-1-404.txt`, body: SPA }, probes: probe ? { 'exposed-ds-store:/.DS_Store': probe } : {} });

describe('exposed-ds-store', () => {
  it('asks for the body as binary', () => {
    expect(plannedProbes(exposedDsStore, site())[0]).toMatchObject({ url: `${ORIGIN}/.DS_Store`, binary: true });
  });

  it.each([
    ['no answer', undefined],
    ['SPA shell', { url: `${ORIGIN}/.DS_Store`, body: SPA }],
    ['other binary', { url: `${ORIGIN}/.DS_Store`, body: '\x89PNG\r\n\x1a\n', contentType: 'image/png' }],
  ])('no finding: %s', (_name, probe) => {
    expect(exposedDsStore.run(site(probe))).toEqual([]);
  });

  it('reports the file and lists the names it holds', () => {
    expect(dsStoreNames(dsStore(['backup.sql', 'index.html']))).toEqual(['backup.sql', 'index.html']);
    const [finding] = exposedDsStore.run(site({ url: `${ORIGIN}/.DS_Store`, body: dsStore(['backup.sql', 'index.html']), contentType: 'application/octet-stream' }));
    expect(finding?.detail).toContain('backup.sql');
    expect(finding?.severity).toBe('medium');
    expect(finding?.evidence.response).toContain('[binary] 00 00 00 01 42 75 64 31');
  });
});
