import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './testing/test-server';

// Behind a reverse proxy (VIBEEVAL_TRUST_PROXY), the per-IP sign-in limit counts the clients the proxy names in
// X-Forwarded-For; without the setting every request would come from the proxy's own address.
describe('VIBEEVAL_TRUST_PROXY', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ VIBEEVAL_TRUST_PROXY: '1', SIGNIN_MAX_PER_IP: '2', SIGNIN_MAX_PER_EMAIL: '100' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  let counter = 0;
  const signIn = (client: string) =>
    fetch(`${server.origin}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'local', 'x-forwarded-for': client },
      body: JSON.stringify({ email: `nobody${counter++}@example.com`, password: 'wrong-password' }),
    });

  it('limits each client the proxy names, not the proxy', async () => {
    expect((await signIn('203.0.113.7')).status).toBe(400);
    expect((await signIn('203.0.113.7')).status).toBe(400);
    const limited = await signIn('203.0.113.7');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another client behind the same proxy (the same peer address, 127.0.0.1) still gets its own attempts.
    expect((await signIn('203.0.113.8')).status).toBe(400);
    // Only the nearest hop is believed: a forged address further left does not make a new client.
    expect((await signIn('198.51.100.1, 203.0.113.7')).status).toBe(429);
  });
});
