import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findChromium, launchChromium, launchPolicedChromium } from '../browser';
import type { AddressPolicy } from './address-policy';
import { startPolicyProxy, type PolicyProxy } from './policy-proxy';
import { render } from './render';

const chromium = findChromium();
if (chromium.path === null) console.warn(`policy-proxy.test.ts: browser tests skipped: ${chromium.reason}`);

/** Server mode, with the scanned site allowed by name: everything else on this machine is private and refused. */
const POLICY: AddressPolicy = { allowPrivate: false, allowList: ['localhost'] };

/** A service on loopback that must never be reached: it counts TCP connections, HTTP requests and UDP datagrams. */
interface PrivateService {
  port: number;
  udpPort: number;
  /** A second UDP port, for WebTransport (HTTP/3 runs over UDP). */
  quicPort: number;
  connections: number;
  requests: string[];
  udpPackets: number;
  quicPackets: number;
  reset(): void;
  close(): Promise<void>;
}

async function startPrivateService(): Promise<PrivateService> {
  const server = http.createServer((req, res) => {
    service.requests.push(req.url ?? '');
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }).end('data: secret\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('internal secret');
  });
  server.on('connection', () => service.connections++);
  server.on('upgrade', (req, socket) => {
    service.requests.push(req.url ?? '');
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  server.on('connect', (req, socket) => {
    service.requests.push(req.url ?? '');
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const udp = async (count: () => void): Promise<UdpSocket> => {
    const socket = createSocket('udp4');
    socket.on('message', count);
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return socket;
  };
  const stun = await udp(() => service.udpPackets++);
  const quic = await udp(() => service.quicPackets++);
  const service: PrivateService = {
    port: (server.address() as AddressInfo).port,
    udpPort: stun.address().port,
    quicPort: quic.address().port,
    connections: 0,
    requests: [],
    udpPackets: 0,
    quicPackets: 0,
    reset() {
      service.connections = 0;
      service.requests = [];
      service.udpPackets = 0;
      service.quicPackets = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        stun.close();
        quic.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return service;
}

/** Each probe page reaches for the private service one way, then sets window.__probeDone. */
function probes(p: PrivateService): Record<string, { body: string; wait?: number }> {
  const priv = `127.0.0.1:${p.port}`;
  const done = 'window.__probeDone = true';
  const settle = (promise: string) => `Promise.race([${promise}, new Promise((r) => setTimeout(r, 3000))]).catch(() => {}).finally(() => { ${done}; });`;
  return {
    websocket: {
      body: `<script>
        const sockets = ['ws://${priv}/ws', 'wss://${priv}/wss'].map((url) => new WebSocket(url));
        ${settle(`Promise.all(sockets.map((s) => new Promise((r) => { s.onopen = s.onerror = s.onclose = r; })))`)}
      </script>`,
    },
    'fetch-redirect': {
      body: `<script>
        const to = encodeURIComponent('http://${priv}/fetch-redirect');
        const xhr = new Promise((r) => { const x = new XMLHttpRequest(); x.onloadend = r; x.open('GET', '/redirect?to=' + to); x.send(); });
        ${settle(`Promise.allSettled([fetch('/redirect?to=' + to), fetch('http://${priv}/fetch-direct', { mode: 'no-cors' }), xhr])`)}
      </script>`,
    },
    'img-iframe': {
      body: `<img src="http://${priv}/img"><iframe src="http://${priv}/iframe"></iframe><iframe src="/redirect?to=${encodeURIComponent(`http://${priv}/iframe-redirect`)}"></iframe>
        <script>window.addEventListener('load', () => setTimeout(() => { ${done}; }, 500));</script>`,
    },
    'prefetch-preconnect': {
      body: `<link rel="dns-prefetch" href="http://${priv}/"><link rel="preconnect" href="http://${priv}"><link rel="prefetch" href="http://${priv}/prefetch">
        <link rel="preload" as="fetch" crossorigin href="http://${priv}/preload">
        <script>setTimeout(() => { ${done}; }, 1500);</script>`,
    },
    'service-worker': {
      body: `<script>
        ${settle(`navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => new Promise((r) => setTimeout(r, 1500)))`)}
      </script>`,
    },
    eventsource: {
      body: `<script>
        const source = new EventSource('http://${priv}/events');
        ${settle(`new Promise((r) => { source.onmessage = source.onerror = r; })`)}
      </script>`,
    },
    beacon: {
      body: `<script>
        navigator.sendBeacon('http://${priv}/beacon', 'data');
        fetch('http://${priv}/keepalive', { method: 'POST', body: 'data', keepalive: true, mode: 'no-cors' }).catch(() => {});
        setTimeout(() => { ${done}; }, 1000);
      </script>`,
    },
    webrtc: {
      body: `<script>
        const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${p.udpPort}' }, { urls: 'turn:127.0.0.1:${p.udpPort}?transport=udp', username: 'u', credential: 'p' }] });
        pc.createDataChannel('probe');
        ${settle(`pc.createOffer().then((offer) => pc.setLocalDescription(offer)).then(() => new Promise((r) => { pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && r(); }))`)}
      </script>`,
    },
    webtransport: {
      body: `<script>
        ${settle(`typeof WebTransport === 'function' ? new WebTransport('https://127.0.0.1:${p.quicPort}/wt').ready : Promise.resolve()`)}
      </script>`,
    },
  };
}

interface HostileSite {
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** The scanned site (allowed, served as localhost): each path is one probe page; /redirect?to= redirects anywhere. */
async function startHostileSite(pages: Record<string, { body: string }>, privatePort: number): Promise<HostileSite> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    }
    if (url.pathname === '/sw.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(
        `self.addEventListener('install', (e) => e.waitUntil(Promise.allSettled([fetch('http://127.0.0.1:${privatePort}/sw-install'), new Promise((r) => { const s = new WebSocket('ws://127.0.0.1:${privatePort}/sw-ws'); s.onerror = s.onclose = r; })])));`,
      );
      return;
    }
    const page = pages[url.pathname.slice(1)];
    if (url.pathname === '/') {
      const links = Object.keys(pages).map((name) => `<a href="/${name}">${name}</a>`);
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Probe index</title><h1>Probes</h1>${links.join(' ')}`);
      return;
    }
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${url.pathname}</title><h1 id="rendered">rendered</h1>${page.body}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/`,
    origin: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Loads one probe page and waits for it to finish, plus a moment for anything it started late. */
async function runProbe(context: BrowserContext, site: HostileSite, name: string): Promise<string> {
  const page = await context.newPage();
  try {
    await page.goto(`${site.url}${name}`, { waitUntil: 'load', timeout: 15_000 });
    await page.waitForFunction('window.__probeDone === true', undefined, { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    return await page.locator('#rendered').innerText();
  } finally {
    await page.close();
  }
}

let service: PrivateService;
let site: HostileSite;

beforeAll(async () => {
  service = await startPrivateService();
  site = await startHostileSite(probes(service), service.port);
});
afterAll(async () => {
  await site?.close();
  await service?.close();
});

/** A WebSocket handshake sent as an absolute-URI request, as a proxy may also receive one. */
const UPGRADE = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };

describe('the policy proxy on its own', () => {
  let proxy: PolicyProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  const viaProxy = (target: string, auth: string | null, method = 'GET', extra: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders }> =>
    new Promise((resolve, reject) => {
      const { port } = new URL(proxy!.server);
      const headers: Record<string, string> = auth === null ? { ...extra } : { ...extra, 'proxy-authorization': `Basic ${Buffer.from(auth).toString('base64')}` };
      const req = http.request({ host: '127.0.0.1', port, method, path: target, headers });
      req.on('connect', (res, socket) => {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      });
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      });
      req.on('error', reject);
      req.end();
    });

  it('asks for its per-launch credentials before anything else', async () => {
    proxy = await startPolicyProxy({ allowPrivate: true });
    expect((await viaProxy(`${site.origin}/`, null)).status).toBe(407);
    expect((await viaProxy(`${site.origin}/`, `${proxy.username}:wrong`)).status).toBe(407);
    expect((await viaProxy(`localhost:${new URL(site.origin).port}`, null, 'CONNECT')).status).toBe(407);
    expect((await viaProxy(`${site.origin}/`, `${proxy.username}:${proxy.password}`)).status).toBe(200);
    expect(service.connections).toBe(0);
  });

  it('refuses private targets by name, by IP literal (v4, v6, v4-mapped and other IPv6 forms that carry an IPv4 address) and through CONNECT, and lets allowed ones through', async () => {
    proxy = await startPolicyProxy(POLICY);
    const auth = `${proxy.username}:${proxy.password}`;
    service.reset();
    const refused = await viaProxy(`http://127.0.0.1:${service.port}/literal`, auth);
    expect(refused.status).toBe(403);
    expect(refused.headers[proxy.refusalHeader.name]).toBe(proxy.refusalHeader.value);
    expect((await viaProxy(`http://[::ffff:127.0.0.1]:${service.port}/mapped`, auth)).status).toBe(403);
    expect((await viaProxy(`http://[::1]:${service.port}/v6`, auth)).status).toBe(403);
    for (const embedding of ['::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b:1::7f00:1', '::ffff:0:7f00:1', '2002:7f00:1::1']) {
      expect((await viaProxy(`http://[${embedding}]:${service.port}/embedded`, auth)).status, embedding).toBe(403);
      expect((await viaProxy(`[${embedding}]:${service.port}`, auth, 'CONNECT')).status, embedding).toBe(403);
    }
    expect((await viaProxy(`127.0.0.1:${service.port}`, auth, 'CONNECT')).status).toBe(403);
    expect((await viaProxy(`127.1:${service.port}`, auth, 'CONNECT')).status).toBe(403);
    expect((await viaProxy(`0x7f000001:${service.port}`, auth, 'CONNECT')).status).toBe(403);
    expect((await viaProxy(`http://127.0.0.1:${service.port}/ws`, auth, 'GET', UPGRADE)).status).toBe(403);
    expect(service.connections).toBe(0);
    expect(proxy.refusals.length).toBeGreaterThanOrEqual(6);
    expect(proxy.refusals[0]!.reason).toMatch(/private or loopback/);
    // The allowed host, by name: both the plain-http path and a tunnel.
    expect((await viaProxy(`${site.origin}/`, auth)).status).toBe(200);
    expect((await viaProxy(`localhost:${new URL(site.origin).port}`, auth, 'CONNECT')).status).toBe(200);
  });

  it('sends a request again on a new connection when the site had closed the kept-alive one it went out on, and only then', async () => {
    // A site that drops every connection's second request unread, as one does that closes an idle kept-alive
    // connection just as the next request is sent on it.
    const seen: Array<{ connection: number; method: string; body: string }> = [];
    let connections = 0;
    const dropping = http.createServer((req, res) => {
      const body: Buffer[] = [];
      req.on('data', (chunk: Buffer) => body.push(chunk));
      req.on('end', () => {
        const socket = req.socket as typeof req.socket & { vibeevalConnection?: number; vibeevalServed?: number };
        socket.vibeevalConnection ??= ++connections;
        socket.vibeevalServed = (socket.vibeevalServed ?? 0) + 1;
        seen.push({ connection: socket.vibeevalConnection, method: req.method ?? '', body: Buffer.concat(body).toString() });
        if (socket.vibeevalServed > 1 || req.url === '/drop') return void socket.destroy();
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.method} ${Buffer.concat(body).toString()}`);
      });
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    const send = (path: string, method: string, body: string): Promise<{ status: number; text: string }> =>
      new Promise((resolve, reject) => {
        const auth = `Basic ${Buffer.from(`${proxy!.username}:${proxy!.password}`).toString('base64')}`;
        const req = http.request({
          host: '127.0.0.1',
          port: new URL(proxy!.server).port,
          method,
          path: `${origin}${path}`,
          headers: { 'proxy-authorization': auth, 'content-type': 'application/x-www-form-urlencoded' },
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      proxy = await startPolicyProxy({ allowPrivate: true });
      expect(await send('/login', 'GET', '')).toEqual({ status: 200, text: 'GET ' });
      // The proxy's kept-alive connection is dropped under the sign-in's POST: sent again on a new one, answered once.
      expect(await send('/login', 'POST', 'email=a%40b.test&password=pw')).toEqual({ status: 200, text: 'POST email=a%40b.test&password=pw' });
      expect(seen.map((s) => `${s.connection} ${s.method} ${s.body}`)).toEqual(['1 GET ', '1 POST email=a%40b.test&password=pw', '2 POST email=a%40b.test&password=pw']);
      // A new connection dropped is the site's answer: not sent again.
      await proxy.close();
      proxy = await startPolicyProxy({ allowPrivate: true });
      seen.length = 0;
      const dropped = await send('/drop', 'POST', 'x=1');
      expect(dropped.status).toBe(502);
      expect(dropped.text).toMatch(/^The scanner's proxy could not reach 127\.0\.0\.1:\d+: socket hang up/);
      expect(seen).toHaveLength(1);
    } finally {
      dropping.closeAllConnections();
      await new Promise<void>((resolve) => dropping.close(() => resolve()));
    }
  });

  it('lets private targets through under the local policy', async () => {
    proxy = await startPolicyProxy({ allowPrivate: true });
    service.reset();
    expect((await viaProxy(`http://127.0.0.1:${service.port}/local`, `${proxy.username}:${proxy.password}`)).status).toBe(200);
    expect((await viaProxy(`http://127.0.0.1:${service.port}/ws`, `${proxy.username}:${proxy.password}`, 'GET', UPGRADE)).status).toBe(400);
    expect(service.requests).toEqual(['/local', '/ws']);
  });
});

describe.skipIf(chromium.path === null)('a browser behind the policy proxy', () => {
  let browser: Browser;
  let proxy: PolicyProxy;
  let context: BrowserContext;

  beforeAll(async () => {
    ({ browser, proxy } = await launchPolicedChromium(chromium.path!, POLICY));
    // Service workers allowed here (the scanner blocks them too) to show the proxy alone covers them.
    context = await browser.newContext({ serviceWorkers: 'allow' });
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(() => service.reset());

  const expectNothingReached = () => {
    expect({ connections: service.connections, requests: service.requests, udp: service.udpPackets, quic: service.quicPackets }).toEqual({
      connections: 0,
      requests: [],
      udp: 0,
      quic: 0,
    });
  };

  for (const name of ['websocket', 'fetch-redirect', 'img-iframe', 'prefetch-preconnect', 'service-worker', 'eventsource', 'beacon', 'webrtc', 'webtransport']) {
    it(`${name}: the page renders and the private service sees nothing`, async () => {
      expect(await runProbe(context, site, name)).toBe('rendered');
      expectNothingReached();
    });
  }

  it('refuses a top-level navigation redirected to a private address', async () => {
    const page = await context.newPage();
    try {
      const response = await page.goto(`${site.url}redirect?to=${encodeURIComponent(`http://127.0.0.1:${service.port}/top`)}`);
      expect(response?.headers()[proxy.refusalHeader.name]).toBe(proxy.refusalHeader.value);
    } finally {
      await page.close();
    }
    expectNothingReached();
  });

  it('the proxy closes with the browser', async () => {
    const own = await launchPolicedChromium(chromium.path!, POLICY);
    await own.browser.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const port = Number(new URL(own.proxy.server).port);
    const reachable = await new Promise<boolean>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/' }, () => resolve(true));
      req.on('error', () => resolve(false));
      req.end();
    });
    expect(reachable).toBe(false);
  });
});

describe.skipIf(chromium.path === null)('a browser behind the proxy under the local policy', () => {
  it('still reaches loopback services: WebSocket, redirects, images, EventSource, beacons (local scans keep working)', async () => {
    const { browser } = await launchPolicedChromium(chromium.path!, { allowPrivate: true });
    try {
      const context = await browser.newContext();
      service.reset();
      for (const name of ['websocket', 'fetch-redirect', 'img-iframe', 'eventsource', 'beacon']) await runProbe(context, site, name);
      expect(service.requests).toEqual(expect.arrayContaining(['/ws', '/fetch-redirect', '/fetch-direct', '/img', '/iframe', '/iframe-redirect', '/events', '/beacon']));
    } finally {
      await browser.close();
    }
  });
});

describe.skipIf(chromium.path === null)('the same probes without the proxy (the detectors work)', () => {
  it('a plain browser reaches the private service through WebSocket, images, WebRTC and WebTransport', async () => {
    const browser = await launchChromium(chromium.path!);
    try {
      const context = await browser.newContext();
      for (const name of ['websocket', 'img-iframe', 'webrtc', 'webtransport']) {
        service.reset();
        await runProbe(context, site, name);
        const seen = { connections: service.connections, udp: service.udpPackets, quic: service.quicPackets };
        if (name === 'webrtc') expect(seen.udp, name).toBeGreaterThan(0);
        else if (name === 'webtransport') expect(seen.quic, name).toBeGreaterThan(0);
        else expect(seen.connections, name).toBeGreaterThan(0);
      }
    } finally {
      await browser.close();
    }
  });
});

describe.skipIf(chromium.path === null)('rendering a hostile site in server mode', () => {
  it('renders the allowed site, finds its routes, and nothing it asks for reaches the private service', async () => {
    service.reset();
    const names = Object.keys(probes(service));
    const result = await render({ executablePath: chromium.path!, urls: [site.url, ...names.map((name) => `${site.url}${name}`)], origin: site.origin, policy: POLICY });
    expect(result.status).toBe('done');
    expect(result.routes.map((route) => new URL(route).pathname)).toEqual(expect.arrayContaining(['/', '/websocket', '/webrtc']));
    expect(service.connections).toBe(0);
    expect(service.requests).toEqual([]);
    expect(service.udpPackets + service.quicPackets).toBe(0);
  });

  it('refuses a top-level navigation that redirects to a private address', async () => {
    service.reset();
    const result = await render({
      executablePath: chromium.path!,
      urls: [`${site.url}redirect?to=${encodeURIComponent(`http://127.0.0.1:${service.port}/secret`)}`],
      origin: site.origin,
      policy: POLICY,
    });
    expect(service.connections).toBe(0);
    expect(result.consoleErrors.join('\n')).toMatch(/refused/i);
    expect(result.routes).toEqual([]);
  });
});
