import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from './crawl';
import { Fetcher } from './fetcher';
import { nextChunks, nextManifestRoutes, remixManifestRoutes, staticRoutes, vitePreloadChunks } from './manifests';

type Routes = (origin: string, cdn: string) => Record<string, string | { status: number; location: string }>;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function listen(handler: (path: string) => Answer): Promise<string> {
  const server = createServer((req, res) => {
    const out = handler(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(out.status, out.headers).end(out.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A site and a second server standing for its CDN (Next's assetPrefix), each answering from `routes`. */
async function serve(routes: Routes): Promise<{ origin: string; cdn: string; requested: string[] }> {
  const requested: string[] = [];
  let table: ReturnType<Routes> = {};
  const answer = (path: string): Answer => {
    requested.push(path);
    const hit = table[path];
    if (hit === undefined) return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
    if (typeof hit !== 'string') return { status: hit.status, headers: { location: hit.location }, body: '' };
    const type = hit.startsWith('<') ? 'text/html' : path.endsWith('.json') ? 'application/json' : 'application/javascript';
    return { status: 200, headers: { 'content-type': type }, body: hit };
  };
  const origin = await listen(answer);
  const cdn = await listen((path) => answer(`cdn:${path}`));
  table = routes(origin, cdn);
  return { origin, cdn, requested };
}

async function crawlOf(origin: string) {
  const fetcher = new Fetcher({ policy: { allowPrivate: true }, rateLimit: 0, timeoutMs: 5_000 });
  try {
    return await crawl(fetcher, `${origin}/`, { maxPages: 5 });
  } finally {
    fetcher.close();
  }
}

const html = (head: string, body = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('framework manifests', () => {
  it('fetches the chunk of a Next page behind a login redirect, named only in the build manifest on the CDN', async () => {
    const site = await serve((origin, cdn) => ({
      '/': html(
        `<script src="${cdn}/_next/static/chunks/main-1.js" defer></script>`,
        `<a href="/dashboard">Dashboard</a><script id="__NEXT_DATA__" type="application/json">{"props":{},"page":"/","buildId":"b1Xq","isFallback":false}</script>`,
      ),
      '/dashboard': { status: 307, location: `${origin}/login` },
      '/login': html('<title>Log in</title>'),
      'cdn:/_next/static/chunks/main-1.js': 'window.next={}',
      'cdn:/_next/static/b1Xq/_buildManifest.js':
        'self.__BUILD_MANIFEST=function(s){return{__rewrites:{afterFiles:[]},"/":[s,"static/chunks/pages/index-a1.js"],"/dashboard":[s,"static/chunks/pages/dashboard-d4.js"],sortedPages:["/","/dashboard"]}}("static/chunks/shared-s1.js");self.__BUILD_MANIFEST_CB&&self.__BUILD_MANIFEST_CB();',
      'cdn:/_next/static/b1Xq/_ssgManifest.js': 'self.__SSG_MANIFEST=new Set(["\\u002Fblog\\u002F[slug]"]);self.__SSG_MANIFEST_CB&&self.__SSG_MANIFEST_CB()',
      'cdn:/_next/static/chunks/pages/dashboard-d4.js': 'n.from("client_invoices").select("*")',
      'cdn:/_next/static/chunks/pages/index-a1.js': 'x()',
      'cdn:/_next/static/chunks/shared-s1.js': 'y()',
    }));
    const result = await crawlOf(site.origin);
    const scripts = result.assets.filter((a) => a.kind === 'script').map((a) => a.url.replace(site.cdn, 'cdn'));
    expect(scripts).toContain('cdn/_next/static/chunks/pages/dashboard-d4.js');
    expect(result.assets.find((a) => a.url.endsWith('dashboard-d4.js'))?.exchange.body).toContain('client_invoices');
    const build = result.manifests.find((m) => m.kind === 'next-build-manifest');
    expect(build?.url).toBe(`${site.cdn}/_next/static/b1Xq/_buildManifest.js`);
    expect(build?.routes).toEqual(['/', '/dashboard']);
    expect(build?.chunks.map((c) => c.replace(site.cdn, 'cdn')).sort()).toEqual([
      'cdn/_next/static/chunks/pages/dashboard-d4.js',
      'cdn/_next/static/chunks/pages/index-a1.js',
      'cdn/_next/static/chunks/shared-s1.js',
    ]);
    expect(result.manifests.find((m) => m.kind === 'next-ssg-manifest')?.routes).toEqual(['/blog/[slug]']);
  });

  it("reads the app router's flight data, SvelteKit's start imports, Remix's manifest and Vite's preload list", async () => {
    const site = await serve(() => ({
      '/': html(
        '<script src="/build/manifest-R1.js"></script><script type="module" src="/assets/index-V1.js"></script>',
        '<a href="/kit">kit</a><script>(self.__next_f=self.__next_f||[]).push([1,"2:I[4005,[\\"static/chunks/app/orders/page-o7.js\\"],\\"default\\"]\\n"])</script>',
      ),
      '/kit': html('', '<script>Promise.all([import("/_app/immutable/entry/start.S1.js"),import("/_app/immutable/entry/app.A1.js")]).then(([k,a])=>k.start(a))</script>'),
      '/_next/static/chunks/app/orders/page-o7.js': 'fetch("/api/orders")',
      '/_app/immutable/entry/start.S1.js': 'export const start=()=>0',
      '/_app/immutable/entry/app.A1.js': 'export const nodes=[()=>import("../nodes/3.N3.js")]',
      '/_app/immutable/nodes/3.N3.js': 'fetch("/api/patients")',
      '/build/manifest-R1.js':
        'window.__remixManifest={"entry":{"module":"/build/entry.client-E1.js","imports":[]},"routes":{"routes/admin":{"module":"/build/routes/admin-M1.js"}}};',
      '/build/entry.client-E1.js': 'x()',
      '/build/routes/admin-M1.js': 'fetch("/api/admin/users")',
      '/assets/index-V1.js':
        'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/Billing-B9.js","assets/Billing-B9.css"])))=>i.map(i=>d[i]);const B=()=>__vitePreload(()=>import("./Billing-B9.js"),__vite__mapDeps([0,1]));',
      '/assets/Billing-B9.js': 'fetch("/api/billing")',
    }));
    const result = await crawlOf(site.origin);
    const scripts = result.assets.filter((a) => a.kind === 'script').map((a) => a.url.replace(site.origin, ''));
    for (const path of [
      '/_next/static/chunks/app/orders/page-o7.js',
      '/_app/immutable/entry/app.A1.js',
      '/_app/immutable/nodes/3.N3.js',
      '/build/routes/admin-M1.js',
      '/assets/Billing-B9.js',
    ]) {
      expect(scripts).toContain(path);
    }
    expect(new Set(result.manifests.map((m) => m.kind))).toEqual(new Set(['next-app-router', 'sveltekit', 'remix', 'vite-preload']));
    expect(result.manifests.find((m) => m.kind === 'remix')?.chunks).toContain(`${site.origin}/build/routes/admin-M1.js`);
  });

  it('caps the chunks a manifest makes the scan fetch, and fetches nothing from other origins', async () => {
    const chunks = Array.from({ length: 400 }, (_, i) => `"static/chunks/pages/p${i}-x.js"`).join(',');
    const site = await serve(() => ({
      '/': html('<script src="/_next/static/zz9/_buildManifest.js"></script>'),
      '/_next/static/zz9/_buildManifest.js': `self.__BUILD_MANIFEST={"/":[${chunks},"https://evil.example/_next/static/chunks/x.js"]}`,
    }));
    const result = await crawlOf(site.origin);
    const fetched = site.requested.filter((path) => path.startsWith('/_next/static/chunks/pages/'));
    expect(fetched).toHaveLength(200);
    expect(result.manifests[0]?.chunks).toHaveLength(400);
    expect(result.assets.some((a) => a.url.includes('evil.example'))).toBe(false);
  });
});

describe('routes named only in manifests', () => {
  it('crawls the static pages a Next build manifest lists that no page links to, once each, not the dynamic ones', async () => {
    const site = await serve(() => ({
      '/': html(
        '<script src="/_next/static/chunks/main-1.js" defer></script>',
        '<a href="/pricing">Pricing</a><script id="__NEXT_DATA__" type="application/json">{"props":{},"page":"/","buildId":"r7Kq","isFallback":false}</script>',
      ),
      '/pricing': html('<title>Pricing</title>'),
      '/admin': html('<title>Admin</title>', '<table><tr><td>all users</td></tr></table>'),
      '/admin/settings': html('<title>Settings</title>'),
      '/_next/static/chunks/main-1.js': 'window.next={}',
      '/_next/static/r7Kq/_buildManifest.js':
        'self.__BUILD_MANIFEST=function(s){return{__rewrites:{afterFiles:[]},"/":[s],"/_error":[s],"/404":[s],"/admin":[s,"static/chunks/pages/admin-a1.js"],"\u002Fadmin\u002Fsettings":[s],"/users/[id]":[s],"/pricing":[s],sortedPages:["/","/_app","/_error","/404","/admin","/admin/settings","/pricing","/users/[id]"]}}("static/chunks/shared-s1.js");',
      '/_next/static/r7Kq/_ssgManifest.js': 'self.__SSG_MANIFEST=new Set(["\u002Fblog\u002F[slug]"]);',
      '/_next/static/chunks/pages/admin-a1.js': 'x()',
      '/_next/static/chunks/shared-s1.js': 'y()',
    }));
    const result = await crawlOf(site.origin);
    const paths = result.pages.map((page) => new URL(page.url).pathname);
    expect(paths).toEqual(['/', '/pricing', '/admin', '/admin/settings']);
    expect(result.pages.find((page) => page.url.endsWith('/admin'))).toMatchObject({ depth: 1, source: 'link' });
    expect(site.requested.filter((path) => path.endsWith('_buildManifest.js'))).toHaveLength(1);
    expect(site.requested.some((path) => path.includes('[') || path === '/404')).toBe(false);
    expect(result.assets.map((a) => a.url)).toContain(`${site.origin}/_next/static/chunks/pages/admin-a1.js`);
  });

  it("crawls a Remix manifest's route paths joined to their parents'", async () => {
    const manifest = {
      entry: { module: '/build/entry.client-E1.js', imports: [] },
      routes: {
        root: { id: 'root', path: '', module: '/build/root-R1.js' },
        'routes/_index': { id: 'routes/_index', parentId: 'root', index: true, module: '/build/routes/_index-I1.js' },
        'routes/staff': { id: 'routes/staff', parentId: 'root', path: 'staff', module: '/build/routes/staff-S1.js' },
        'routes/staff.reports': { id: 'routes/staff.reports', parentId: 'routes/staff', path: 'reports', module: '/build/routes/staff.reports-S2.js' },
        'routes/_auth': { id: 'routes/_auth', parentId: 'root', module: '/build/routes/_auth-A1.js' },
        'routes/_auth.login': { id: 'routes/_auth.login', parentId: 'routes/_auth', path: 'login', module: '/build/routes/_auth.login-L1.js' },
        'routes/patients.$id': { id: 'routes/patients.$id', parentId: 'root', path: 'patients/:id', module: '/build/routes/patients.$id-P1.js' },
      },
    };
    const site = await serve(() => ({
      '/': html('<link rel="modulepreload" href="/build/manifest-M9.js"/>', '<main>Clinic</main>'),
      '/build/manifest-M9.js': `window.__remixManifest=${JSON.stringify(manifest)};`,
      '/staff': html('<title>Staff</title>'),
      '/staff/reports': html('<title>Reports</title>'),
      '/login': html('<title>Log in</title>'),
    }));
    const result = await crawlOf(site.origin);
    expect(result.pages.map((page) => new URL(page.url).pathname)).toEqual(['/', '/staff', '/staff/reports', '/login']);
    expect(site.requested.filter((path) => path === '/build/manifest-M9.js')).toHaveLength(1);
    expect(remixManifestRoutes(`window.__remixManifest=${JSON.stringify(manifest)};`)).toEqual(['/', '/staff', '/staff/reports', '/login', '/patients/:id']);
  });

  it('keeps only routes that open as they are', () => {
    expect(staticRoutes(['/', '/admin', '/_app', '/404', '/500', '/users/[id]', '/docs/[...slug]', '/p/$id', '/p/:id', '/files/*', '/team/members'])).toEqual([
      '/',
      '/admin',
      '/team/members',
    ]);
    expect(remixManifestRoutes('window.__remixManifest={"routes":{"a":{"parentId":"b","path":"x"},"b":{"parentId":"a","path":"y"}}};')).toHaveLength(2);
    expect(remixManifestRoutes('not a manifest')).toEqual([]);
  });
});

describe('SvelteKit entry not named by its pages', () => {
  it("reads the client entry from the app's error page and records /_app/version.json", async () => {
    const requested: string[] = [];
    const files: Record<string, string> = {
      // Prerendered with csr off: SvelteKit's data attributes and immutable stylesheet, no script.
      '/': html('<link href="/_app/immutable/assets/0.D4x.css" rel="stylesheet">', '<div data-sveltekit-preload-data="hover"><h1>Staff portal</h1></div>'),
      '/_app/version.json': '{"version":"1732791200000"}',
      '/_app/immutable/entry/start.S9.js': 'export const start=()=>0',
      '/_app/immutable/entry/app.A9.js': 'export const nodes=[()=>import("../nodes/2.N2.js")]',
      '/_app/immutable/nodes/2.N2.js': 'fetch("/api/staff")',
    };
    const errorPage = html(
      '<link rel="modulepreload" href="/_app/immutable/entry/start.S9.js">',
      '<div data-sveltekit-preload-data="hover"><h1>404</h1><script>{__sveltekit_x9={base:""};const e=document.currentScript.parentElement;Promise.all([import("/_app/immutable/entry/start.S9.js"),import("/_app/immutable/entry/app.A9.js")]).then(([k,a])=>{k.start(a,e)})}</script></div>',
    );
    const origin = await listen((path) => {
      requested.push(path);
      const body = files[path];
      if (body === undefined) return { status: 404, headers: { 'content-type': 'text/html' }, body: errorPage };
      const type = body.startsWith('<') ? 'text/html' : path.endsWith('.json') ? 'application/json' : 'application/javascript';
      return { status: 200, headers: { 'content-type': type }, body };
    });
    const result = await crawlOf(origin);
    const scripts = result.assets.filter((a) => a.kind === 'script').map((a) => a.url.replace(origin, ''));
    expect(scripts).toEqual(expect.arrayContaining(['/_app/immutable/entry/start.S9.js', '/_app/immutable/entry/app.A9.js', '/_app/immutable/nodes/2.N2.js']));
    expect(result.manifests).toContainEqual({ kind: 'sveltekit', url: `${origin}/_app/version.json`, chunks: [] });
    expect(requested.filter((path) => path === '/_app/version.json')).toHaveLength(1);
  });

  it('asks nothing more of a site that is not SvelteKit', async () => {
    const requested: string[] = [];
    const origin = await listen((path) => {
      requested.push(path);
      return { status: 200, headers: { 'content-type': 'text/html' }, body: html('', '<h1>Plain</h1>') };
    });
    await crawlOf(origin);
    expect(requested).not.toContain('/_app/version.json');
  });
});

describe('manifest readers', () => {
  it('resolves Next chunk paths under /_next/ and reads escaped route names', () => {
    expect(nextChunks('["static/chunks/pages/a-1.js","static/chunks/x.css"]', 'https://cdn.example')).toEqual(['https://cdn.example/_next/static/chunks/pages/a-1.js']);
    expect(nextManifestRoutes('{"\\u002Finvoices\\u002F[id]":["x"]}', 'next-build-manifest')).toEqual(['/invoices/[id]']);
  });

  it("resolves Vite's preload list from the site root", () => {
    const code = 'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/A-1.js","./B-2.js"])))=>i.map(i=>d[i]);';
    expect(vitePreloadChunks(code, 'https://a.example/assets/index.js')).toEqual(['https://a.example/assets/A-1.js', 'https://a.example/assets/B-2.js']);
  });
});
