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
