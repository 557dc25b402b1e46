import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCapture, startTestServer } from '../testing/test-server';

// The real supabase-js client against the real server: the renderer uses exactly this client.
const client = (origin: string) =>
  createClient(origin, 'local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; supabase-js wants one for realtime, which these tests don't use.
    realtime: { transport: WebSocket as never },
  });

let counter = 0;
const newEmail = () => `user${Date.now()}-${++counter}@example.test`;

describe('auth endpoints driven by supabase-js', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer({ SMTP_URL: smtp.url, JWT_EXPIRY: '2', SIGNIN_MAX_PER_EMAIL: '3', SIGNIN_MAX_PER_IP: '1000' });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('signs up with the address unconfirmed, and refuses a second signup for the same email', async () => {
    const email = newEmail();
    const { data, error } = await client(server.origin).auth.signUp({ email, password: 'secret123' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    // Signing up proves nothing about the address: it stays unconfirmed until a link mailed to it is followed.
    expect(data.user?.email_confirmed_at).toBeNull();
    expect(data.session?.access_token).toMatch(/^ey/);

    const again = await client(server.origin).auth.signUp({ email: email.toUpperCase(), password: 'other123' });
    expect(again.error?.message).toBe('User already registered');
    expect(again.error?.code).toBe('user_already_exists');
  });

  it('refuses passwords under 6 characters and malformed emails', async () => {
    const weak = await client(server.origin).auth.signUp({ email: newEmail(), password: '12345' });
    expect(weak.error?.code).toBe('weak_password');
    const malformed = await client(server.origin).auth.signUp({ email: 'not-an-email', password: 'secret123' });
    expect(malformed.error?.status).toBe(400);
    expect(malformed.error?.message).toMatch(/invalid format/);
  });

  it('signs in with the right password and refuses a wrong one', async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'secret123' });
    const auth = client(server.origin).auth;
    const ok = await auth.signInWithPassword({ email, password: 'secret123' });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.user.email).toBe(email);
    const { data: user } = await auth.getUser();
    expect(user.user?.email).toBe(email);

    const wrong = await client(server.origin).auth.signInWithPassword({ email, password: 'wrong-password' });
    expect(wrong.error?.message).toBe('Invalid login credentials');
    const unknown = await client(server.origin).auth.signInWithPassword({ email: newEmail(), password: 'secret123' });
    expect(unknown.error?.message).toBe('Invalid login credentials');
  });

  it('rotates refresh tokens, and a reused one revokes the session', async () => {
    const email = newEmail();
    const { data } = await client(server.origin).auth.signUp({ email, password: 'secret123' });
    const first = data.session!.refresh_token;

    const auth = client(server.origin).auth;
    const refreshed = await auth.refreshSession({ refresh_token: first });
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session!.refresh_token;
    expect(second).not.toBe(first);

    const reused = await client(server.origin).auth.refreshSession({ refresh_token: first });
    expect(reused.error?.code).toBe('refresh_token_already_used');
    // Reuse means the token leaked: the newer token of the same session is dead too.
    const afterTheft = await client(server.origin).auth.refreshSession({ refresh_token: second });
    expect(afterTheft.error).not.toBeNull();
  });

  it('expires access tokens after JWT_EXPIRY seconds', async () => {
    const { data } = await client(server.origin).auth.signUp({ email: newEmail(), password: 'secret123' });
    const token = data.session!.access_token;
    expect((await fetch(`${server.origin}/auth/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3100));
    const expired = await fetch(`${server.origin}/auth/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { msg: string }).msg).toMatch(/exp/);
  });

  it('sends a recovery mail whose link lands on /reset-password with type=recovery, and the new password works', async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'old-secret' });
    const { error } = await client(server.origin).auth.resetPasswordForEmail(email, { redirectTo: `${server.origin}/reset-password` });
    expect(error).toBeNull();

    const mail = await smtp.next(email);
    expect(mail.subject).toBe('Reset your vibeeval password');
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();

    const landing = await fetch(link!, { redirect: 'manual' });
    expect(landing.status).toBe(303);
    const location = new URL(landing.headers.get('location')!);
    expect(location.pathname).toBe('/reset-password');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');

    const auth = client(server.origin).auth;
    await auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    const updated = await auth.updateUser({ password: 'new-secret' });
    expect(updated.error).toBeNull();

    expect((await client(server.origin).auth.signInWithPassword({ email, password: 'old-secret' })).error).not.toBeNull();
    expect((await client(server.origin).auth.signInWithPassword({ email, password: 'new-secret' })).error).toBeNull();

    // The link works once.
    const second = await fetch(link!, { redirect: 'manual' });
    const secondFragment = new URLSearchParams(new URL(second.headers.get('location')!).hash.slice(1));
    expect(secondFragment.get('type')).toBeNull();
    expect(secondFragment.get('error_code')).toBe('otp_expired');
  });

  it('answers a recovery request for an unknown email the same way, and sends nothing', async () => {
    const email = newEmail();
    const { error } = await client(server.origin).auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    await expect(smtp.next(email, 1500)).rejects.toThrow(/no mail/);
  });

  it('returns a recovery link to the desktop app when the app asked for it, with the session in the fragment', async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'secret123' });
    await client(server.origin).auth.resetPasswordForEmail(email, { redirectTo: 'vibeeval://reset-password' });
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(email)).text)![0];
    const location = (await fetch(link, { redirect: 'manual' })).headers.get('location')!;
    expect(location.startsWith('vibeeval://reset-password#')).toBe(true);
    const fragment = new URLSearchParams(location.slice(location.indexOf('#') + 1));
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('access_token')).toBeTruthy();
    // Only that exact address: another path of the scheme falls back to the server's own page.
    const otherEmail = newEmail();
    await client(server.origin).auth.signUp({ email: otherEmail, password: 'secret123' });
    await client(server.origin).auth.resetPasswordForEmail(otherEmail, { redirectTo: 'vibeeval://reset-password/x' });
    const other = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(otherEmail)).text)![0];
    const otherLocation = new URL((await fetch(other, { redirect: 'manual' })).headers.get('location')!);
    expect(otherLocation.origin).toBe(server.origin);
  });

  it('never redirects a recovery link to a foreign origin', async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'secret123' });
    await client(server.origin).auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example/steal' });
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(email)).text)![0];
    const location = new URL((await fetch(link, { redirect: 'manual' })).headers.get('location')!);
    expect(location.origin).toBe(server.origin);
    expect(location.pathname).toBe('/reset-password');
  });

  it('signs out: the session is gone for the access and the refresh token', async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'secret123' });
    const auth = client(server.origin).auth;
    const { data } = await auth.signInWithPassword({ email, password: 'secret123' });
    const { access_token, refresh_token } = data.session!;
    expect((await auth.signOut()).error).toBeNull();

    const user = await fetch(`${server.origin}/auth/v1/user`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(user.status).toBe(403);
    expect(((await user.json()) as { error_code: string }).error_code).toBe('session_not_found');
    expect((await client(server.origin).auth.refreshSession({ refresh_token })).error).not.toBeNull();
  });

  it('rate limits sign-in per email with 429 and Retry-After', async () => {
    const email = newEmail();
    await client(server.origin).auth.signUp({ email, password: 'secret123' });
    const attempt = (password: string) =>
      fetch(`${server.origin}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: 'local' },
        body: JSON.stringify({ email, password }),
      });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong')).status).toBe(400);
    const limited = await attempt('secret123');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const viaClient = await client(server.origin).auth.signInWithPassword({ email, password: 'secret123' });
    expect(viaClient.error?.status).toBe(429);
  });

  it('serves the settings supabase-js reads', async () => {
    const settings = (await (await fetch(`${server.origin}/auth/v1/settings`)).json()) as { mailer_autoconfirm: boolean; external: { email: boolean } };
    expect(settings.mailer_autoconfirm).toBe(true);
    expect(settings.external.email).toBe(true);
  });
});

describe('PKCE', () => {
  it('exchanges a recovery code for a session only with the right verifier, once', async () => {
    const server = await startTestServer();
    const { createHash, randomBytes } = await import('node:crypto');
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');

    /** Requests a recovery mail with a PKCE challenge and follows its link to the code. */
    const recoveryCode = async (email: string) => {
      await client(server.origin).auth.signUp({ email, password: 'secret123' });
      const recover = await fetch(`${server.origin}/auth/v1/recover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, code_challenge: challenge, code_challenge_method: 's256' }),
      });
      expect(recover.status).toBe(200);
      // No SMTP_URL: each mail is an .eml file in the outbox.
      const outbox = join(server.dataDir, 'outbox');
      for (const file of await readdir(outbox)) {
        expect((await stat(join(outbox, file))).mode & 0o777).toBe(0o600);
        const raw = (await readFile(join(outbox, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        if (!raw.includes(email)) continue;
        const link = /https?:\/\/[^\s"<]+\/auth\/v1\/verify[^\s"<]+/.exec(raw)![0].replace(/&amp;/g, '&');
        const location = new URL((await fetch(link, { redirect: 'manual' })).headers.get('location')!);
        return location.searchParams.get('code')!;
      }
      throw new Error(`no .eml for ${email}`);
    };
    const exchange = (auth_code: string, code_verifier: string) =>
      fetch(`${server.origin}/auth/v1/token?grant_type=pkce`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ auth_code, code_verifier }),
      });

    try {
      const good = await exchange(await recoveryCode(newEmail()), verifier);
      expect(good.status).toBe(200);
      expect(((await good.json()) as { access_token: string }).access_token).toMatch(/^ey/);

      const code = await recoveryCode(newEmail());
      expect((await exchange(code, 'x'.repeat(50))).status).toBe(403);
      // A failed exchange consumed the code: PKCE codes are single-use.
      expect((await exchange(code, verifier)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

describe('sign-up on a server that confirms addresses (VIBEEVAL_AUTH_CONFIRM_EMAIL=true)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer({ SMTP_URL: smtp.url, VIBEEVAL_AUTH_CONFIRM_EMAIL: 'true', SIGNIN_MAX_PER_IP: '1000' });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('says so in /settings, mails a confirmation link, and refuses password sign-in until it is followed', async () => {
    const settings = (await (await fetch(`${server.origin}/auth/v1/settings`)).json()) as { mailer_autoconfirm: boolean };
    expect(settings.mailer_autoconfirm).toBe(false);

    const email = newEmail();
    const { data, error } = await client(server.origin).auth.signUp({ email, password: 'secret123' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email_confirmed_at).toBeNull();

    const early = await client(server.origin).auth.signInWithPassword({ email, password: 'secret123' });
    expect(early.error?.message).toBe('Email not confirmed');
    expect(early.error?.code).toBe('email_not_confirmed');
    // A wrong password says nothing about the address's state.
    const wrong = await client(server.origin).auth.signInWithPassword({ email, password: 'wrong-secret' });
    expect(wrong.error?.message).toBe('Invalid login credentials');

    const mail = await smtp.next(email);
    expect(mail.subject).toBe('Confirm your vibeeval address');
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec(mail.text)?.[0];
    expect(new URL(link!).searchParams.get('type')).toBe('signup');
    const landing = await fetch(link!, { redirect: 'manual' });
    expect(landing.status).toBe(303);
    const location = new URL(landing.headers.get('location')!);
    expect(location.pathname).toBe('/dashboard');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('signup');
    const user = await fetch(`${server.origin}/auth/v1/user`, { headers: { authorization: `Bearer ${fragment.get('access_token')!}` } });
    expect(((await user.json()) as { email_confirmed_at: string | null }).email_confirmed_at).toBeTruthy();
    // The link works once.
    const replay = new URL((await fetch(link!, { redirect: 'manual' })).headers.get('location')!);
    expect(new URLSearchParams(replay.hash.slice(1)).get('error_code')).toBe('otp_expired');

    const signedIn = await client(server.origin).auth.signInWithPassword({ email, password: 'secret123' });
    expect(signedIn.error).toBeNull();
  });
});
