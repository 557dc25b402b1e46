import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCapture, startTestServer } from '../testing/test-server';

// A password change through supabase-js's updateUser, as the reset page makes it: the other sessions of the user
// end with it, and a session that signed in long ago must give the current password.
const client = (origin: string) =>
  createClient(origin, 'local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });

let counter = 0;
const newEmail = () => `pw${Date.now()}-${++counter}@example.test`;

describe('password change', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let pool: pg.Pool;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer({ SMTP_URL: smtp.url, SIGNIN_MAX_PER_EMAIL: '20', SIGNIN_MAX_PER_IP: '1000' });
    pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
    await smtp?.close();
  });

  /** A signed-in supabase-js client, and its session's tokens. */
  async function signedIn(email: string, password: string) {
    const auth = client(server.origin).auth;
    const { data, error } = await auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    return { auth, access: data.session!.access_token, refresh: data.session!.refresh_token };
  }

  const userStatus = async (access: string) => (await fetch(`${server.origin}/auth/v1/user`, { headers: { authorization: `Bearer ${access}` } })).status;
  const refreshes = async (refresh: string) => (await client(server.origin).auth.refreshSession({ refresh_token: refresh })).error === null;

  it('signs out every other session, access and refresh tokens, and keeps the one that made the change', async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'old-secret' });
    const other = await signedIn(email, 'old-secret');
    const mine = await signedIn(email, 'old-secret');
    expect(await userStatus(other.access)).toBe(200);

    expect((await mine.auth.updateUser({ password: 'new-secret' })).error).toBeNull();

    expect(await userStatus(other.access)).toBe(403);
    expect(await refreshes(other.refresh)).toBe(false);
    const product = await fetch(`${server.origin}/projects`, { headers: { authorization: `Bearer ${other.access}` } });
    expect(product.status).toBe(401);
    expect(await userStatus(mine.access)).toBe(200);
    expect(await refreshes(mine.refresh)).toBe(true);
  });

  it("through a recovery link: the link's session sets the password without the old one, and the others end", async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'old-secret' });
    const other = await signedIn(email, 'old-secret');
    await client(server.origin).auth.resetPasswordForEmail(email, { redirectTo: `${server.origin}/reset-password` });
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(email)).text)?.[0];
    const landing = await fetch(link!, { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(landing.headers.get('location')!).hash.slice(1));
    const auth = client(server.origin).auth;
    await auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });

    expect((await auth.updateUser({ password: 'new-secret' })).error).toBeNull();

    expect(await userStatus(other.access)).toBe(403);
    expect(await refreshes(other.refresh)).toBe(false);
    expect(await userStatus(fragment.get('access_token')!)).toBe(200);
  });

  it("asks a session that signed in over 10 minutes ago for the current password, in GoTrue's words", async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'old-secret' });
    const stale = await signedIn(email, 'old-secret');
    const other = await signedIn(email, 'old-secret');
    // The session started 11 minutes ago; its refreshed tokens carry that start.
    const { rows } = await pool.query<{ id: string }>(
      `update auth_sessions set created_at = now() - interval '11 minutes'
        where id = (select session_id from refresh_tokens where token_hash = encode(sha256($1::bytea), 'hex')) returning id`,
      [stale.refresh],
    );
    expect(rows).toHaveLength(1);
    const refreshed = await stale.auth.refreshSession({ refresh_token: stale.refresh });
    expect(refreshed.error).toBeNull();

    const missing = await stale.auth.updateUser({ password: 'new-secret' });
    expect(missing.error).toMatchObject({ status: 400, code: 'current_password_required', message: 'Current password required when setting new password.' });
    const wrong = await stale.auth.updateUser({ password: 'new-secret', current_password: 'not-the-one' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_invalid' });
    // Nothing changed: the old password and the other session still work.
    expect(await userStatus(other.access)).toBe(200);
    expect((await client(server.origin).auth.signInWithPassword({ email, password: 'old-secret' })).error).toBeNull();

    expect((await stale.auth.updateUser({ password: 'new-secret', current_password: 'old-secret' })).error).toBeNull();
    expect(await userStatus(other.access)).toBe(403);
    expect((await client(server.origin).auth.signInWithPassword({ email, password: 'new-secret' })).error).toBeNull();
  });
});
