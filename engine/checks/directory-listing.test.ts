import { describe, expect, it } from 'vitest';
import { makeSite, type ExchangeInit } from '../testing/site';
import { directoryListing, findListing } from './directory-listing';

const ORIGIN = 'https://files.example';
const SPA = '<!doctype html><html><body><div id="root"></div></body></html>';
const APACHE =
  '<html><head><title>Index of /uploads</title></head><body><h1>Index of /uploads</h1><pre><a href="/">Parent Directory</a> <a href="invoice-1.pdf">invoice-1.pdf</a> <a href="db.sql">db.sql</a></pre></body></html>';
const site = (probes: Record<string, ExchangeInit>, pages: ExchangeInit[] = []) =>
  makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-1-404.txt`, body: SPA }, probes, pages });

describe('directory-listing', () => {
  it('recognises the common servers', () => {
    expect(findListing(APACHE)?.entries).toEqual(['invoice-1.pdf', 'db.sql']);
    expect(findListing('<html><body><pre><A HREF="/">[To Parent Directory]</A><br></pre></body></html>')?.server).toBe('IIS');
    expect(findListing('<title>Directory listing for /</title>')?.server).toBe('Python http.server');
  });

  it.each([
    ['SPA shell for the probed directory', { 'directory-listing:/uploads/': { url: `${ORIGIN}/uploads/`, body: SPA } }],
    ['403 listing page', { 'directory-listing:/uploads/': { url: `${ORIGIN}/uploads/`, body: APACHE, status: 403 } }],
  ])('no finding: %s', (_name, probes) => {
    expect(directoryListing.run(site(probes))).toEqual([]);
  });

  it('reports probed directories and crawled pages once each', () => {
    const findings = directoryListing.run(site({ 'directory-listing:/uploads/': { url: `${ORIGIN}/uploads/`, body: APACHE } }, [{ url: `${ORIGIN}/uploads/`, body: APACHE }]));
    expect(findings).toHaveLength(1);
    expect(findings[0]?.detail).toContain('db.sql');
  });
});
