import { SignJWT } from 'jose';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { Database } from '../db';
import { openFreshDatabase } from '../testing/fresh-database';
import { createMailer } from '../mail/mailer';
import { loadSecrets } from '../secrets';

// A product API route behind the guard answers 401 with a JSON `detail` unless the bearer token is valid:
// one of ours (with a live session) or, when configured, one issued by the Supabase project.
describe('product API guard', () => {
  const supabaseSecret = 'super-secret-jwt-token-with-at-least-32-characters';
  let dataDir: string;
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>['app'];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-guard-'));
    const config = loadConfig({
      VIBEEVAL_DATA_DIR: dataDir,
      SUPABASE_URL: 'https://project.supabase.co',
      SUPABASE_ANON_KEY: 'anon',
      SUPABASE_JWT_SECRET: supabaseSecret,
      JWT_EXPIRY: '1',
    });
    const secrets = await loadSecrets(dataDir);
    database = await openFreshDatabase();
    const mailer = createMailer({ from: 'x@example.test', dataDir });
    ({ app } = await buildApp({
      config,
      database,
      secrets,
      mailer,
      logger: pino({ level: 'silent' }),
      apiRoutes: [(scope) => void scope.get('/whoami', async (request) => request.user)],
    }));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const whoami = (authorization?: string) => app.inject({ method: 'GET', url: '/whoami', headers: authorization ? { authorization } : {} });

  it('answers 401 with a detail without a token or with a forged one', async () => {
    const none = await whoami();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: 'Not authenticated' });
    const forged = await whoami(
      `Bearer ${await new SignJWT({ sub: 'x', session_id: 'y' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('vibeeval').setAudience('authenticated').setExpirationTime('1h').sign(new TextEncoder().encode('not-our-secret-not-our-secret-123'))}`,
    );
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ detail: 'Invalid access token' });
  });

  it('accepts a local token, and refuses it once expired', async () => {
    await app.inject({ method: 'POST', url: '/auth/v1/signup', payload: { email: 'guard@example.test', password: 'secret123' } });
    // Sign-up answers without a session: sign in.
    const signin = await app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: { email: 'guard@example.test', password: 'secret123' } });
    const { access_token } = signin.json<{ access_token: string }>();
    const ok = await whoami(`Bearer ${access_token}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ email: 'guard@example.test', source: 'local' });
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await whoami(`Bearer ${access_token}`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ detail: 'Access token expired' });
  });

  it('accepts a token of the configured Supabase project', async () => {
    const token = await new SignJWT({ email: 'hosted@example.test', role: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('6f1c7f1e-8b1a-4a55-9d55-3c1f0c1d2e3f')
      .setIssuer('https://project.supabase.co/auth/v1')
      .setAudience('authenticated')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(supabaseSecret));
    const ok = await whoami(`Bearer ${token}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: '6f1c7f1e-8b1a-4a55-9d55-3c1f0c1d2e3f', source: 'supabase' });
  });
});
