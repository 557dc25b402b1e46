import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() } }));

const { contentSecurityPolicy, createAppProtocolHandler, resolveAppRequest } = await import('./protocol');

// A built renderer next to a secret that must stay out of reach.
const root = mkdtempSync(join(tmpdir(), 'vibeeval-protocol-'));
const rendererDir = join(root, 'renderer');
mkdirSync(join(rendererDir, 'assets'), { recursive: true });
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>');
writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(rendererDir, 'assets', 'app.css'), 'body{}');
writeFileSync(join(root, 'secret.txt'), 'do not serve');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const serverOrigin = 'http://127.0.0.1:53211';
const handler = createAppProtocolHandler({ rendererDir, serverOrigin });
const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

describe('the CSP', () => {
  it('starts from none and allows the server over HTTP and WebSocket', () => {
    expect(contentSecurityPolicy(serverOrigin)).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; " +
        "font-src 'self' data:; connect-src 'self' http://127.0.0.1:53211 ws://127.0.0.1:53211; frame-src http://127.0.0.1:53211; object-src 'none'; " +
        "base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
    expect(contentSecurityPolicy('https://vibeeval.example.com/')).toContain("connect-src 'self' https://vibeeval.example.com wss://vibeeval.example.com;");
  });
});

describe('app://vibeeval', () => {
  it('serves the renderer files with their type and the CSP', async () => {
    const index = await get('app://vibeeval/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(contentSecurityPolicy(serverOrigin));
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<div id="root">');

    const script = await get('app://vibeeval/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
    expect((await get('app://vibeeval/assets/app.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers client-side routes with index.html', async () => {
    for (const route of ['app://vibeeval/dashboard', 'app://vibeeval/project/123e4567?tab=scans', 'app://vibeeval/assets/']) {
      const response = await get(route);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<div id="root">');
    }
  });

  it('answers a prerendered route with its page, and other routes with index.html', async () => {
    const pages = join(rendererDir, 'pages');
    mkdirSync(join(pages, 'updates'), { recursive: true });
    writeFileSync(join(pages, 'index.html'), '<div id="root" data-prerendered="/">landing</div>');
    writeFileSync(join(pages, 'login.html'), '<div id="root" data-prerendered="/login">login</div>');
    writeFileSync(join(pages, 'updates', 'vibe-coding-apps.html'), '<div id="root" data-prerendered="/updates/vibe-coding-apps">article</div>');
    try {
      expect(await (await get('app://vibeeval/')).text()).toContain('landing');
      expect(await (await get('app://vibeeval/login')).text()).toContain('data-prerendered="/login"');
      expect(await (await get('app://vibeeval/login?next=1#x')).text()).toContain('data-prerendered="/login"');
      expect(await (await get('app://vibeeval/updates/vibe-coding-apps')).text()).toContain('article');
      // No prerendered page for these: the app's index.html (signup's page was not written by this "build").
      for (const route of ['app://vibeeval/signup', 'app://vibeeval/dashboard', 'app://vibeeval/pages/login']) {
        const text = await (await get(route)).text();
        expect(text, route).toBe('<!doctype html><div id="root"></div>');
      }
    } finally {
      rmSync(pages, { recursive: true, force: true });
    }
  });

  it('answers a missing asset with 404, not with HTML', async () => {
    const response = await get('app://vibeeval/assets/missing.js');
    expect(response.status).toBe(404);
  });

  it('refuses paths that leave the renderer folder', async () => {
    for (const url of ['app://vibeeval/..%2Fsecret.txt', 'app://vibeeval/%2e%2e%2fsecret.txt', 'app://vibeeval/assets/..%2F..%2Fsecret.txt', 'app://vibeeval/..%5Csecret.txt']) {
      const response = await get(url);
      expect([403, 404]).toContain(response.status);
      expect(await response.text()).not.toContain('do not serve');
    }
    // Plain dot segments are normalised by the URL parser and stay inside: the SPA answers.
    const normalised = await get('app://vibeeval/../../secret.txt');
    expect(await normalised.text()).not.toContain('do not serve');
  });

  it('refuses malformed or foreign requests', async () => {
    expect((await get('app://vibeeval/%E0%A4%A')).status).toBe(400);
    expect((await get('app://vibeeval/a%00b')).status).toBe(400);
    expect((await get('app://other/')).status).toBe(404);
    expect((await get('app://vibeeval/', 'POST')).status).toBe(405);
  });

  it('answers HEAD without a body', async () => {
    const response = await get('app://vibeeval/assets/app.js', 'HEAD');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('answers 500 when a file exists but cannot be read', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const denied = createAppProtocolHandler({
      rendererDir,
      serverOrigin,
      read: () => Promise.reject(Object.assign(new Error('permission denied'), { code: 'EACCES' })),
    });
    expect((await denied(new Request('app://vibeeval/assets/app.js'))).status).toBe(500);
    errors.mockRestore();
  });

  it('says so when the renderer is not built', async () => {
    const empty = createAppProtocolHandler({ rendererDir: join(root, 'nothing-here'), serverOrigin });
    const response = await empty(new Request('app://vibeeval/'));
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/not built/);
  });
});

describe('resolveAppRequest', () => {
  it('maps URLs to files under the renderer folder', () => {
    expect(resolveAppRequest('app://vibeeval/', rendererDir)).toEqual({
      kind: 'file',
      path: join(rendererDir, 'index.html'),
      spaFallback: false,
      prerendered: join(rendererDir, 'pages', 'index.html'),
    });
    expect(resolveAppRequest('app://vibeeval/assets/app.js', rendererDir)).toEqual({
      kind: 'file',
      path: join(rendererDir, 'assets', 'app.js'),
      spaFallback: false,
    });
    expect(resolveAppRequest('app://vibeeval/projects', rendererDir)).toMatchObject({ kind: 'file', spaFallback: true });
    // The URL parser itself treats %2e%2e as a dot segment: that stays inside the folder.
    expect(resolveAppRequest('app://vibeeval/%2e%2e/secret.txt', rendererDir)).toMatchObject({ path: join(rendererDir, 'secret.txt') });
    expect(resolveAppRequest('app://vibeeval/%2e%2e%2fsecret.txt', rendererDir)).toEqual({ kind: 'error', status: 403 });
    expect(resolveAppRequest('app://vibeeval/..%2f..%2fetc/passwd', rendererDir)).toEqual({ kind: 'error', status: 403 });
  });
});
