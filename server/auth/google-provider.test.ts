import type { CustomFetch } from 'openid-client';
import { describe, expect, it } from 'vitest';
import { identityFromClaims, outboundFetch, ProviderRefusedError, ProviderUnavailableError } from './google-provider';

describe('outboundFetch', () => {
  const serverPolicy = { allowPrivate: false };
  const get: Parameters<CustomFetch>[1] = { method: 'GET', headers: {}, redirect: 'manual', body: undefined };

  it("refuses private addresses other than the configured issuer's host on a server that may not reach them", async () => {
    const fetcher = outboundFetch(serverPolicy, 'http://127.0.0.1:9');
    await expect(fetcher('http://10.1.2.3/token', get)).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(fetcher('http://[::1]:9/jwks', get)).rejects.toThrow(/refused/);
  });

  it("lets the configured issuer's own host through (the connection itself then fails: nothing listens on port 9)", async () => {
    const fetcher = outboundFetch(serverPolicy, 'http://127.0.0.1:9');
    const attempt = fetcher('http://127.0.0.1:9/.well-known/openid-configuration', get);
    await expect(attempt).rejects.toThrow();
    await expect(attempt).rejects.not.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('identityFromClaims', () => {
  const base = { iss: 'https://accounts.google.com', aud: 'id', iat: 1, exp: 2, sub: '1234' };

  it('reads subject, email, verification, name and an https picture', () => {
    expect(identityFromClaims({ ...base, email: 'A@Example.com', email_verified: true, name: 'A', picture: 'https://x/p.png' })).toEqual({
      subject: '1234',
      email: 'A@Example.com',
      emailVerified: true,
      name: 'A',
      picture: 'https://x/p.png',
    });
  });

  it('reads only a true verification as verified, and drops a picture that is not https', () => {
    expect(identityFromClaims({ ...base, email: 'a@b.c', email_verified: 'true' }).emailVerified).toBe(true);
    expect(identityFromClaims({ ...base, email: 'a@b.c', email_verified: 'yes' }).emailVerified).toBe(false);
    expect(identityFromClaims({ ...base, email: 'a@b.c' }).emailVerified).toBe(false);
    expect(identityFromClaims({ ...base, email: 'a@b.c', picture: 'javascript:alert(1)' }).picture).toBeUndefined();
  });

  it('refuses an ID token without an email or without claims', () => {
    expect(() => identityFromClaims({ ...base })).toThrow(ProviderRefusedError);
    expect(() => identityFromClaims(undefined)).toThrow(ProviderRefusedError);
  });
});
