import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_AGENT } from '../version';
import { addressRefusal, isNonPublicAddress } from './address-policy';
import { Fetcher, type FetchRequest } from './fetcher';
import { HostRateLimiter } from './rate-limit';

let server: http.Server;
let base: string;
const seen: Array<{ path: string; ua?: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', ua: req.headers['user-agent'] });
    const path = req.url ?? '/';
    if (path === '/gzip') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      return res.end(zlib.gzipSync('compressed hello'));
    }
    if (path === '/brotli') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' });
      return res.end(zlib.brotliCompressSync('brotli hello'));
    }
    if (path.startsWith('/loop/')) {
      const n = Number(path.split('/')[2]);
      res.writeHead(302, { location: `/loop/${n + 1}` });
      return res.end();
    }
    if (path === '/redirect') {
      res.writeHead(301, { location: '/final', 'set-cookie': 'hop=1' });
      return res.end();
    }
    if (path === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('x'.repeat(100_000));
    }
    if (path === '/binary') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]));
    }
    if (path === '/host') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(req.headers.host);
    }
    if (path === '/slow') {
      setTimeout(() => res.end('late'), 2_000);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': ['a=1; HttpOnly', 'b=2; Secure'] });
    res.end(`<p>${path}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const local = (extra: Partial<ConstructorParameters<typeof Fetcher>[0]> = {}) => new Fetcher({ policy: { allowPrivate: true }, rateLimit: 0, timeoutMs: 5_000, ...extra });

describe('Fetcher', () => {
  it('names the scanner in its User-Agent and keeps repeated headers apart', async () => {
    const fetcher = local();
    const exchange = await fetcher.fetch({ url: `${base}/hello` });
    fetcher.close();
    expect(exchange.status).toBe(200);
    expect(exchange.body).toBe('<p>/hello</p>');
    expect(exchange.headers.filter(([name]) => name === 'set-cookie').map(([, value]) => value)).toEqual(['a=1; HttpOnly', 'b=2; Secure']);
    expect(seen.at(-1)?.ua).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/vibeeval/);
  });

  it('decodes gzip and brotli bodies', async () => {
    const fetcher = local();
    expect((await fetcher.fetch({ url: `${base}/gzip` })).body).toBe('compressed hello');
    expect((await fetcher.fetch({ url: `${base}/brotli` })).body).toBe('brotli hello');
    fetcher.close();
  });

  it('follows redirects, recording each hop, and stops after the limit', async () => {
    const fetcher = local({ maxRedirects: 3 });
    const ok = await fetcher.fetch({ url: `${base}/redirect` });
    expect(ok.finalUrl).toBe(`${base}/final`);
    expect(ok.redirects).toHaveLength(1);
    expect(ok.redirects[0]!.headers).toContainEqual(['set-cookie', 'hop=1']);
    const loop = await fetcher.fetch({ url: `${base}/loop/0` });
    expect(loop.status).toBe(0);
    expect(loop.error).toMatch(/more than 3 redirects/);
    const raw = await fetcher.fetch({ url: `${base}/redirect`, noRedirect: true });
    expect(raw.status).toBe(301);
    expect(raw.finalUrl).toBe(`${base}/redirect`);
    fetcher.close();
  });

  it('caps the body size and says it did', async () => {
    const fetcher = local({ maxBodyBytes: 10_000 });
    const exchange = await fetcher.fetch({ url: `${base}/big` });
    fetcher.close();
    expect(exchange.truncated).toBe(true);
    expect(exchange.body.length).toBe(10_000);
  });

  it('keeps binary bodies only when asked, as latin1', async () => {
    const fetcher = local();
    expect((await fetcher.fetch({ url: `${base}/binary` })).body).toBe('');
    const kept = await fetcher.fetch({ url: `${base}/binary`, binary: true });
    expect(kept.body.slice(4)).toBe('Bud1');
    fetcher.close();
  });

  it('times out slow answers without throwing', async () => {
    const fetcher = local({ timeoutMs: 300 });
    const exchange = await fetcher.fetch({ url: `${base}/slow` });
    fetcher.close();
    expect(exchange.status).toBe(0);
    expect(exchange.error).toMatch(/did not answer in time/);
  });

  it('refuses loopback addresses when private addresses are not allowed, by IP and by name', async () => {
    const fetcher = new Fetcher({ policy: { allowPrivate: false }, rateLimit: 0, timeoutMs: 2_000 });
    const byIp = await fetcher.fetch({ url: `${base}/x` });
    expect(byIp.error).toMatch(/private or loopback/);
    const byName = await fetcher.fetch({ url: `${base.replace('127.0.0.1', 'localhost')}/x` });
    expect(byName.error).toMatch(/private or loopback/);
    fetcher.close();
    const allowed = new Fetcher({ policy: { allowPrivate: false, allowList: ['127.0.0.0/8'] }, rateLimit: 0, timeoutMs: 2_000 });
    expect((await allowed.fetch({ url: `${base}/x` })).status).toBe(200);
    allowed.close();
  });

  it('connects a name mapped by resolveHost to its address and port, sends the real Host, and keeps the policy on the address', async () => {
    const port = Number(new URL(base).port);
    const resolveHost = (hostname: string) => (hostname === 'api.mapped.test' ? { address: '127.0.0.1', port } : undefined);
    const fetcher = local({ resolveHost });
    const mapped = await fetcher.fetch({ url: 'http://api.mapped.test/host' });
    expect(mapped).toMatchObject({ status: 200, body: 'api.mapped.test', finalUrl: 'http://api.mapped.test/host' });
    // Unmapped hosts and IP literals keep their own port.
    expect((await fetcher.fetch({ url: `${base}/host` })).body).toBe(`127.0.0.1:${port}`);
    fetcher.close();
    const strict = new Fetcher({ policy: { allowPrivate: false }, rateLimit: 0, timeoutMs: 2_000, resolveHost });
    expect((await strict.fetch({ url: 'http://api.mapped.test/host' })).error).toBe(
      'api.mapped.test resolves to 127.0.0.1, a private or loopback address; scans from this server may reach only public addresses (ask the administrator to allow-list it)',
    );
    strict.close();
  });

  it('reports unreachable hosts in words', async () => {
    const fetcher = local({ timeoutMs: 2_000 });
    const refused = await fetcher.fetch({ url: 'http://127.0.0.1:1/' });
    expect(refused.error).toMatch(/refused the connection/);
    const invalid = await fetcher.fetch({ url: 'ftp://example.com/' });
    expect(invalid.error).toMatch(/only http and https/);
    fetcher.close();
  });
});

describe('a kept-alive connection the host closes as the next request goes out', () => {
  type Seen = Array<{ method: string; socketRequest: number }>;
  /**
   * Runs `use` with a fetcher (one connection at a time) and a host that answers each connection's first request; a
   * second request on the same connection finds it closed unread.
   */
  async function withClosingHost(use: (fetcher: Fetcher, url: string, got: Seen) => Promise<void>) {
    const perSocket = new WeakMap<object, number>();
    const got: Seen = [];
    const host = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      got.push({ method: req.method ?? '', socketRequest: n });
      if (n > 1) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`answer ${got.length}`);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const fetcher = local({ concurrency: 1 });
    try {
      await use(fetcher, `http://127.0.0.1:${(host.address() as AddressInfo).port}`, got);
    } finally {
      fetcher.close();
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
    }
  }

  it.each<{ what: string; request: Omit<FetchRequest, 'url'> & { path: string } }>([
    { what: 'a GET', request: { path: '/b' } },
    { what: 'a POST marked repeatable (a password sign-in)', request: { method: 'POST', path: '/login', body: '{}', repeatable: true } },
  ])('sends $what again on a new connection, once, and gets its answer', ({ request: { path, ...request } }) =>
    withClosingHost(async (fetcher, url, got) => {
      expect((await fetcher.fetch({ url: `${url}/a` })).body).toBe('answer 1');
      const again = await fetcher.fetch({ url: `${url}${path}`, ...request });
      expect(again.error).toBeUndefined();
      expect(again.body).toBe('answer 3');
      const method = request.method ?? 'GET';
      expect(got).toEqual([
        { method: 'GET', socketRequest: 1 },
        { method, socketRequest: 2 },
        { method, socketRequest: 1 },
      ]);
      expect(fetcher.stats.resetRetries).toBe(1);
    }),
  );

  it('does not send a POST twice: the reset is its answer', () =>
    withClosingHost(async (fetcher, url, got) => {
      await fetcher.fetch({ url: `${url}/a` });
      const post = await fetcher.fetch({ method: 'POST', url: `${url}/b`, body: '{}' });
      expect(post.status).toBe(0);
      expect(post.error).toMatch(/closed the connection/);
      expect(got.map((request) => request.method)).toEqual(['GET', 'POST']);
      expect(fetcher.stats.resetRetries).toBe(0);
    }));
});

describe('address policy', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    // IPv6 forms that carry an IPv4 address are judged by it: compatible, SIIT, NAT64 (well-known and local-use),
    // 6to4 and Teredo (client address stored inverted).
    ['::127.0.0.1', true],
    ['::7f00:1', true],
    ['::a00:1', true],
    ['::ffff:0:7f00:1', true],
    ['::ffff:0:a9fe:a9fe', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::10.0.0.1', true],
    ['64:ff9b:1::7f00:1', true],
    ['64:ff9b:1:7f00:1::', true],
    ['2002:7f00:1::1', true],
    ['2002:c0a8:101::1', true],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true],
    ['2001:0:7f00:1::1', true],
    ['fec0::1', true],
    ['64:ff9b::808:808', false],
    ['::ffff:0:808:808', false],
    ['2002:808:808::1', false],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['2606:4700::1111', false],
  ])('%s is non-public: %s', (address, expected) => {
    expect(isNonPublicAddress(address)).toBe(expected);
  });

  it('allows private addresses for local scans and allow-listed hosts only', () => {
    expect(addressRefusal({ allowPrivate: true }, 'intranet', '10.0.0.5')).toBeNull();
    expect(addressRefusal({ allowPrivate: false }, 'intranet', '10.0.0.5')).toMatch(/private/);
    expect(addressRefusal({ allowPrivate: false, allowList: ['intranet'] }, 'intranet', '10.0.0.5')).toBeNull();
    expect(addressRefusal({ allowPrivate: false, allowList: ['10.0.0.0/24'] }, 'x', '10.0.0.5')).toBeNull();
    expect(addressRefusal({ allowPrivate: false, allowList: ['10.0.1.0/24'] }, 'x', '10.0.0.5')).toMatch(/private/);
    expect(addressRefusal({ allowPrivate: false }, 'example.com', '93.184.216.34')).toBeNull();
    // An IPv4 allow-list entry covers the IPv6 forms that carry its addresses, and only those.
    expect(addressRefusal({ allowPrivate: false, allowList: ['10.0.0.0/24'] }, 'x', '64:ff9b::a00:5')).toBeNull();
    expect(addressRefusal({ allowPrivate: false, allowList: ['10.0.0.0/24'] }, 'x', '::ffff:0:7f00:1')).toMatch(/private/);
  });
});

describe('HostRateLimiter', () => {
  it('spaces requests to one host and leaves other hosts alone', async () => {
    const limiter = new HostRateLimiter(20);
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) await limiter.wait('a');
    const oneHost = performance.now() - t0;
    expect(oneHost).toBeGreaterThanOrEqual(190);
    const t1 = performance.now();
    await limiter.wait('b');
    expect(performance.now() - t1).toBeLessThan(20);
  });
});
