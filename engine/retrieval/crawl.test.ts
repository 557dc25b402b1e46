import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../tests/fixtures/sites';
import { crawl, findChunkUrls, findSourceMapUrl, parseSitemap } from './crawl';
import { Fetcher } from './fetcher';
import { makeExchange } from '../testing/site';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const fetcherFor = (fixture: FixtureSite) => new Fetcher({ policy: { allowPrivate: true }, rateLimit: 0, timeoutMs: 5_000, trustedCa: fixture.ca ? [fixture.ca] : undefined });

describe('crawl', () => {
  it('follows links, the sitemap and robots.txt on the same origin, over HTTPS with its certificate', async () => {
    site = await startFixtureSite('secure');
    const fetcher = fetcherFor(site);
    const result = await crawl(fetcher, site.url, { maxPages: 20 });
    fetcher.close();
    const paths = result.pages.map((page) => new URL(page.url).pathname).sort();
    expect(paths).toEqual(['/', '/about.html', '/account/', '/contact.html', '/login.html', '/pricing.html']);
    expect(result.pages.find((page) => page.url.endsWith('/account/'))?.source).toBe('robots');
    expect(result.root.tls?.authorized).toBe(true);
    expect(result.root.tls?.subjectAltNames).toContain('IP Address:127.0.0.1');
    expect(result.sitemap?.status).toBe(200);
    expect(result.notFound?.status).toBe(404);
    expect(result.assets.map((asset) => `${asset.kind} ${new URL(asset.url).pathname}`).sort()).toEqual(['script /static/app.js', 'stylesheet /static/site.css']);
  });

  it('takes the same pages every time when the site has more than the limit, whatever order its answers come in', async () => {
    // The start page links to six sections; each section answers after a delay that changes every time and links to
    // three pages of its own. With room for ten pages, which of the eighteen deeper pages are taken must not depend
    // on which section answered first.
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const html = (links: string[]) => `<!doctype html><title>${path}</title>${links.map((link) => `<a href="${link}">${link}</a>`).join('')}`;
      const sections = ['a', 'b', 'c', 'd', 'e', 'f'];
      const section = /^\/s\/([a-f])$/.exec(path)?.[1];
      const body = path === '/' ? html(sections.map((name) => `/s/${name}`)) : section ? html([1, 2, 3].map((n) => `/s/${section}/${n}`)) : html([]);
      const status = path === '/' || section || /^\/s\/[a-f]\/\d$/.test(path) ? 200 : 404;
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/html' }).end(body), section ? Math.floor(Math.random() * 60) : 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const seen = new Set<string>();
      for (let run = 0; run < 6; run++) {
        const fetcher = new Fetcher({ policy: { allowPrivate: true }, rateLimit: 0, timeoutMs: 5_000 });
        const result = await crawl(fetcher, `${origin}/`, { maxPages: 10 });
        fetcher.close();
        seen.add(result.pages.map((page) => new URL(page.url).pathname).join(' '));
      }
      expect([...seen]).toEqual(['/ /s/a /s/b /s/c /s/d /s/e /s/f /s/a/1 /s/a/2 /s/a/3']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('stops at the page limit', async () => {
    site = await startFixtureSite('generated', { pages: 200 });
    const fetcher = fetcherFor(site);
    let reported = 0;
    const result = await crawl(fetcher, site.url, { maxPages: 25, onPage: (done) => (reported = done) });
    fetcher.close();
    expect(result.pages).toHaveLength(25);
    expect(reported).toBe(25);
    expect(new Set(result.pages.map((page) => page.url)).size).toBe(25);
  });

  it('fetches lazily loaded chunks and the source maps scripts point to', async () => {
    site = await startFixtureSite('vulnerable');
    const fetcher = fetcherFor(site);
    const result = await crawl(fetcher, site.url, { maxPages: 5 });
    fetcher.close();
    const assets = result.assets.map((asset) => `${asset.kind} ${asset.url.replace(site!.origin, '')}`);
    expect(assets).toContain('script /assets/index-Dk2Lw9pQ.js');
    expect(assets).toContain('script /assets/admin-Hx81LqPz.js');
    expect(assets).toContain('script /assets/supabase-BqT4c1Lm.js');
    expect(assets).toContain('sourcemap /assets/index-Dk2Lw9pQ.js.map');
    // The SPA fallback answers the random path with 200: the soft-404 baseline the exposed-file checks compare with.
    expect(result.notFound?.status).toBe(200);
  });
});

describe('crawl helpers', () => {
  it('reads sitemaps and sitemap indexes', () => {
    expect(parseSitemap('<urlset><url><loc> https://a.example/x </loc></url></urlset>')).toEqual({ urls: ['https://a.example/x'], sitemaps: [] });
    expect(parseSitemap('<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>').sitemaps).toEqual(['https://a.example/s1.xml']);
  });

  it('finds Vite and webpack chunk URLs', () => {
    const code = 'const a=()=>import("./admin-X1.js");const m=["assets/vendor-Y2.js"];import{x}from"./dep-Z3.js";';
    expect(findChunkUrls(code, 'https://a.example/assets/index.js').sort()).toEqual([
      'https://a.example/assets/admin-X1.js',
      'https://a.example/assets/dep-Z3.js',
      'https://a.example/assets/vendor-Y2.js',
    ]);
  });

  it('finds source maps by comment or header', () => {
    expect(findSourceMapUrl(makeExchange({ url: 'https://a.example/js/app.js', body: 'x()\n//# sourceMappingURL=app.js.map\n' }))).toBe('https://a.example/js/app.js.map');
    expect(findSourceMapUrl(makeExchange({ url: 'https://a.example/app.js', body: 'x()', headers: { sourcemap: '/maps/app.map' } }))).toBe('https://a.example/maps/app.map');
    expect(findSourceMapUrl(makeExchange({ url: 'https://a.example/app.js', body: 'x()//# sourceMappingURL=data:application/json;base64,e30=' }))).toBeUndefined();
  });
});
