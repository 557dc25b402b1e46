import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './http';

afterEach(() => vi.unstubAllGlobals());

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('createApiClient', () => {
  it('sends JSON with the bearer token', async () => {
    const fetchMock = stubFetch(Response.json({ id: 'p1' }));
    const api = createApiClient('http://api.test', async () => 'tok');
    await expect(api.request('POST', '/project', { body: { url: 'https://a.test' } })).resolves.toEqual({ id: 'p1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/project');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"url":"https://a.test"}');
    expect(init.headers).toMatchObject({ authorization: 'Bearer tok', 'content-type': 'application/json' });
  });

  it('calls without a token when auth is false (GET /plans)', async () => {
    const fetchMock = stubFetch(Response.json({ plans: [] }));
    const api = createApiClient('http://api.test', async () => null);
    await api.request('GET', '/plans', { auth: false });
    expect(fetchMock.mock.calls[0]![1].headers).not.toHaveProperty('authorization');
  });

  it("throws the server's detail, or the caller's default", async () => {
    const api = createApiClient('http://api.test', async () => 'tok');
    stubFetch(Response.json({ detail: 'Project not found' }, { status: 404 }));
    await expect(api.request('GET', '/project/x', { fallbackError: 'Failed to fetch project' })).rejects.toMatchObject({
      status: 404,
      message: 'Project not found',
    });
    stubFetch(new Response('', { status: 500 }));
    await expect(api.request('GET', '/projects', { fallbackError: 'Failed to fetch projects' })).rejects.toThrow('Failed to fetch projects');
  });

  it('fails with 401 before calling when there is no session', async () => {
    const fetchMock = stubFetch(Response.json({}));
    const api = createApiClient('http://api.test', async () => null);
    const error: unknown = await api.request('GET', '/projects').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
