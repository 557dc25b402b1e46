import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Fetcher, type FetcherOptions } from './fetcher';

const LOCAL = { allowPrivate: true };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function fetcher(options: Partial<FetcherOptions> = {}): Fetcher {
  const instance = new Fetcher({ policy: LOCAL, timeoutMs: 2_000, ...options });
  closers.push(async () => instance.close());
  return instance;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('Fetcher pacing', () => {
  it('keeps at most 4 requests in flight to one host', async () => {
    let inFlight = 0;
    let most = 0;
    const base = await serve((_req, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.end('ok');
      }, 30);
    });
    const client = fetcher();
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => client.fetch({ url: `${base}/${i}` })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(most).toBe(4);
  });

  it('with rateLimit 0 (no limit) lets as many go as the scanner allows', async () => {
    let inFlight = 0;
    let most = 0;
    const base = await serve((_req, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.end('ok');
      }, 30);
    });
    const client = fetcher({ rateLimit: 0, concurrency: 8 });
    await Promise.all(Array.from({ length: 16 }, (_, i) => client.fetch({ url: `${base}/${i}` })));
    expect(most).toBe(8);
  });

  it('retries after a 429 with Retry-After, waiting as asked, and the retried request succeeds', async () => {
    const times: number[] = [];
    const base = await serve((_req, res) => {
      times.push(Date.now());
      if (times.length === 1) {
        res.writeHead(429, { 'retry-after': '1' });
        return res.end('slow down');
      }
      res.end('fine');
    });
    const client = fetcher();
    const answer = await client.fetch({ url: `${base}/data` });
    expect(answer).toMatchObject({ status: 200, body: 'fine' });
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
    expect(client.stats.retries).toBe(1);
  });

  it('gives up after two retries and returns the 429', async () => {
    let count = 0;
    const base = await serve((_req, res) => {
      count++;
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
    });
    const answer = await fetcher().fetch({ url: `${base}/` });
    expect(answer.status).toBe(429);
    expect(count).toBe(3);
  });

  it('keeps a hard ceiling of requests per second when one is set', async () => {
    const times: number[] = [];
    const base = await serve((_req, res) => {
      times.push(performance.now());
      res.end('ok');
    });
    const client = fetcher({ rateLimit: 20 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.fetch({ url: `${base}/${i}` })));
    expect(times).toHaveLength(6);
    // Six starts at 20 per second span five intervals of 50 ms (less the first connection's set-up, seen by the server).
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(200);
  });

  it('tries a closed port once: later requests fail at once with the same error', async () => {
    const port = await closedPort();
    const client = fetcher();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => client.fetch({ url: `http://127.0.0.1:${port}/${i}` })));
    const later = await client.fetch({ url: `http://127.0.0.1:${port}/.env` });
    expect(client.stats.attempts).toBe(1);
    for (const answer of [...answers, later]) expect(answer).toMatchObject({ status: 0, error: `127.0.0.1:${port} refused the connection` });
  });

  it('resolves an unresolvable name once for all its requests', async () => {
    const client = fetcher();
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => client.fetch({ url: `http://no-such-host-0.invalid/${i}` })));
    expect(client.stats.attempts).toBe(1);
    expect(new Set(answers.map((answer) => answer.error))).toEqual(new Set([expect.stringMatching(/no-such-host-0\.invalid could not be resolved/)]));
  });

  it('keeps trying a host whose page was slow after connecting: only a host that never connects is marked', async () => {
    let count = 0;
    const base = await serve((_req, res) => {
      if (++count === 1) return; // never answers: the first request times out after connecting
      res.end('ok');
    });
    const client = fetcher({ timeoutMs: 200 });
    const slow = await client.fetch({ url: `${base}/slow` });
    const next = await client.fetch({ url: `${base}/next` });
    expect(slow.status).toBe(0);
    expect(next.status).toBe(200);
  });
});
