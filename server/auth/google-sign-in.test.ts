import { createHash, randomBytes } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import { OAuth2Server } from 'oauth2-mock-server';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/test-server';
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
    server = await startTestServer(
      { LOG_LEVEL: 'info', GOOGLE_CLIENT_ID: 'vibeeval-test', GOOGLE_CLIENT_SECRET: 'test-secret', GOOGLE_ISSUER_URL: google.issuer.url! },
      { logDestination: { write: (line: string) => void logs.push(line) } },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await google.stop();
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

  it('links a password account with the same verified email, which keeps its password', async () => {
    const email = `linked-${unique()}@example.test`;
    const { data } = await client(server.origin).auth.signUp({ email, password: 'secret123' });
    next = googleUser({ email: email.toUpperCase() });
    const signedIn = fragment((await signIn({})).target);
    const user = await userOf(signedIn.get('access_token')!);
    expect(user.id).toBe(data.user!.id);
    expect(user.app_metadata.providers).toEqual(['email', 'google']);
    const password = await client(server.origin).auth.signInWithPassword({ email, password: 'secret123' });
    expect(password.error).toBeNull();
  });

  it('refuses an email Google has not verified, and links nothing', async () => {
    const email = `unverified-${unique()}@example.test`;
    const { data } = await client(server.origin).auth.signUp({ email, password: 'secret123' });
    next = googleUser({ email, email_verified: false });
    const { target } = await signIn({ redirect_to: `${server.origin}/dashboard` });
    expect(new URL(target).pathname).toBe('/login');
    expect(fragment(target).get('error_code')).toBe('email_not_verified');
    expect(fragment(target).has('access_token')).toBe(false);
    // Verified later: the account is linked then, not before.
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
    const start = await fetch(`${server.origin}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent('https://evil.example/x')}&code_challenge=${pkcePair().challenge}&code_challenge_method=s256`, { redirect: 'manual' });
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
