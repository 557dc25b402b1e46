import net, { type AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher } from './fetcher';

/**
 * A hostile target on 127.0.0.1: answers that trickle, never end, inflate without limit or redirect forever.
 * Written on raw sockets so each answer is exactly what a hostile server would send.
 */
let server: net.Server;
let base: string;
/** When each path's socket was closed (the fetcher hung up), in performance.now() ms. */
const closedAt = new Map<string, number>();
/** Every trickle and flood stops on its own after this long, so a failing test still ends. */
const SERVER_GIVE_UP_MS = 8_000;
const ZERO_MEMBER = zlib.gzipSync(Buffer.alloc(1024 * 1024));

function trickle(socket: net.Socket, head: string, stop: () => boolean): void {
  socket.write(head);
  const timer = setInterval(() => {
    if (stop() || socket.destroyed) {
      clearInterval(timer);
      socket.destroy();
      return;
    }
    socket.write('x');
  }, 50);
  socket.on('close', () => clearInterval(timer));
}

function flood(socket: net.Socket, head: string, chunk: Buffer, stop: () => boolean): void {
  socket.write(head);
  const pump = () => {
    while (!socket.destroyed && !stop()) {
      if (!socket.write(chunk)) return void socket.once('drain', pump);
    }
    socket.destroy();
  };
  pump();
}

beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (data) => {
      const path = /^[A-Z]+ (\S{1,200}) /.exec(data.toString('latin1'))?.[1] ?? '/';
      const opened = performance.now();
      const stop = () => performance.now() - opened > SERVER_GIVE_UP_MS;
      socket.on('close', () => closedAt.set(path, performance.now()));
      if (path === '/trickle-headers') return trickle(socket, 'HTTP/1.1 200 OK\r\nX-Slow: ', stop);
      if (path === '/trickle-body') return trickle(socket, 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n', stop);
      if (path === '/huge') return flood(socket, 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n', Buffer.alloc(64 * 1024, 'a'), stop);
      if (path === '/bomb') {
        // Concatenated gzip members of 1 MB of zeros each: about 1 KB on the wire per MB decoded, without end.
        return flood(socket, 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n', ZERO_MEMBER, stop);
      }
      if (path === '/loop') return void socket.end('HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const hostile = (extra: Partial<ConstructorParameters<typeof Fetcher>[0]> = {}) =>
  new Fetcher({ policy: { allowPrivate: true }, rateLimit: 0, maxRetries: 0, timeoutMs: 2_000, ...extra });

async function timed(fetcher: Fetcher, path: string) {
  const started = performance.now();
  const exchange = await fetcher.fetch({ url: `${base}${path}` });
  const elapsed = performance.now() - started;
  fetcher.close();
  return { exchange, elapsed, started };
}

describe('fetcher bounds against a hostile server', () => {
  it('bounds the whole answer in time when the headers trickle in one byte at a time', async () => {
    const { exchange, elapsed } = await timed(hostile({ maxExchangeMs: 600 }), '/trickle-headers');
    expect(exchange.status).toBe(0);
    expect(exchange.error).toMatch(/the answer took longer than 0\.6 s/);
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(600 + 1_000);
  });

  it('bounds the whole answer in time when the body trickles in, and says so', async () => {
    const { exchange, elapsed } = await timed(hostile({ maxExchangeMs: 600 }), '/trickle-body');
    expect(exchange.error).toMatch(/the answer took longer than 0\.6 s/);
    expect(elapsed).toBeLessThan(600 + 1_000);
  });

  it('keeps serving the host after a request ran out of time: the scan goes on', async () => {
    const fetcher = hostile({ maxExchangeMs: 600 });
    const slow = await fetcher.fetch({ url: `${base}/trickle-body` });
    const next = await fetcher.fetch({ url: `${base}/missing` });
    fetcher.close();
    expect(slow.error).toMatch(/took longer/);
    expect(next.error).toBeUndefined();
    expect(next.status).toBe(404);
  });

  it('stops reading a body that never ends at the byte cap, marks it truncated and hangs up', async () => {
    const cap = 1024 * 1024;
    const { exchange, elapsed, started } = await timed(hostile({ maxBodyBytes: cap }), '/huge');
    expect(exchange.truncated).toBe(true);
    expect(exchange.body.length).toBe(cap);
    expect(elapsed).toBeLessThan(2_000);
    await expect.poll(() => closedAt.get('/huge'), { timeout: 2_000 }).toBeDefined();
    expect(closedAt.get('/huge')! - started).toBeLessThan(3_000);
  });

  it('caps the decoded size of a gzip bomb without reading the whole compressed stream', async () => {
    const cap = 2 * 1024 * 1024;
    const { exchange, elapsed, started } = await timed(hostile({ maxBodyBytes: cap }), '/bomb');
    expect(exchange.truncated).toBe(true);
    expect(exchange.bodyBytes).toBe(cap);
    expect(elapsed).toBeLessThan(2_000);
    await expect.poll(() => closedAt.get('/bomb'), { timeout: 2_000 }).toBeDefined();
    expect(closedAt.get('/bomb')! - started).toBeLessThan(3_000);
  });

  it('ends a redirect loop with a clear error after a bounded number of hops', async () => {
    const { exchange, elapsed } = await timed(hostile({ maxRedirects: 4 }), '/loop');
    expect(exchange.status).toBe(0);
    expect(exchange.error).toMatch(/redirects in a loop/);
    expect(exchange.redirects.length).toBeLessThanOrEqual(5);
    expect(elapsed).toBeLessThan(2_000);
  });
});
