import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcEventPayload } from '../common/ipc';
import { parseDeepLink } from './deep-links';
import { createGoogleSignIn, PENDING_SIGN_IN_TTL_MS } from './google-sign-in';

type AuthEvent = IpcEventPayload<'vibeeval:event:auth'>;
const SERVER = 'http://127.0.0.1:5555';
const AUTH = 'https://auth.example.test';

/** A fake network: /app-config names the auth server; /token answers as the test says and records the request. */
function fakeNetwork(token: { status: number; body: unknown }) {
  const tokenRequests: { url: string; headers: Record<string, string>; body: Record<string, string> }[] = [];
  const fetch = vi.fn(async (input: string, init?: RequestInit) => {
    const url = input;
    if (url === `${SERVER}/app-config`) {
      return Response.json({ supabaseUrl: `${AUTH}/`, supabaseAnonKey: 'anon-key', mode: 'local', version: '1' });
    }
    if (url.startsWith(`${AUTH}/auth/v1/token`)) {
      tokenRequests.push({ url, headers: init?.headers as Record<string, string>, body: JSON.parse(init?.body as string) as Record<string, string> });
      return Response.json(token.body, { status: token.status });
    }
    return new Response('not found', { status: 404 });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, tokenRequests };
}

function setUp(token = { status: 200, body: { access_token: 'access-1', refresh_token: 'refresh-1', token_type: 'bearer' } as unknown }) {
  const network = fakeNetwork(token);
  const events: AuthEvent[] = [];
  const opened: string[] = [];
  const logs: string[] = [];
  let clock = 1_000_000;
  const signIn = createGoogleSignIn({
    serverOrigin: () => SERVER,
    openExternal: async (url) => {
      opened.push(url);
      return true;
    },
    send: (event) => void events.push(event),
    fetch: network.fetch,
    now: () => clock,
    log: (message) => void logs.push(message),
  });
  /** The link the browser comes back with, parsed as main parses it. */
  const link = (query: Record<string, string>) => {
    const parsed = parseDeepLink(`vibeeval://auth/callback?${new URLSearchParams(query).toString()}`);
    if (parsed?.kind !== 'auth-callback' && parsed?.kind !== 'auth-error') throw new Error('not an auth link');
    return parsed;
  };
  const pendingState = () => {
    const redirect = new URL(new URL(opened.at(-1)!).searchParams.get('redirect_to')!);
    return redirect.searchParams.get('state')!;
  };
  return { signIn, events, opened, logs, network, link, pendingState, advance: (ms: number) => (clock += ms) };
}

describe('sign-in with Google in the desktop app', () => {
  let t: ReturnType<typeof setUp>;
  beforeEach(() => {
    t = setUp();
  });

  it('opens the auth server named by /app-config in the system browser, with a PKCE challenge and a state to come back with', async () => {
    await expect(t.signIn.start()).resolves.toBe(true);
    expect(t.opened).toHaveLength(1);
    const url = new URL(t.opened[0]!);
    expect(`${url.origin}${url.pathname}`).toBe(`${AUTH}/auth/v1/authorize`);
    expect(url.searchParams.get('provider')).toBe('google');
    expect(url.searchParams.get('code_challenge_method')).toBe('s256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const redirect = new URL(url.searchParams.get('redirect_to')!);
    expect(`${redirect.protocol}//${redirect.host}${redirect.pathname}`).toBe('vibeeval://auth/callback');
    expect(t.pendingState()).toMatch(/^[\w-]{32}$/);
  });

  it('exchanges the code with its verifier and sends the session to the window', async () => {
    await t.signIn.start();
    const challenge = new URL(t.opened[0]!).searchParams.get('code_challenge');
    await t.signIn.receive(t.link({ state: t.pendingState(), code: 'the-code' }));
    expect(t.events).toEqual([{ kind: 'signed-in', accessToken: 'access-1', refreshToken: 'refresh-1' }]);
    const [request] = t.network.tokenRequests;
    expect(request?.url).toBe(`${AUTH}/auth/v1/token?grant_type=pkce`);
    expect(request?.headers.apikey).toBe('anon-key');
    expect(request?.body.auth_code).toBe('the-code');
    expect(createHash('sha256').update(request!.body.code_verifier!).digest('base64url')).toBe(challenge);
  });

  it('ignores a callback whose state does not match, and logs it without the values', async () => {
    await t.signIn.start();
    const state = t.pendingState();
    await t.signIn.receive(t.link({ state: 'forged-state', code: 'attacker-code' }));
    expect(t.events).toEqual([]);
    expect(t.network.tokenRequests).toEqual([]);
    expect(t.logs).toHaveLength(1);
    expect(t.logs[0]).toMatch(/state does not match/);
    expect(t.logs.join()).not.toMatch(/forged-state|attacker-code/);
    // The real callback still works afterwards, and only once.
    await t.signIn.receive(t.link({ state, code: 'the-code' }));
    await t.signIn.receive(t.link({ state, code: 'the-code' }));
    expect(t.events).toEqual([{ kind: 'signed-in', accessToken: 'access-1', refreshToken: 'refresh-1' }]);
    expect(t.logs.at(-1)).toMatch(/no sign-in is pending/);
  });

  it('ignores a callback when no sign-in was started', async () => {
    await t.signIn.receive(t.link({ state: 'any', code: 'code' }));
    expect(t.events).toEqual([]);
    expect(t.network.tokenRequests).toEqual([]);
  });

  it('sends the error of an error link of the pending sign-in', async () => {
    await t.signIn.start();
    await t.signIn.receive(t.link({ state: 'other', error: 'access_denied', error_description: 'forged' }));
    expect(t.events).toEqual([]);
    await t.signIn.receive(t.link({ state: t.pendingState(), error: 'access_denied', error_description: 'Sign-in with Google was cancelled.' }));
    expect(t.events).toEqual([{ kind: 'error', message: 'Sign-in with Google was cancelled.' }]);
  });

  it('refuses a callback after ten minutes with an error, without exchanging the code', async () => {
    await t.signIn.start();
    const state = t.pendingState();
    t.advance(PENDING_SIGN_IN_TTL_MS + 1);
    await t.signIn.receive(t.link({ state, code: 'late-code' }));
    expect(t.network.tokenRequests).toEqual([]);
    expect(t.events).toEqual([{ kind: 'error', message: 'The sign-in with Google took too long. Please try again.' }]);
  });

  it('keeps one pending sign-in: starting again replaces the first', async () => {
    await t.signIn.start();
    const first = t.pendingState();
    await t.signIn.start();
    await t.signIn.receive(t.link({ state: first, code: 'code' }));
    expect(t.events).toEqual([]);
    await t.signIn.receive(t.link({ state: t.pendingState(), code: 'code' }));
    expect(t.events).toHaveLength(1);
  });

  it("sends the auth server's refusal of the code as an error", async () => {
    t = setUp({ status: 404, body: { code: 404, error_code: 'flow_state_not_found', msg: 'invalid flow state, no valid flow state found' } });
    await t.signIn.start();
    await t.signIn.receive(t.link({ state: t.pendingState(), code: 'used-code' }));
    expect(t.events).toEqual([{ kind: 'error', message: 'invalid flow state, no valid flow state found' }]);
  });

  it('reports a browser that cannot be opened, and keeps nothing pending', async () => {
    const events: AuthEvent[] = [];
    const signIn = createGoogleSignIn({
      serverOrigin: () => SERVER,
      openExternal: async () => false,
      send: (event) => void events.push(event),
      fetch: fakeNetwork({ status: 200, body: {} }).fetch,
    });
    await expect(signIn.start()).resolves.toBe(false);
    expect(events).toEqual([{ kind: 'error', message: 'The system browser could not be opened.' }]);
  });

  it('reports a server that is not running', async () => {
    const events: AuthEvent[] = [];
    const signIn = createGoogleSignIn({ serverOrigin: () => null, openExternal: async () => true, send: (event) => void events.push(event) });
    await expect(signIn.start()).resolves.toBe(false);
    expect(events).toEqual([{ kind: 'error', message: 'The vibeeval server is not running.' }]);
  });
});
