// A whole scan of a Lovable-style app whose Supabase backend is known but cannot be reached, with pages behind a
// login and a host that asks the scan to slow down: the result must say what could not be checked, not only that
// nothing was found.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { coverageGaps, coverageIncomplete } from '../common/scan-coverage';
import { findChromium } from './browser';
import { renderHtml } from './report/html';
import { scan } from './scan';
import { anonKey, supabaseBundle, viteApp } from './testing/corpus/shapes';
import type { CorpusResponse } from './testing/corpus/types';

const LOCAL = { allowPrivate: true };
const REF = 'qzkvhyxbtnmwplrcadfe';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port on 127.0.0.1 nothing listens on: bound once to learn a free one, then closed. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The app: a Vite shell whose bundle names the Supabase project, a sitemap listing pages that need a login
 * (a redirect to /login, a 401) and one that answers 429 with Retry-After.
 */
async function appSite(supabaseUrl: string): Promise<string> {
  let origin = '';
  const routes = (): Record<string, CorpusResponse> => ({
    ...viteApp('BookEasy', supabaseBundle(supabaseUrl, anonKey(REF), ['bookings', 'customers'])),
    '/sitemap.xml': {
      contentType: 'application/xml',
      body: `<?xml version="1.0"?><urlset>${['/dashboard', '/account', '/pricing'].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`,
    },
    '/login': { body: '<!doctype html><html><head><title>Sign in</title></head><body><form method="post"><input type="password" name="password"></form></body></html>' },
  });
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/dashboard') return res.writeHead(302, { location: '/login?next=%2Fdashboard' }).end();
    if (path === '/account') return res.writeHead(401, { 'content-type': 'text/plain' }).end('Sign in first');
    if (path === '/pricing') return res.writeHead(429, { 'retry-after': '0', 'content-type': 'text/plain' }).end('Slow down');
    const answer = routes()[path];
    if (!answer) return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    const type = answer.contentType ?? (answer.body.startsWith('<') ? 'text/html; charset=utf-8' : path.endsWith('.js') ? 'application/javascript' : 'text/css');
    res.writeHead(answer.status ?? 200, { 'content-type': type }).end(answer.body);
  });
  const port = await listen(server);
  origin = `http://127.0.0.1:${port}`;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `${origin}/`;
}

describe('coverage of a scan whose backend cannot be reached', () => {
  it.each([
    ['a *.supabase.co project whose host refuses', `https://${REF}.supabase.co`, /refused the connection/],
    ['a self-hosted project on a closed port', 'closed', /refused the connection/],
  ])(
    'says %s could not be checked, and which pages need a login',
    async (_name, given, error) => {
      const port = await closedPort();
      const supabaseUrl = given === 'closed' ? `http://127.0.0.1:${port}` : given;
      const url = await appSite(supabaseUrl);
      const result = await scan(
        url,
        { maxPages: 8, render: false },
        { addressPolicy: LOCAL, resolveHost: (host) => (host === `${REF}.supabase.co` ? { address: '127.0.0.1', port } : undefined) },
      );
      const coverage = result.coverage!;
      const project = coverage.backends?.items.find((backend) => backend.kind === 'supabase');
      expect(project).toMatchObject({ target: supabaseUrl, checked: false });
      expect(project!.requests).toBeGreaterThan(0);
      expect(project!.reason).toMatch(error);

      const origin = new URL(url).origin;
      expect(coverage.loginRequired?.items).toEqual([
        { url: `${origin}/account`, status: 401 },
        { url: `${origin}/dashboard`, status: 302, redirectedTo: `${origin}/login?next=%2Fdashboard` },
      ]);
      expect(coverage.rateLimited?.items).toEqual([{ host: new URL(url).host, answers: 3 }]);
      expect(coverage.rendering).toMatchObject({ ran: false, singlePageApp: true });
      expect(coverage.fetched?.scripts).toBeGreaterThan(0);

      // Nothing at medium or above could be found, and the result says why instead of calling the site secure.
      expect(coverageIncomplete(coverage)).toBe(true);
      const gaps = coverageGaps(coverage);
      expect(gaps[0]).toMatch(new RegExp(`^The Supabase project ${supabaseUrl.replace(/[.]/g, '\\.')} could not be checked: every request failed`));
      expect(gaps).toContain(`2 pages need a login and were not checked signed in: ${origin}/account, ${origin}/dashboard.`);
      const html = renderHtml(result);
      expect(html).toContain('<h2>Coverage</h2>');
      expect(html).toContain('<span class="badge not-checked">Not checked</span>');
    },
    60_000,
  );
});

// ---------------------------------------------------------------------------------------------------------------------
// A single-page app whose protected routes answer 200 with the app shell; its router then sends the browser to a
// sign-in page when no session is stored. Over HTTP every page looks public: only the rendered page shows the wall.

const browser = findChromium();
if (browser.path === null) console.warn(`coverage-scan.test.ts: client-side login redirects skipped: ${browser.reason}`);

/** The app's router: each protected route goes to its sign-in page in one of the ways SPAs do it. */
const ROUTER = (accounts: string) => `
const session = localStorage.getItem('sb-bookeasy-auth-token');
const path = location.pathname;
const next = encodeURIComponent(path);
const walls = {
  '/dashboard': () => history.replaceState(null, '', '/login?redirect=' + next),
  '/settings': () => history.pushState({}, '', '/auth/sign-in'),
  '/billing': () => location.assign('/signin?next=' + next),
  '/team': () => location.replace(${JSON.stringify(accounts)} + '/sign-in?redirect_url=' + encodeURIComponent(location.href)),
};
setTimeout(() => {
  if (!session && walls[path]) walls[path]();
  document.getElementById('root').textContent = location.pathname;
}, 20);
`;

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  const port = await listen(server);
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${port}`;
}

/** The SPA: one shell for every path (as Vercel or Netlify serve a Vite build), a sitemap of its routes. */
async function spaSite(accounts: string): Promise<string> {
  let origin = '';
  const shell = '<!doctype html><html><head><title>BookEasy</title><script type="module" src="/assets/index-4f9a2c.js"></script></head><body><div id="root"></div></body></html>';
  origin = await serve((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/assets/index-4f9a2c.js') return res.writeHead(200, { 'content-type': 'application/javascript' }).end(ROUTER(accounts));
    if (path === '/sitemap.xml') {
      const urls = ['/dashboard', '/settings', '/billing', '/team'].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('');
      return res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset>${urls}</urlset>`);
    }
    if (path.startsWith('/assets/') || path === '/favicon.ico') return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shell);
  });
  return `${origin}/`;
}

describe.skipIf(browser.path === null)('coverage of a single-page app whose router sends visitors to sign in', () => {
  it('lists the routes that went to a sign-in page in the browser as pages that need a login', async () => {
    // A hosted sign-in page on another origin (as Clerk's accounts.<domain> or an identity provider's).
    const accounts = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Sign in</title><form></form>'));
    const url = await spaSite(accounts);
    const origin = new URL(url).origin;
    const result = await scan(url, { maxPages: 8, render: true }, { addressPolicy: LOCAL, chromiumPath: browser.path });
    expect(result.rendering.status).toBe('done');
    expect(result.coverage?.loginRequired).toEqual({
      items: [
        { url: `${origin}/billing`, status: 200, redirectedTo: `${origin}/signin?next=%2Fbilling` },
        { url: `${origin}/dashboard`, status: 200, redirectedTo: `${origin}/login?redirect=%2Fdashboard` },
        { url: `${origin}/settings`, status: 200, redirectedTo: `${origin}/auth/sign-in` },
        { url: `${origin}/team`, status: 200, redirectedTo: `${accounts}/sign-in?redirect_url=${encodeURIComponent(`${origin}/team`)}` },
      ],
      more: 0,
    });
    expect(coverageGaps(result.coverage)).toContain(`4 pages need a login and were not checked signed in: ${origin}/billing, ${origin}/dashboard, ${origin}/settings and 1 more.`);
  }, 120_000);
});
