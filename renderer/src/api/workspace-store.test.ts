import { WORKSPACE_HEADER, WORKSPACE_TEXTS } from '@common/workspaces';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './http';
import { WORKSPACE_STORAGE_PREFIX, createWorkspaceStore, fallsBackToPersonal, type WorkspaceEvent } from './workspace-store';

const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
const TEAM = '33333333-3333-4333-8333-333333333333';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('workspace store', () => {
  it('acts in the personal workspace until another is chosen, and keeps the choice per user', () => {
    const storage = memoryStorage();
    const store = createWorkspaceStore(storage);
    expect(store.currentFor(ALICE)).toBe(ALICE);
    store.select(ALICE, TEAM);
    expect(storage.map.get(WORKSPACE_STORAGE_PREFIX + ALICE)).toBe(TEAM);
    // Another account in the same browser does not inherit it; a new page (a new store) still has it.
    expect(store.currentFor(BOB)).toBe(BOB);
    expect(createWorkspaceStore(storage).currentFor(ALICE)).toBe(TEAM);
    // Back to personal clears the slot.
    store.select(ALICE, ALICE);
    expect(storage.map.has(WORKSPACE_STORAGE_PREFIX + ALICE)).toBe(false);
    expect(store.currentFor(ALICE)).toBe(ALICE);
  });

  it('ignores a stored value that is not a workspace id, and works without storage', () => {
    const storage = memoryStorage();
    storage.setItem(WORKSPACE_STORAGE_PREFIX + ALICE, 'not-an-id\r\nx: y');
    expect(createWorkspaceStore(storage).currentFor(ALICE)).toBe(ALICE);
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => undefined,
    };
    const store = createWorkspaceStore(throwing);
    store.select(ALICE, TEAM);
    expect(store.currentFor(ALICE)).toBe(TEAM);
    const none = createWorkspaceStore(null);
    expect(none.currentFor(ALICE)).toBe(ALICE);
  });

  it('tells its listeners of a change and of a lost workspace', () => {
    const store = createWorkspaceStore(memoryStorage());
    const events: WorkspaceEvent[] = [];
    const stop = store.subscribe((event) => events.push(event));
    store.select(ALICE, TEAM);
    store.lose(TEAM);
    stop();
    store.lose(TEAM);
    expect(events).toEqual([
      { type: 'changed', userId: ALICE, workspaceId: TEAM },
      { type: 'lost', workspaceId: TEAM },
    ]);
  });
});

describe('the API client in a workspace', () => {
  function setUp(status = 200, body: unknown = {}) {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => Response.json(body, { status }));
    vi.stubGlobal('fetch', fetchMock);
    const store = createWorkspaceStore(memoryStorage());
    let signedIn: string | null = ALICE;
    const api = createApiClient('http://api.test', async () => (signedIn ? 'tok' : null), {
      current: async () => (signedIn ? store.currentFor(signedIn) : null),
      gone: (id) => store.lose(id),
    });
    const headersOf = (call: number) => fetchMock.mock.calls[call]![1].headers as Record<string, string>;
    return { api, store, fetchMock, headersOf, signOut: () => (signedIn = null) };
  }

  it('names the current workspace on every product call', async () => {
    const { api, store, headersOf } = setUp();
    await api.request('GET', '/projects');
    expect(headersOf(0)[WORKSPACE_HEADER]).toBe(ALICE);
    store.select(ALICE, TEAM);
    await api.request('POST', '/project', { body: { url: 'https://a.test' } });
    expect(headersOf(1)).toMatchObject({ authorization: 'Bearer tok', [WORKSPACE_HEADER]: TEAM });
    await expect(api.workspaceHeaders()).resolves.toEqual({ [WORKSPACE_HEADER]: TEAM });
  });

  it('sends no workspace on public calls, on the auth server, or signed out', async () => {
    const { api, store, headersOf, signOut } = setUp();
    store.select(ALICE, TEAM);
    await api.request('GET', '/plans', { auth: false });
    expect(headersOf(0)).not.toHaveProperty(WORKSPACE_HEADER);
    await api.request('GET', '/auth/v1/user');
    expect(headersOf(1)).not.toHaveProperty(WORKSPACE_HEADER);
    expect(headersOf(1)).toHaveProperty('authorization');
    signOut();
    await expect(api.workspaceHeaders()).resolves.toEqual({});
  });

  it('reports a workspace the server no longer knows the caller in, and falls back to personal once', async () => {
    const { api, store } = setUp(404, { detail: WORKSPACE_TEXTS.notFound });
    store.select(ALICE, TEAM);
    const lost: string[] = [];
    store.subscribe((event) => {
      if (event.type === 'lost' && fallsBackToPersonal(store, ALICE, event.workspaceId)) {
        lost.push(event.workspaceId);
        store.select(ALICE, ALICE);
      }
    });
    // Two calls fail at once: one fallback.
    const results = await Promise.allSettled([api.request('GET', '/projects'), api.request('GET', '/events')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(lost).toEqual([TEAM]);
    expect(store.currentFor(ALICE)).toBe(ALICE);
  });

  it('asks a read again in the personal workspace after the fallback, but never repeats a write', async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const id = (init.headers as Record<string, string>)[WORKSPACE_HEADER];
      return id === TEAM ? Response.json({ detail: WORKSPACE_TEXTS.notFound }, { status: 404 }) : Response.json([{ id: 'p1' }]);
    });
    vi.stubGlobal('fetch', fetchMock);
    const store = createWorkspaceStore(memoryStorage());
    store.subscribe((event) => {
      if (event.type === 'lost' && fallsBackToPersonal(store, ALICE, event.workspaceId)) store.select(ALICE, ALICE);
    });
    const api = createApiClient('http://api.test', async () => 'tok', { current: async () => store.currentFor(ALICE), gone: (id) => store.lose(id) });
    store.select(ALICE, TEAM);
    await expect(api.request('GET', '/projects')).resolves.toEqual([{ id: 'p1' }]);
    expect(fetchMock.mock.calls.map(([, init]) => (init.headers as Record<string, string>)[WORKSPACE_HEADER])).toEqual([TEAM, ALICE]);
    store.select(ALICE, TEAM);
    await expect(api.request('POST', '/project', { body: {} })).rejects.toMatchObject({ status: 404, message: WORKSPACE_TEXTS.notFound });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(store.currentFor(ALICE)).toBe(ALICE);
  });

  it('does not fall back for any other 404, nor from the personal workspace', async () => {
    const { api, store } = setUp(404, { detail: 'Project not found' });
    store.select(ALICE, TEAM);
    const events: WorkspaceEvent[] = [];
    store.subscribe((event) => events.push(event));
    await expect(api.request('GET', '/project/x')).rejects.toMatchObject({ status: 404, message: 'Project not found' });
    expect(events).toEqual([]);
    expect(fallsBackToPersonal(store, ALICE, ALICE)).toBe(false);
    expect(fallsBackToPersonal(store, ALICE, '44444444-4444-4444-8444-444444444444')).toBe(false);
  });
});
