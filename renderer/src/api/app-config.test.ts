import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchAppConfig } from './app-config';

const ok = { supabaseUrl: 'http://127.0.0.1:8787', supabaseAnonKey: 'local', version: '1.0.0', mode: 'local' };

function serve(response: Response | Error) {
  const fetchMock = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('fetchAppConfig', () => {
  it('reads the config from {serverOrigin}/app-config', async () => {
    const fetchMock = serve(Response.json(ok));
    await expect(fetchAppConfig('http://127.0.0.1:8787')).resolves.toEqual(ok);
    expect(fetchMock).toHaveBeenCalledWith('http://127.0.0.1:8787/app-config', expect.anything());
  });

  it("takes the answer a signed-in page's start script asked for, once, and asks itself when that failed", async () => {
    const fetchMock = serve(Response.json(ok));
    const early = (response: Response | null) =>
      vi.stubGlobal('__vibeevalFirstAnswers', { 'http://127.0.0.1:8787/app-config': { workspace: undefined, at: Date.now(), response: Promise.resolve(response) } });
    early(Response.json({ ...ok, version: 'early' }));
    await expect(fetchAppConfig('http://127.0.0.1:8787')).resolves.toEqual({ ...ok, version: 'early' });
    expect(fetchMock).not.toHaveBeenCalled();
    early(null);
    await expect(fetchAppConfig('http://127.0.0.1:8787')).resolves.toEqual(ok);
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('says when the server cannot be reached', async () => {
    serve(new TypeError('fetch failed'));
    await expect(fetchAppConfig('http://127.0.0.1:1')).rejects.toThrow('could not be reached');
  });

  it('says when the server answers with an error', async () => {
    serve(new Response('boom', { status: 500, statusText: 'Internal Server Error' }));
    await expect(fetchAppConfig('http://x.test')).rejects.toThrow('500 Internal Server Error');
  });

  it('refuses a config it cannot use', async () => {
    serve(Response.json({ ...ok, mode: 'cloud' }));
    await expect(fetchAppConfig('http://x.test')).rejects.toThrow('cannot read');
    serve(Response.json({ ...ok, supabaseUrl: 'not a url' }));
    await expect(fetchAppConfig('http://x.test')).rejects.toThrow('cannot read');
  });
});
