import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCapture, startTestServer } from '../testing/test-server';
import { SIGNUP_LIMIT_TEXT, signInLimitText } from './rate-limit';

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
    server = await startTestServer({ SMTP_URL: smtp.url, JWT_EXPIRY: '2', SIGNIN_MAX_PER_EMAIL: '3', SIGNIN_MAX_PER_IP: '1000', SIGNUP_MAX_PER_EMAIL: '3' });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  /** POST /auth/v1/signup as supabase-js sends it; the answer's status and JSON body. */
  const rawSignUp = async (email: string, password: string) => {
    const response = await fetch(`${server.origin}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'local-anon-key' },
      body: JSON.stringify({ email, password }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** A new account's first session: sign-up, then sign-in. */
  const signedUp = async (email: string, password = 'secret123') => {
    expect((await client(server.origin).auth.signUp({ email, password })).error).toBeNull();
    const { data, error } = await client(server.origin).auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    return data.session!;
  };

  it('answers sign-up the same way whether or not the address has an account, with no session; the mail says which', async () => {
    const email = newEmail();
    const first = await rawSignUp(email, 'secret123');
    const again = await rawSignUp(email.toUpperCase(), 'other123');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(Object.keys(again.body).sort()).toEqual(Object.keys(first.body).sort());
    for (const answer of [first.body, again.body]) {
      expect(answer).not.toHaveProperty('access_token');
      expect(answer).not.toHaveProperty('refresh_token');
      expect(answer).toMatchObject({ email, email_confirmed_at: null, last_sign_in_at: null, app_metadata: { provider: 'email', providers: ['email'] } });
    }
    // Signing up proves nothing about the address: it stays unconfirmed until a link mailed to it is followed.
    const session = (await client(server.origin).auth.signInWithPassword({ email, password: 'secret123' })).data.session!;
    expect(session.user.id).toBe(first.body.id);
    expect(again.body.id).not.toBe(first.body.id);
    // The second sign-up changed nothing: the account keeps its password.
    expect((await client(server.origin).auth.signInWithPassword({ email, password: 'other123' })).error?.message).toBe('Invalid login credentials');

    // Without confirmation by mail a new account gets none; an existing one is told of the try.
    const attempt = await smtp.next(email);
    expect(attempt.subject).toBe('Someone tried to sign up with your address');
    expect(attempt.text).toContain(`${server.origin}/login`);
    expect(smtp.messages.filter((message) => message.to.includes(email))).toEqual([]);

    // supabase-js reads either answer as a user without a session, which the sign-up page sends to /login.
    const viaClient = await client(server.origin).auth.signUp({ email, password: 'third123' });
    expect(viaClient.error).toBeNull();
    expect(viaClient.data.session).toBeNull();
    expect(viaClient.data.user?.email).toBe(email);
    await smtp.next(email);
  });

  it('limits sign-ups per address with 429, Retry-After and a clear message', async () => {
    const email = newEmail();
    // SIGNUP_MAX_PER_EMAIL is 3 here: a new account and two tries more.
    for (let i = 0; i < 3; i++) expect((await rawSignUp(email, 'secret123')).status).toBe(200);
    const response = await fetch(`${server.origin}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'local-anon-key' },
      body: JSON.stringify({ email, password: 'secret123' }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ code: 429, error_code: 'over_email_send_rate_limit', msg: SIGNUP_LIMIT_TEXT });
    const viaClient = await client(server.origin).auth.signUp({ email, password: 'secret123' });
    expect(viaClient.error?.status).toBe(429);
    expect(viaClient.error?.message).toBe(SIGNUP_LIMIT_TEXT);
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
    await signedUp(email);
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
    const first = (await signedUp(newEmail())).refresh_token;

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
    const token = (await signedUp(newEmail())).access_token;
    expect((await fetch(`${server.origin}/auth/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3100));
    const expired = await fetch(`${server.origin}/auth/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { msg: string }).msg).toMatch(/exp/);
  });

  it('sends a recovery mail whose link lands on /reset-password with type=recovery, and the new password works', async () => {
    const email = newEmail();
    await signedUp(email, 'old-secret');
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
    await signedUp(email);
    await client(server.origin).auth.resetPasswordForEmail(email, { redirectTo: 'vibeeval://reset-password' });
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(email)).text)![0];
    const location = (await fetch(link, { redirect: 'manual' })).headers.get('location')!;
    expect(location.startsWith('vibeeval://reset-password#')).toBe(true);
    const fragment = new URLSearchParams(location.slice(location.indexOf('#') + 1));
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('access_token')).toBeTruthy();
    // Only that exact address: another path of the scheme falls back to the server's own page.
    const otherEmail = newEmail();
    await signedUp(otherEmail);
    await client(server.origin).auth.resetPasswordForEmail(otherEmail, { redirectTo: 'vibeeval://reset-password/x' });
    const other = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(otherEmail)).text)![0];
    const otherLocation = new URL((await fetch(other, { redirect: 'manual' })).headers.get('location')!);
    expect(otherLocation.origin).toBe(server.origin);
  });

  it('never redirects a recovery link to a foreign origin', async () => {
    const email = newEmail();
    await signedUp(email);
    await client(server.origin).auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example/steal' });
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(email)).text)![0];
    const location = new URL((await fetch(link, { redirect: 'manual' })).headers.get('location')!);
    expect(location.origin).toBe(server.origin);
    expect(location.pathname).toBe('/reset-password');
  });

  it('signs out: the session is gone for the access and the refresh token', async () => {
    const email = newEmail();
    await signedUp(email);
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
    await signedUp(email);
    const attempt = (password: string) =>
      fetch(`${server.origin}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: 'local' },
        body: JSON.stringify({ email, password }),
      });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong')).status).toBe(400);
    const limited = await attempt('secret123');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error_code: 'over_request_rate_limit', msg: signInLimitText(retryAfter) });
    const viaClient = await client(server.origin).auth.signInWithPassword({ email, password: 'secret123' });
    expect(viaClient.error?.status).toBe(429);
    expect(viaClient.error?.message).toMatch(/^Too many sign-in attempts\. Try again in \d+ (minutes|minute|seconds|second)\.$/);
  });

  it('counts only failed sign-ins of an address: a success clears them, so the next failures start again', async () => {
    const email = newEmail();
    await signedUp(email);
    const attempt = (password: string) =>
      fetch(`${server.origin}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: 'local' },
        body: JSON.stringify({ email, password }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await attempt('wrong')).status, (await attempt('wrong')).status, (await attempt('secret123')).status);
    }
    // Concurrent successes hold points only while the password is checked: none is refused for the others.
    const together = await Promise.all([attempt('secret123'), attempt('secret123'), attempt('secret123')]);
    statuses.push(...together.map((response) => response.status));
    expect(statuses).toEqual([400, 400, 200, 400, 400, 200, 400, 400, 200, 200, 200, 200]);
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
        if (!raw.includes(email) || !raw.includes('type=recovery')) continue;
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

describe('sign-in limit per client', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ SIGNIN_MAX_PER_IP: '3', SIGNIN_MAX_PER_EMAIL: '3' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signIn = (email: string, password: string) =>
    fetch(`${server.origin}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'local-anon-key' },
      body: JSON.stringify({ email, password }),
    });

  it('never refuses the successful sign-ins of one client; its failures, on any address, reach SIGNIN_MAX_PER_IP and say the wait', async () => {
    const email = newEmail();
    expect((await client(server.origin).auth.signUp({ email, password: 'secret123' })).error).toBeNull();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await signIn(email, 'secret123')).status);
    for (let i = 0; i < 3; i++) statuses.push((await signIn(newEmail(), 'wrong')).status);
    const limited = await signIn(email, 'secret123');
    statuses.push(limited.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 400, 400, 400, 429]);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error_code: 'over_request_rate_limit', msg: signInLimitText(retryAfter) });
    // The default window is 15 minutes: the wait reads in minutes.
    expect(signInLimitText(retryAfter)).toMatch(/^Too many sign-in attempts\. Try again in 1[45] minutes\.$/);
  });
});

describe('sign-up limit per client', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ SIGNUP_MAX_PER_IP: '3' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses the sign-ups of one client past SIGNUP_MAX_PER_IP with 429 and Retry-After, whatever the address', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await fetch(`${server.origin}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: 'local-anon-key' },
        body: JSON.stringify({ email: newEmail(), password: 'secret123' }),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last!.json()).toMatchObject({ error_code: 'over_request_rate_limit', msg: SIGNUP_LIMIT_TEXT });
  });
});
