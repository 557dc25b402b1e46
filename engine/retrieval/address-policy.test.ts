import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Names with fixed answers, so a host resolving to both a public and a private address can be tried offline. */
const ANSWERS: Record<string, Array<{ address: string; family: number }>> = {
  'mixed.example': [
    { address: '93.184.215.14', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'mapped.example': [{ address: '::ffff:10.0.0.8', family: 6 }],
  'public.example': [{ address: '93.184.215.14', family: 4 }],
};

vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = (hostname: string, options: unknown, callback: (err: Error | null, addresses: unknown) => void) => {
    const answer = ANSWERS[hostname];
    if (!answer) return actual.lookup(hostname, options as object, callback as never);
    setImmediate(() => callback(null, answer));
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

const { policyLookup } = await import('./address-policy');
const { startPolicyProxy } = await import('./policy-proxy');

function resolve(policy: Parameters<typeof policyLookup>[0], host: string): Promise<{ code?: string; addresses?: unknown }> {
  return new Promise((done) => {
    policyLookup(policy)(host, { all: true }, (error, addresses) => done(error ? { code: error.code } : { addresses }));
  });
}

describe('policyLookup', () => {
  it('refuses a host when any of its addresses is private, and passes public ones through unchanged', async () => {
    const strict = { allowPrivate: false };
    expect(await resolve(strict, 'mixed.example')).toEqual({ code: 'EADDRPOLICY' });
    expect(await resolve(strict, 'mapped.example')).toEqual({ code: 'EADDRPOLICY' });
    expect(await resolve(strict, 'public.example')).toEqual({ addresses: ANSWERS['public.example'] });
    expect(await resolve({ allowPrivate: false, allowList: ['mixed.example'] }, 'mixed.example')).toEqual({ addresses: ANSWERS['mixed.example'] });
    expect(await resolve({ allowPrivate: true }, 'mixed.example')).toEqual({ addresses: ANSWERS['mixed.example'] });
  });
});

describe('the policy proxy with a name that resolves to a private address too', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('refuses the tunnel at lookup time, before any connection', async () => {
    const proxy = await startPolicyProxy({ allowPrivate: false });
    close = () => proxy.close();
    const status = await new Promise<number>((done, fail) => {
      const req = http.request({
        host: '127.0.0.1',
        port: Number(new URL(proxy.server).port),
        method: 'CONNECT',
        path: 'mixed.example:443',
        headers: { 'proxy-authorization': `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}` },
      });
      req.on('connect', (res, socket) => {
        socket.destroy();
        done(res.statusCode ?? 0);
      });
      req.on('response', (res) => done(res.statusCode ?? 0));
      req.on('error', fail);
      req.end();
    });
    expect(status).toBe(403);
    expect(proxy.refusals).toEqual([{ target: 'mixed.example:443', reason: expect.stringMatching(/mixed\.example resolves to 127\.0\.0\.1/) as unknown }]);
  });
});
