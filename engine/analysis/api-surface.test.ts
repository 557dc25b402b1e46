import { describe, expect, it } from 'vitest';
import { makeExchange, makeSite } from '../testing/site';
import { collectApiEndpoints, hasSideEffectWord, isSiteHost, manifestRoutes, MAX_ENDPOINTS, openApiGetPaths, parseOpenApi, templatePrefix } from './api-surface';

const ORIGIN = 'https://app.example.com';
const siteWith = (script: string, html = '<div id="root"></div><script type="module" src="/assets/index.js"></script>') =>
  makeSite({ root: { url: `${ORIGIN}/`, body: html }, assets: [{ url: `${ORIGIN}/assets/index.js`, body: script }] });
const urls = (script: string, html?: string) => collectApiEndpoints(siteWith(script, html)).map((e) => e.url);

describe('api surface', () => {
  it('takes literal fetch, axios and XHR calls, same site only', () => {
    const found = urls(
      `fetch("/api/users");axios.get('/api/orders?page=1');x.open("GET","/rest/items");fetch("https://evil.test/api/x");` +
        `fetch("https://api.example.com/v1/customers");axios.post("/api/profile")`,
    );
    expect(found).toEqual(
      expect.arrayContaining([`${ORIGIN}/api/users`, `${ORIGIN}/api/orders?page=1`, `${ORIGIN}/rest/items`, 'https://api.example.com/v1/customers', `${ORIGIN}/api/profile`]),
    );
    expect(found.some((u) => u.includes('evil.test'))).toBe(false);
  });

  it('resolves axios.create baseURL with relative calls, and template literals with a constant prefix', () => {
    expect(urls('const api=axios.create({baseURL:"/api/v2"});api.get("/invoices");')).toContain(`${ORIGIN}/api/v2/invoices`);
    expect(urls('const API_BASE = import.meta.env.VITE_API || "https://api.example.com"; fetch(`${API_BASE}/customers`)')).toContain('https://api.example.com/customers');
    expect(urls('fetch(`/api/users/${id}/notes`)')).toContain(`${ORIGIN}/api/users`);
    // A prefix cut inside a segment (/api/user${x}) would be a path nobody serves.
    expect(urls('fetch(`/api/user${suffix}`)')).toEqual([]);
  });

  it('templatePrefix keeps only path-boundary prefixes', () => {
    const constants = new Map([['API', 'https://api.example.com/']]);
    expect(templatePrefix('${API}/users/${id}', constants)).toBe('https://api.example.com/users');
    expect(templatePrefix('/api/search?q=${q}', constants)).toBe('/api/search');
    expect(templatePrefix('/api/item-${id}', constants)).toBeUndefined();
    expect(templatePrefix('${UNKNOWN}/users', constants)).toBeUndefined();
  });

  it('never keeps side-effect paths, static files or path parameters', () => {
    expect(hasSideEffectWord('/api/auth/logout')).toBe(true);
    expect(hasSideEffectWord('/api/deleteUser')).toBe(true);
    expect(hasSideEffectWord('/api/newsletter/unsubscribe')).toBe(true);
    expect(hasSideEffectWord('/api/users')).toBe(false);
    expect(hasSideEffectWord('/api/brunches')).toBe(false);
    expect(urls('fetch("/api/logout");fetch("/api/users/reset-password");fetch("/api/logo.png");fetch("/api/users/:id");fetch("/api/account/delete")')).toEqual([]);
  });

  it('reads API-looking constants and framework manifests, the most specific first, bounded', () => {
    const found = urls('const a="/api/v1/admin/stats",b="/api";');
    expect(found[0]).toBe(`${ORIGIN}/api/v1/admin/stats`);
    expect(manifestRoutes('self.__BUILD_MANIFEST={"/":["a.js"],"/admin":["b.js"],"/posts/[id]":["c.js"]}')).toEqual(['/', '/admin', '/posts/[id]']);
    expect(manifestRoutes('{"/api/users/route":"app/api/users/route.js","/(shop)/admin/page":"app/(shop)/admin/page.js"}')).toEqual(['/api/users', '/admin']);
    expect(urls('{"/api/users/route":"app/api/users/route.js","/about/page":"app/about/page.js"}')).toEqual([`${ORIGIN}/api/users`]);
    expect(manifestRoutes('window.__remixManifest={routes:{"routes/api.users":{id:"routes/api.users",path:"api/users"}}}')).toEqual(['/api/users']);
    expect(manifestRoutes('const dictionary={"/":[2],"/(app)/admin/users":[~3,[1]]}')).toEqual(['/admin/users']);
    const many = Array.from({ length: 60 }, (_, i) => `fetch("/api/thing${i}")`).join(';');
    expect(urls(many)).toHaveLength(MAX_ENDPOINTS);
  });

  it('takes GET operations from an OpenAPI document, filling path parameters from examples', () => {
    const doc = {
      openapi: '3.0.0',
      servers: [{ url: 'https://app.example.com/api' }],
      paths: {
        '/users': { get: {}, post: {} },
        '/users/{id}': { get: { parameters: [{ name: 'id', in: 'path', example: 7 }] } },
        '/orders/{orderId}': { get: { parameters: [{ name: 'orderId', in: 'path' }] } },
        '/things': { delete: {} },
      },
    };
    expect(openApiGetPaths(doc)).toEqual(['/api/users', '/api/users/7']);
    const exchange = makeExchange({ url: `${ORIGIN}/openapi.json`, body: JSON.stringify(doc), contentType: 'application/json' });
    expect(parseOpenApi(exchange)).toBeTruthy();
    expect(parseOpenApi(makeExchange({ url: `${ORIGIN}/openapi.json`, body: '{"paths":{}}' }))).toBeUndefined();
    expect(collectApiEndpoints(siteWith(''), [exchange]).map((e) => [e.url, e.source])).toEqual([
      [`${ORIGIN}/api/users/7`, 'openapi'],
      [`${ORIGIN}/api/users`, 'openapi'],
    ]);
  });

  it('takes GET calls seen while rendering, not writes or other resource types', () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/`, body: '<div id="root"></div>' },
      rendering: {
        requests: [
          { url: `${ORIGIN}/api/dashboard/stats`, method: 'GET', resourceType: 'fetch' },
          { url: `${ORIGIN}/api/events`, method: 'POST', resourceType: 'xhr' },
          { url: `${ORIGIN}/api/avatar`, method: 'GET', resourceType: 'image' },
        ],
      },
    });
    expect(collectApiEndpoints(site).map((e) => [e.url, e.seenIn])).toEqual([[`${ORIGIN}/api/dashboard/stats`, 'traffic seen while rendering']]);
  });

  it('treats subdomains of the site as the site, not other domains or bare IPs', () => {
    expect(isSiteHost('api.example.com', 'www.example.com')).toBe(true);
    expect(isSiteHost('example.com.evil.test', 'example.com')).toBe(false);
    expect(isSiteHost('127.0.0.2', '127.0.0.1')).toBe(false);
    expect(isSiteHost('api.example.com', 'app.example.com')).toBe(true);
    expect(isSiteHost('other.vercel.app', 'mine.vercel.app')).toBe(false);
    expect(isSiteHost('evil.co.uk', 'shop.co.uk')).toBe(false);
  });
});
