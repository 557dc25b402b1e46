import { createHash, randomBytes } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import { OAuth2Server } from 'oauth2-mock-server';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSmtpCapture, startTestServer } from '../testing/test-server';
import { apiCaller } from '../testing/http';
import { GOOGLE_NOT_CONFIGURED } from '../../common/auth';

// The stand-in for Google: oauth2-mock-server, a local OpenID Connect provider. It approves every authorization
// request at once; the test decides who signs in (the ID token's claims) and may turn the answer into a refusal.
interface GoogleUser {
  sub: string;
  email: string;
  email_verified: boolean;
}

let counter = 0;
const unique = () => `${Date.now()}-${++counter}`;
const googleUser = (overrides: Partial<GoogleUser> = {}): GoogleUser => ({
  sub: `google-${unique()}`,
  email: `g${unique()}@example.test`,
  email_verified: true,
  ...overrides,
});

const client = (origin: string) =>
  createClient(origin, 'local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });

const location = (response: Response) => {
  expect([302, 303]).toContain(response.status);
  return response.headers.get('location')!;
};

describe('sign-in with Google, the server as OpenID Connect client (the stand-in for Google is oauth2-mock-server)', () => {
  const google = new OAuth2Server();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let pool: pg.Pool;
  let next: GoogleUser;
  let refuse: string | null;
  const logs: string[] = [];

  beforeAll(async () => {
    await google.issuer.keys.generate('RS256');
    await google.start(0, '127.0.0.1');
    google.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, next));
    google.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
      if (!refuse) return;
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', refuse);
    });
    smtp = await startSmtpCapture();
    server = await startTestServer(
      { LOG_LEVEL: 'info', SMTP_URL: smtp.url, GOOGLE_CLIENT_ID: 'vibeeval-test', GOOGLE_CLIENT_SECRET: 'test-secret', GOOGLE_ISSUER_URL: google.issuer.url! },
      { logDestination: { write: (line: string) => void logs.push(line) } },
    );
    pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
    await google.stop();
    await smtp?.close();
  });
  beforeEach(() => {
    next = googleUser();
    refuse = null;
  });

  /** Follows the redirects from our /authorize through the provider to our /callback; returns /callback's answer. */
  async function signIn(query: Record<string, string>) {
    const start = await fetch(`${server.origin}/auth/v1/authorize?${new URLSearchParams({ provider: 'google', ...query }).toString()}`, { redirect: 'manual' });
    const atGoogle = location(start);
    expect(atGoogle.startsWith(google.issuer.url!)).toBe(true);
    const back = location(await fetch(atGoogle, { redirect: 'manual' }));
    expect(back.startsWith(`${server.origin}/auth/v1/callback?`)).toBe(true);
    return { callback: back, target: location(await fetch(back, { redirect: 'manual' })) };
  }

  const fragment = (url: string) => new URLSearchParams(new URL(url).hash.slice(1));
  const userOf = async (accessToken: string) => {
    const response = await fetch(`${server.origin}/auth/v1/user`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as { id: string; email: string; app_metadata: { providers: string[] } };
  };
  const pkcePair = () => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };

  it('says in /settings that Google is on, and asks Google for a code with PKCE S256, state, nonce and the scopes', async () => {
    const settings = (await (await fetch(`${server.origin}/auth/v1/settings`)).json()) as { external: { google: boolean } };
    expect(settings.external.google).toBe(true);
    const start = await fetch(`${server.origin}/auth/v1/authorize?provider=google`, { redirect: 'manual' });
    expect(start.status).toBe(303);
    const params = new URL(location(start)).searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('redirect_uri')).toBe(`${server.origin}/auth/v1/callback`);
    expect(params.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
  });

  it('creates a confirmed account without a password, and the same Google subject signs in again as it', async () => {
    const { target } = await signIn({ redirect_to: `${server.origin}/dashboard` });
    expect(new URL(target).pathname).toBe('/dashboard');
    const first = fragment(target);
    expect(first.get('token_type')).toBe('bearer');
    expect(Number(first.get('expires_in'))).toBeGreaterThan(0);
    expect(Number(first.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);
    const user = await userOf(first.get('access_token')!);
    expect(user.email).toBe(next.email);
    expect(user.app_metadata.providers).toEqual(['google']);

    // Same subject, changed address at Google: still the same account.
    next = { ...next, email: `changed-${next.email}` };
    const again = fragment((await signIn({ redirect_to: `${server.origin}/dashboard` })).target);
    expect((await userOf(again.get('access_token')!)).id).toBe(user.id);

    // No password was ever set: password sign-in refuses it cleanly.
    const password = await client(server.origin).auth.signInWithPassword({ email: user.email, password: 'anything1' });
    expect(password.error?.message).toBe('Invalid login credentials');
  });

  it('makes one account when the same first sign-in completes twice at once', async () => {
    const [a, b] = await Promise.all([signIn({}), signIn({})]);
    const first = await userOf(fragment(a.target).get('access_token')!);
    const second = await userOf(fragment(b.target).get('access_token')!);
    expect(second.id).toBe(first.id);
  });

  /** A signed-in password account: sign-up, then sign-in (sign-up's answer need not carry a session). */
  async function passwordAccount(email: string, password: string) {
    const signedUp = await client(server.origin).auth.signUp({ email, password });
    expect(signedUp.error).toBeNull();
    const signedIn = await client(server.origin).auth.signInWithPassword({ email, password });
    expect(signedIn.error).toBeNull();
    return signedIn.data.session!;
  }
  const api = apiCaller(() => server.origin);
  const projectIds = async (token: string) => {
    const answer = await api(token, 'GET', '/projects');
    expect(answer.status).toBe(200);
    return (answer.json as { id: string }[]).map((p) => p.id);
  };
  const newProject = async (token: string, name: string) => {
    const answer = await api(token, 'POST', '/project', { url: 'http://127.0.0.1:9/', status: 'active', instruction_text: name, num_pages: 1 });
    expect(answer.status).toBe(201);
    return (answer.json as { id: string }).id;
  };

  /** Follows the link of a recovery mail for this address: its owner proved they read its mail. */
  async function provenByRecovery(email: string) {
    expect((await client(server.origin).auth.resetPasswordForEmail(email)).error).toBeNull();
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec((await smtp.next(email)).text)?.[0];
    expect(link).toBeDefined();
    expect((await fetch(link!, { redirect: 'manual' })).status).toBe(303);
  }

  it('does not hand an account made with an unproven address to the Google identity for it (pre-account takeover)', async () => {
    const email = `victim-${unique()}@example.test`;
    // Someone else signs up first with the victim's address, and prepares a project there.
    const attacker = await passwordAccount(email, 'attacker-secret');
    const planted = await newProject(attacker.access_token, 'planted');

    // The victim signs in with Google: a verified identity for that address.
    next = googleUser({ email });
    const victimToken = fragment((await signIn({})).target).get('access_token')!;
    const victim = await userOf(victimToken);
    expect(victim.email).toBe(email);
    expect(victim.id).not.toBe(attacker.user.id);
    expect(victim.app_metadata.providers).toEqual(['google']);

    // The attacker's password, access token and refresh token no longer work.
    const password = await client(server.origin).auth.signInWithPassword({ email, password: 'attacker-secret' });
    expect(password.error?.message).toBe('Invalid login credentials');
    expect((await api(attacker.access_token, 'GET', '/auth/v1/user')).status).toBe(403);
    expect((await api(attacker.access_token, 'GET', '/projects')).status).toBe(401);
    expect((await client(server.origin).auth.refreshSession({ refresh_token: attacker.refresh_token })).error).not.toBeNull();

    // Nothing the attacker made is the victim's, and the victim's own work stays theirs.
    expect(await projectIds(victimToken)).not.toContain(planted);
    const own = await newProject(victimToken, 'own');
    expect(await projectIds(victimToken)).toEqual([own]);

    // The victim's next Google sign-in is the same new account.
    const again = fragment((await signIn({})).target).get('access_token')!;
    expect((await userOf(again)).id).toBe(victim.id);
  });

  /** The link of the mail that offers a set-aside account's records to the address's owner, and the mail. */
  async function adoptionMail(email: string) {
    const mail = await smtp.next(email);
    const link = /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    expect(new URL(link!).searchParams.get('type')).toBe('adopt');
    return { mail, link: link! };
  }
  const userExists = async (id: string) => (await pool.query('select 1 from users where id = $1', [id])).rowCount === 1;

  it('mails the address of a set-aside account a link that moves its projects into the Google account; webhooks and keys stay behind', async () => {
    const email = `owner-${unique()}@example.test`;
    // The address's owner made a password account first (never confirming the address) and worked in it.
    const earlier = await passwordAccount(email, 'owner-secret');
    const project = await newProject(earlier.access_token, 'earlier work');
    const hookUrl = `http://127.0.0.1:9/hook-${unique()}`;
    expect((await api(earlier.access_token, 'POST', '/webhook', { url: hookUrl })).status).toBe(201);
    expect((await api(earlier.access_token, 'POST', '/api_keys', { name: 'ci' })).status).toBe(201);

    next = googleUser({ email });
    const token = fragment((await signIn({})).target).get('access_token')!;
    const owner = await userOf(token);
    expect(owner.id).not.toBe(earlier.user.id);

    const { mail, link } = await adoptionMail(email);
    const made = new Date().toISOString().slice(0, 10);
    expect(mail.text).toContain(`An account with a password was made with this address on ${made} (UTC) without the address being confirmed`);
    expect(mail.text).toContain('It holds 1 project, 0 scenarios, 1 webhook and 1 API key.');
    expect(mail.text).toContain(`  ${hookUrl}\n`);
    expect(mail.text).toContain('Its API keys are deleted, never moved.');
    expect(mail.html).toContain(`<li>${hookUrl}</li>`);

    // Until the link is followed, the Google account sees nothing of the earlier one.
    expect(await projectIds(token)).toEqual([]);
    expect(await userExists(earlier.user.id)).toBe(true);

    const landed = location(await fetch(link, { redirect: 'manual' }));
    expect(new URL(landed).origin + new URL(landed).pathname).toBe(`${server.origin}/dashboard/projects`);
    const session = fragment(landed);
    expect(session.get('type')).toBe('adopt');
    expect((await userOf(session.get('access_token')!)).id).toBe(owner.id);

    // The project is the Google account's now; the webhook was deleted, not moved; the earlier account is gone.
    await vi.waitFor(async () => expect(await projectIds(token)).toEqual([project]), { timeout: 5_000, interval: 50 });
    const hooks = await api(token, 'GET', '/webhooks');
    expect(hooks.status).toBe(200);
    expect(hooks.json).toEqual([]);
    expect((await pool.query('select 1 from webhooks where url = $1', [hookUrl])).rowCount).toBe(0);
    expect((await pool.query('select 1 from api_keys where user_id = $1', [earlier.user.id])).rowCount).toBe(0);
    expect(await userExists(earlier.user.id)).toBe(false);
    expect((await pool.query('select 1 from workspaces where id = $1', [earlier.user.id])).rowCount).toBe(0);
    expect((await pool.query<{ user_id: string }>('select user_id from projects where id = $1', [project])).rows).toEqual([{ user_id: owner.id }]);

    // The link works once.
    const again = fragment(location(await fetch(link, { redirect: 'manual' })));
    expect(again.get('error_code')).toBe('otp_expired');
    expect(again.get('error_description')).toBe('This link is invalid or was already used, or the account it would move no longer exists.');
    expect(again.get('access_token')).toBeNull();
    expect(await projectIds(token)).toEqual([project]);
  });

  it('refuses an expired adoption link, and the set-aside account stays apart', async () => {
    const email = `late-${unique()}@example.test`;
    const earlier = await passwordAccount(email, 'owner-secret');
    const project = await newProject(earlier.access_token, 'kept apart');
    next = googleUser({ email });
    const token = fragment((await signIn({})).target).get('access_token')!;
    const { mail, link } = await adoptionMail(email);
    expect(mail.text).toContain('It holds 1 project, 0 scenarios, 0 webhooks and 0 API keys.');
    expect(mail.text).not.toContain('check these URLs');
    const expired = await pool.query(`update one_time_tokens set expires_at = now() - interval '1 second' where user_id = $1 and kind = 'adopt'`, [earlier.user.id]);
    expect(expired.rowCount).toBe(1);

    const answer = fragment(location(await fetch(link, { redirect: 'manual' })));
    expect(answer.get('error_code')).toBe('otp_expired');
    expect(answer.get('error_description')).toBe('This link has expired (it works for 24 hours); the account it would move stays apart.');
    expect(await projectIds(token)).toEqual([]);
    expect(await userExists(earlier.user.id)).toBe(true);
    expect((await pool.query('select 1 from projects where id = $1 and workspace_id = $2', [project, earlier.user.id])).rowCount).toBe(1);
  });

  it('links the Google identity to an account whose address was proven by a recovery link, which keeps its password', async () => {
    const email = `proven-${unique()}@example.test`;
    const owner = await passwordAccount(email, 'first-secret');
    const project = await newProject(owner.access_token, 'kept');
    await provenByRecovery(email);
    next = googleUser({ email: email.toUpperCase() });
    const signedIn = fragment((await signIn({})).target).get('access_token')!;
    const user = await userOf(signedIn);
    expect(user.id).toBe(owner.user.id);
    expect(user.app_metadata.providers).toEqual(['email', 'google']);
    expect(await projectIds(signedIn)).toEqual([project]);
    expect((await client(server.origin).auth.signInWithPassword({ email, password: 'first-secret' })).error).toBeNull();
  });

  it('refuses an email Google has not verified, and links nothing', async () => {
    const email = `unverified-${unique()}@example.test`;
    const { data } = await client(server.origin).auth.signUp({ email, password: 'secret123' });
    next = googleUser({ email, email_verified: false });
    const { target } = await signIn({ redirect_to: `${server.origin}/dashboard` });
    expect(new URL(target).pathname).toBe('/login');
    expect(fragment(target).get('error_code')).toBe('email_not_verified');
    expect(fragment(target).has('access_token')).toBe(false);
    // Verified at Google later, and proven here: the account is linked then, not before.
    await provenByRecovery(email);
    next = { ...next, email_verified: true };
    const linked = fragment((await signIn({})).target);
    expect((await userOf(linked.get('access_token')!)).id).toBe(data.user!.id);
  });

  it('returns a one-time code to a PKCE client (the desktop app), keeping its own query; a replayed code is refused', async () => {
    const { verifier, challenge } = pkcePair();
    const { target } = await signIn({
      redirect_to: 'vibeeval://auth/callback?state=app-state',
      code_challenge: challenge,
      code_challenge_method: 's256',
    });
    const back = new URL(target);
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe('vibeeval://auth/callback');
    expect(back.searchParams.get('state')).toBe('app-state');
    const code = back.searchParams.get('code')!;
    expect(code.length).toBeGreaterThan(20);

    const exchange = () =>
      fetch(`${server.origin}/auth/v1/token?grant_type=pkce`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: 'local' },
        body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
      });
    const first = await exchange();
    expect(first.status).toBe(200);
    const session = (await first.json()) as { access_token: string };
    expect((await userOf(session.access_token)).email).toBe(next.email);
    const replay = await exchange();
    expect(replay.status).toBe(404);
    expect(((await replay.json()) as { error_code: string }).error_code).toBe('flow_state_not_found');
  });

  it('sends denied consent back to the client with the error, and the flow is gone', async () => {
    refuse = 'access_denied';
    const { challenge } = pkcePair();
    const { callback, target } = await signIn({ redirect_to: 'vibeeval://auth/callback?state=s1', code_challenge: challenge, code_challenge_method: 's256' });
    const back = new URL(target);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe('Sign-in with Google was cancelled.');
    expect(back.searchParams.get('state')).toBe('s1');
    expect(back.searchParams.has('code')).toBe(false);
    const again = location(await fetch(callback, { redirect: 'manual' }));
    expect(fragment(again).get('error_code')).toBe('bad_oauth_state');

    // Implicit clients see it on /login, the page that shows a redirect's error.
    const implicit = (await signIn({ redirect_to: `${server.origin}/dashboard` })).target;
    expect(new URL(implicit).pathname).toBe('/login');
    expect(fragment(implicit).get('error')).toBe('access_denied');
  });

  it('refuses an unknown state and a state used twice (state mismatch)', async () => {
    const unknown = location(await fetch(`${server.origin}/auth/v1/callback?code=abc&state=not-a-state`, { redirect: 'manual' }));
    expect(new URL(unknown).pathname).toBe('/login');
    expect(fragment(unknown).get('error_code')).toBe('bad_oauth_state');

    const { callback, target } = await signIn({});
    expect(fragment(target).has('access_token')).toBe(true);
    const twice = location(await fetch(callback, { redirect: 'manual' }));
    expect(fragment(twice).get('error_code')).toBe('bad_oauth_state');
    expect(fragment(twice).has('access_token')).toBe(false);
  });

  it('returns only to our own pages or the desktop callback', async () => {
    const start = await fetch(
      `${server.origin}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent('https://evil.example/x')}&code_challenge=${pkcePair().challenge}&code_challenge_method=s256`,
      { redirect: 'manual' },
    );
    const state = new URL(location(start)).searchParams.get('state')!;
    refuse = 'access_denied';
    const back = location(await fetch(`${server.origin}/auth/v1/callback?error=access_denied&state=${state}`, { redirect: 'manual' }));
    expect(new URL(back).origin).toBe(server.origin);
    for (const other of ['vibeeval://auth/other', 'vibeeval://auth/callback#x', 'vibeeval://evil/callback']) {
      const answer = await fetch(`${server.origin}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(other)}`, { redirect: 'manual' });
      expect(location(answer).startsWith(google.issuer.url!)).toBe(true);
    }
  });

  it('never logs codes, tokens or state', async () => {
    const { callback, target } = await signIn({});
    const state = new URL(callback).searchParams.get('state')!;
    const code = new URL(callback).searchParams.get('code')!;
    const text = logs.join('\n');
    expect(text).toContain('/auth/v1/callback');
    for (const secret of [state, code, fragment(target).get('access_token')!, fragment(target).get('refresh_token')!]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('sign-in with Google without a Google client', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('says so in /settings and sends /authorize back to /login with the reason', async () => {
    const settings = (await (await fetch(`${server.origin}/auth/v1/settings`)).json()) as { external: { google: boolean } };
    expect(settings.external.google).toBe(false);
    const answer = await fetch(`${server.origin}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(`${server.origin}/dashboard`)}`, { redirect: 'manual' });
    const target = new URL(location(answer));
    expect(target.pathname).toBe('/login');
    expect(new URLSearchParams(target.hash.slice(1)).get('error_description')).toBe(GOOGLE_NOT_CONFIGURED);
  });
});

describe('sign-in with Google when the issuer cannot be reached', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    server = await startTestServer({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', GOOGLE_ISSUER_URL: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends /authorize back with a clear reason naming the issuer', async () => {
    const answer = await fetch(`${server.origin}/auth/v1/authorize?provider=google`, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    const target = new URL(answer.headers.get('location')!);
    expect(target.pathname).toBe('/login');
    const params = new URLSearchParams(target.hash.slice(1));
    expect(params.get('error_code')).toBe('provider_unavailable');
    expect(params.get('error_description')).toMatch(/^Sign-in with Google is unavailable: the provider at http:\/\/127\.0\.0\.1:9 could not be reached/);
  });

  it('limits the sign-ins one address may start (each stores a flow for ten minutes)', async () => {
    const codes: (string | null)[] = [];
    for (let i = 0; i < 31; i++) {
      const answer = await fetch(`${server.origin}/auth/v1/authorize?provider=google`, { redirect: 'manual' });
      codes.push(new URLSearchParams(new URL(answer.headers.get('location')!).hash.slice(1)).get('error_code'));
    }
    // The test above started one already: 29 more pass the limit, then it refuses.
    expect(codes.slice(0, 29).every((code) => code === 'provider_unavailable')).toBe(true);
    expect(codes.slice(29)).toEqual(['over_request_rate_limit', 'over_request_rate_limit']);
  });
});
