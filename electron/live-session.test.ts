import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer } from '../server/testing/test-server';
import { apiHeaders, createSessionSource, REFRESH_MARGIN_MS, SESSION_KEY, watchSessionWrites } from './live-session';
import type { Vault } from './vault';

// The refresh rule against the real token endpoint (each refresh token works once), with a fake clock.

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

interface StoredSession {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  expires_in: number;
  token_type: string;
  user: { id: string; email: string };
}

function memoryVault(entries: Record<string, string> = {}): Vault & { entries: Map<string, string> } {
  const map = new Map(Object.entries(entries));
  return {
    entries: map,
    getItem: async (key) => map.get(key) ?? null,
    setItem: async (key, value) => void map.set(key, value),
    removeItem: async (key) => void map.delete(key),
  };
}

let counter = 0;
async function signUp(): Promise<StoredSession> {
  const account = JSON.stringify({ email: `session${Date.now()}${counter++}@example.com`, password: 'secret123' });
  const response = await fetch(`${server.origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'local' },
    body: account,
  });
  if (!response.ok) throw new Error(`sign-up answered ${response.status}`);
  // Sign-up answers without a session (it says nothing about whether the address had an account): sign in.
  const signIn = await fetch(`${server.origin}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'local' },
    body: account,
  });
  return (await signIn.json()) as StoredSession;
}

/** A fetch that counts token refreshes. */
function countingFetch() {
  const spy = vi.fn<typeof fetch>((input, init) => fetch(input, init));
  return { spy, refreshes: () => spy.mock.calls.filter(([url]) => (url instanceof Request ? url.url : url.toString()).includes('grant_type=refresh_token')).length };
}

async function ticketStatus(token: string): Promise<number> {
  const response = await fetch(`${server.origin}/live/ticket`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  return response.status;
}

describe('createSessionSource', () => {
  it('only reads while the window exists, even with the token about to expire', async () => {
    const stored = await signUp();
    const vault = memoryVault({ [SESSION_KEY]: JSON.stringify(stored) });
    const { spy, refreshes } = countingFetch();
    const source = createSessionSource({ vault, origin: server.origin, hasWindow: () => true, fetch: spy, now: () => stored.expires_at * 1000 - 10_000 });
    expect(await source.current()).toEqual({ userId: stored.user.id, accessToken: stored.access_token });
    expect(source.signedIn).toBe(true);
    expect(refreshes()).toBe(0);
    expect(vault.entries.get(SESSION_KEY)).toBe(JSON.stringify(stored));
  });

  it('carries the workspace the app shows, which the server takes for the live ticket, and refuses one the user is not in', async () => {
    const stored = await signUp();
    const vault = memoryVault({ [SESSION_KEY]: JSON.stringify(stored) });
    let workspace: string | null = null;
    const source = createSessionSource({ vault, origin: server.origin, hasWindow: () => true, workspace: () => workspace });
    const personal = await source.current();
    expect(personal).toEqual({ userId: stored.user.id, accessToken: stored.access_token, workspaceId: null });
    expect(apiHeaders(personal!)).toEqual({ authorization: `Bearer ${stored.access_token}` });

    // A personal workspace's id is its owner's: named explicitly, the server answers as without the header.
    workspace = stored.user.id;
    const named = await source.current();
    expect(apiHeaders(named!)).toEqual({ authorization: `Bearer ${stored.access_token}`, 'x-vibeeval-workspace': stored.user.id });
    const granted = await fetch(`${server.origin}/live/ticket`, { method: 'POST', headers: apiHeaders(named!) });
    expect(granted.status).toBe(200);

    // Someone else's workspace (another user's personal one) is not found, like any record of someone else's.
    workspace = (await signUp()).user.id;
    const refused = await fetch(`${server.origin}/live/ticket`, { method: 'POST', headers: apiHeaders((await source.current())!) });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ detail: 'Workspace not found' });
  });

  it('refreshes near expiry when no window exists, once for concurrent readers, and writes the same shape back', async () => {
    const stored = await signUp();
    const vault = memoryVault({ [SESSION_KEY]: JSON.stringify(stored) });
    const { spy, refreshes } = countingFetch();
    const clock = { now: stored.expires_at * 1000 - REFRESH_MARGIN_MS + 1_000 };
    const source = createSessionSource({ vault, origin: server.origin, hasWindow: () => false, fetch: spy, now: () => clock.now });
    const [first, second] = await Promise.all([source.current(), source.current()]);
    expect(refreshes()).toBe(1);
    expect(second).toEqual(first);
    const written = JSON.parse(vault.entries.get(SESSION_KEY) ?? '') as StoredSession;
    expect(Object.keys(written).sort()).toEqual(Object.keys(stored).sort());
    expect(written.user).toEqual(stored.user);
    expect(written.refresh_token).not.toBe(stored.refresh_token);
    expect(first).toEqual({ userId: stored.user.id, accessToken: written.access_token });
    expect(await ticketStatus(written.access_token)).toBe(200);

    // Within the new token's lifetime nothing is refreshed.
    clock.now = written.expires_at * 1000 - REFRESH_MARGIN_MS - 1_000;
    await source.current();
    expect(refreshes()).toBe(1);
  });

  it('does not refresh a token far from expiry', async () => {
    const stored = await signUp();
    const { spy, refreshes } = countingFetch();
    const source = createSessionSource({
      vault: memoryVault({ [SESSION_KEY]: JSON.stringify(stored) }),
      origin: server.origin,
      hasWindow: () => false,
      fetch: spy,
      now: () => stored.expires_at * 1000 - REFRESH_MARGIN_MS - 60_000,
    });
    expect((await source.current())?.accessToken).toBe(stored.access_token);
    expect(refreshes()).toBe(0);
  });

  it('counts as signed out when the refresh token is refused, the entry is missing or not a session', async () => {
    const stored = await signUp();
    // Spend the refresh token, as the renderer would have.
    const spent = await fetch(`${server.origin}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'local' },
      body: JSON.stringify({ refresh_token: stored.refresh_token }),
    });
    expect(spent.status).toBe(200);
    const log = vi.fn();
    const refused = createSessionSource({
      vault: memoryVault({ [SESSION_KEY]: JSON.stringify(stored) }),
      origin: server.origin,
      hasWindow: () => false,
      now: () => stored.expires_at * 1000,
      log,
    });
    expect(await refused.current()).toBeNull();
    expect(refused.signedIn).toBe(false);
    expect(log).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(log.mock.calls)).not.toContain(stored.refresh_token);

    for (const entries of [{} as Record<string, string>, { [SESSION_KEY]: 'not json' }, { [SESSION_KEY]: JSON.stringify({ ...stored, user: null }) }]) {
      const source = createSessionSource({ vault: memoryVault(entries), origin: server.origin, hasWindow: () => true });
      expect(await source.current()).toBeNull();
      expect(source.signedIn).toBe(false);
    }
  });

  it('fails (to be retried) when the server cannot be reached', async () => {
    const stored = await signUp();
    const source = createSessionSource({
      vault: memoryVault({ [SESSION_KEY]: JSON.stringify(stored) }),
      origin: server.origin,
      hasWindow: () => false,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      now: () => stored.expires_at * 1000,
    });
    await expect(source.current()).rejects.toThrow('fetch failed');
  });
});

describe('createSessionSource with a hosted Supabase project', () => {
  it('refreshes against the project named by /app-config, with its anon key', async () => {
    const stored = {
      access_token: 'old-access',
      refresh_token: 'old-refresh',
      expires_at: 1_000,
      expires_in: 3600,
      token_type: 'bearer',
      user: { id: 'u1', email: 'a@example.com' },
    };
    const requests: { url: string; apikey?: string; body?: string }[] = [];
    const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
      const url = input instanceof Request ? input.url : input.toString();
      requests.push({ url, apikey: (init?.headers as Record<string, string>).apikey, body: init?.body as string | undefined });
      if (url === 'http://local.test/app-config')
        return Response.json({ supabaseUrl: 'https://project.supabase.example/', supabaseAnonKey: 'anon-123', version: '1', mode: 'supabase' });
      return Response.json({ ...stored, access_token: 'new-access', refresh_token: 'new-refresh', expires_at: 5_000 });
    });
    const vault = memoryVault({ [SESSION_KEY]: JSON.stringify(stored) });
    const source = createSessionSource({ vault, origin: 'http://local.test', hasWindow: () => false, fetch: fetchImpl, now: () => 990_000 });
    expect(await source.current()).toEqual({ userId: 'u1', accessToken: 'new-access' });
    expect(requests.slice(1)).toEqual([
      { url: 'https://project.supabase.example/auth/v1/token?grant_type=refresh_token', apikey: 'anon-123', body: '{"refresh_token":"old-refresh"}' },
    ]);
    expect(JSON.parse(vault.entries.get(SESSION_KEY) ?? '')).toEqual({ ...stored, access_token: 'new-access', refresh_token: 'new-refresh', expires_at: 5_000 });
  });

  it('fails (to be retried) when the app configuration cannot be read', async () => {
    const stored = { access_token: 'a', refresh_token: 'r', expires_at: 1_000, user: { id: 'u1' } };
    const fetchImpl = vi.fn<typeof fetch>(async () => Response.json({ supabaseUrl: 'javascript:alert(1)', supabaseAnonKey: '' }));
    const source = createSessionSource({
      vault: memoryVault({ [SESSION_KEY]: JSON.stringify(stored) }),
      origin: 'http://local.test',
      hasWindow: () => false,
      fetch: fetchImpl,
      now: () => 990_000,
    });
    await expect(source.current()).rejects.toThrow();
    await expect(source.current()).rejects.toThrow();
    expect(fetchImpl).toHaveBeenCalledTimes(2); // asked again, not cached
  });
});

describe('watchSessionWrites', () => {
  it('reports writes and removals of the session, and only of the session', async () => {
    const vault = memoryVault();
    const changed = vi.fn();
    const watched = watchSessionWrites(vault, { changed, beforeRead: () => undefined });
    await watched.setItem('other-key', 'x');
    expect(changed).not.toHaveBeenCalled();
    await watched.setItem(SESSION_KEY, '{}');
    expect(vault.entries.get(SESSION_KEY)).toBe('{}');
    await watched.removeItem(SESSION_KEY);
    expect(vault.entries.has(SESSION_KEY)).toBe(false);
    expect(changed).toHaveBeenCalledTimes(2);
    expect(await watched.getItem('other-key')).toBe('x');
  });

  it("makes the renderer's read wait for a refresh main has under way, so it never gets the spent token", async () => {
    const stored = await signUp();
    const vault = memoryVault({ [SESSION_KEY]: JSON.stringify(stored) });
    let windowOpen = false;
    let refreshSent: () => void = () => {};
    const sent = new Promise<void>((resolve) => (refreshSent = resolve));
    const fetchImpl: typeof fetch = (input, init) => {
      if ((input instanceof Request ? input.url : input.toString()).includes('grant_type=refresh_token')) refreshSent();
      return fetch(input, init);
    };
    const source = createSessionSource({ vault, origin: server.origin, hasWindow: () => windowOpen, fetch: fetchImpl, now: () => stored.expires_at * 1000 });
    const watched = watchSessionWrites(vault, { changed: () => {}, beforeRead: () => source.settled() });
    const refreshing = source.current(); // no window: main refreshes
    await sent;
    windowOpen = true; // the window opens again while the refresh is under way, and its renderer reads the session
    const seen = JSON.parse((await watched.getItem(SESSION_KEY)) ?? '') as StoredSession;
    const active = await refreshing;
    expect(seen.refresh_token).not.toBe(stored.refresh_token);
    expect(seen.access_token).toBe(active?.accessToken);
    // The renderer's own refresh with what it read works (a reused token would end the session).
    const renderer = await fetch(`${server.origin}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'local' },
      body: JSON.stringify({ refresh_token: seen.refresh_token }),
    });
    expect(renderer.status).toBe(200);
  });
});
