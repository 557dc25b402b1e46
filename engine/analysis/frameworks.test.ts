import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { buildManifestRoutes, clientDataBlobs, describeFrameworks, detectFrameworks, frameworkProbes, isViteClient, FRAMEWORK_PROBE } from './frameworks';
import { makeExchange } from '../testing/site';

const ORIGIN = 'https://app.example';

const pagesRouter = `<!DOCTYPE html><html><head><script src="/_next/static/chunks/main-abc123.js" defer></script>
<script src="/_next/static/Zx9buildId42/_buildManifest.js" defer></script></head><body><div id="__next"></div>
<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"title":"Hi"}},"page":"/","query":{},"buildId":"Zx9buildId42"}</script></body></html>`;

const appRouter = `<!DOCTYPE html><html><head><script src="/_next/static/chunks/main-app-1a2b.js" async></script></head><body>
<script>(self.__next_f=self.__next_f||[]).push([0])</script><script>self.__next_f.push([1,"0:[\\"$\\",\\"div\\",null,{\\"children\\":\\"hello\\"}]\\n"])</script></body></html>`;

describe('detectFrameworks', () => {
  const cases: Array<{ name: string; body: string; headers?: Record<string, string>; assets?: Array<{ url: string; body: string }>; expected: string }> = [
    { name: 'Next.js pages router with build id', body: pagesRouter, expected: 'Next.js (pages router, build Zx9buildId42)' },
    {
      name: 'Next.js app router, version from the main-app chunk',
      body: appRouter,
      assets: [{ url: `${ORIGIN}/_next/static/chunks/main-app-1a2b.js`, body: 'window.next={version:"14.1.0",appDir:!0};' }],
      expected: 'Next.js 14.1.0 (app router)',
    },
    { name: 'Next.js from the X-Powered-By header only', body: '<html><body>hi</body></html>', headers: { 'x-powered-by': 'Next.js' }, expected: 'Next.js' },
    {
      name: 'Nuxt',
      body: '<html><body><div id="__nuxt"></div><script>window.__NUXT__={config:{public:{}}}</script><script src="/_nuxt/entry.1234abcd.js"></script></body></html>',
      expected: 'Nuxt',
    },
    {
      name: 'SvelteKit',
      body: '<html><body><script>__sveltekit_1x2y = { base: "" };</script><link rel="modulepreload" href="/_app/immutable/entry/start.Ab12.js"></body></html>',
      expected: 'SvelteKit',
    },
    {
      name: 'Remix',
      body: '<html><body><script>window.__remixContext = {"state":{"loaderData":{}}};</script><script src="/build/entry.client-ABCD1234.js" type="module"></script></body></html>',
      expected: 'Remix',
    },
    {
      name: 'Astro with generator version',
      body: '<html><head><meta name="generator" content="Astro v4.5.2"></head><body><astro-island uid="x"></astro-island></body></html>',
      expected: 'Astro 4.5.2',
    },
    {
      name: 'Vite production build',
      body: '<html><head><script type="module" crossorigin src="/assets/index-BcD3eF9a.js"></script></head><body><div id="root"></div></body></html>',
      expected: 'Vite',
    },
    {
      name: 'Vite development server',
      body: '<html><head><script type="module" src="/@vite/client"></script><script type="module" src="/src/main.tsx"></script></head></html>',
      expected: 'Vite (development server)',
    },
    {
      name: 'Create React App',
      body: '<html><head><script defer src="/static/js/main.8f3b2c1d.js"></script></head><body><div id="root"></div></body></html>',
      expected: 'Create React App',
    },
    { name: 'a plain page', body: '<html><head><script src="/js/app.js"></script></head><body>hello</body></html>', expected: '' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const site = makeSite({ root: { url: `${ORIGIN}/`, body: c.body, headers: c.headers }, assets: c.assets });
      expect(describeFrameworks(detectFrameworks(site))).toBe(c.expected);
    });
  }

  it('names the framework rather than the Vite bundler it uses', () => {
    const site = makeSite({ root: { url: `${ORIGIN}/`, body: '<html><body><astro-island></astro-island><script src="/assets/index-BcD3eF9a.js"></script></body></html>' } });
    expect(detectFrameworks(site).map((f) => f.name)).toEqual(['Astro']);
  });
});

describe('clientDataBlobs', () => {
  it('extracts __NEXT_DATA__, flight data, __NUXT__ and Remix context', () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/`, body: pagesRouter },
      pages: [
        { url: `${ORIGIN}/app`, body: appRouter },
        { url: `${ORIGIN}/nuxt`, body: '<html><body><script>window.__NUXT__={};window.__NUXT__.config={public:{}}</script></body></html>' },
        { url: `${ORIGIN}/remix`, body: '<html><body><script>window.__remixContext = {"state":{}};</script></body></html>' },
      ],
    });
    const blobs = clientDataBlobs(site);
    expect(blobs.map((b) => b.label)).toEqual(['__NEXT_DATA__', 'React Server Components flight data (self.__next_f)', 'window.__NUXT__', 'window.__remixContext (loader data)']);
    expect(blobs[1]!.text).toContain('"children":"hello"');
  });
});

describe('probes and manifests', () => {
  it('asks for the build manifest of a detected build id and for /@vite/client', () => {
    const site = makeSite({ root: { url: `${ORIGIN}/`, body: pagesRouter } });
    expect(frameworkProbes(site).map((p) => [p.key, p.method, p.url])).toEqual([
      [FRAMEWORK_PROBE.buildManifest, 'GET', `${ORIGIN}/_next/static/Zx9buildId42/_buildManifest.js`],
      [FRAMEWORK_PROBE.viteClient, 'GET', `${ORIGIN}/@vite/client`],
    ]);
  });

  it('reads page routes from a build manifest', () => {
    const body = 'self.__BUILD_MANIFEST={__rewrites:{},"/":["static/chunks/pages/index.js"],"/dashboard":["static/chunks/pages/dashboard.js"],"/_error":["x.js"]};';
    expect(buildManifestRoutes(makeExchange({ url: `${ORIGIN}/_next/static/x/_buildManifest.js`, body, contentType: 'application/javascript' }))).toEqual(['/', '/dashboard']);
  });

  it('tells the Vite client from a soft 404 page', () => {
    const client = makeExchange({ url: `${ORIGIN}/@vite/client`, contentType: 'text/javascript', body: 'console.debug("[vite] connecting..."); const hmrPort = __HMR_PORT__;' });
    const html = makeExchange({ url: `${ORIGIN}/@vite/client`, body: '<html><body>Not found [vite]</body></html>' });
    expect(isViteClient(client)).toBe(true);
    expect(isViteClient(html)).toBe(false);
  });
});
