import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPolicyProxy, type PolicyProxy } from './policy-proxy';

/** A site that streams a body without end (it gives up by itself after a few seconds, so a failing test ends). */
let site: http.Server;
let siteOrigin: string;
let proxy: PolicyProxy;
const CAP = 1024 * 1024;
const SITE_GIVE_UP_MS = 6_000;

beforeAll(async () => {
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const opened = performance.now();
    const pump = () => {
      while (!res.destroyed && performance.now() - opened < SITE_GIVE_UP_MS) if (!res.write(chunk)) return void res.once('drain', pump);
      res.destroy();
    };
    pump();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  proxy = await startPolicyProxy({ allowPrivate: true }, { maxBytes: CAP });
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

const auth = () => `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}`;

/** Bytes read from a socket until it closes, and how long that took. */
function drain(socket: net.Socket): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  let bytes = 0;
  return new Promise((resolve) => {
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ bytes, ms: performance.now() - started }));
  });
}

describe('policy proxy bounds', () => {
  it('closes a proxied answer that goes over the byte cap', async () => {
    const { port } = new URL(proxy.server);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.write(`GET ${siteOrigin}/huge HTTP/1.1\r\nHost: ${new URL(siteOrigin).host}\r\nProxy-Authorization: ${auth()}\r\n\r\n`);
    const { bytes, ms } = await drain(socket);
    expect(bytes).toBeGreaterThan(CAP / 2);
    expect(bytes).toBeLessThan(CAP + 512 * 1024);
    expect(ms).toBeLessThan(SITE_GIVE_UP_MS / 2);
  });

  it('closes a tunnel that carries more than the byte cap', async () => {
    const { port } = new URL(proxy.server);
    const socket = net.connect(Number(port), '127.0.0.1');
    const target = new URL(siteOrigin).host;
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${auth()}\r\n\r\n`);
    socket.once('data', () => socket.write(`GET /huge HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    const { bytes, ms } = await drain(socket);
    expect(bytes).toBeGreaterThan(CAP / 2);
    expect(bytes).toBeLessThan(CAP + 512 * 1024);
    expect(ms).toBeLessThan(SITE_GIVE_UP_MS / 2);
  });
});
