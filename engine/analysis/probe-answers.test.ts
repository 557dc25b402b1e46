import { describe, expect, it } from 'vitest';
import { makeExchange, makeSite } from '../testing/site';
import { isSoft404, looksLikeSecretValue, maskSecrets, pathProbes, usableAnswer } from './probe-answers';

const SPA = '<!doctype html><html><head><title>App</title><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

describe('soft 404 detection', () => {
  it('treats the SPA shell answered for any path as a soft 404', () => {
    const notFound = makeExchange({ url: 'https://app.example/vibeeval-x1-404.txt', body: SPA });
    expect(isSoft404(makeExchange({ url: 'https://app.example/.env', body: SPA }), notFound)).toBe(true);
  });

  it('ignores nonces, numbers and the echoed path when comparing', () => {
    const page = (path: string, nonce: string) => `<html><body><h1>Not found</h1><p>${path} does not exist</p><script nonce="${nonce}">x()</script></body></html>`;
    const notFound = makeExchange({ url: 'https://a.example/vibeeval-1-404.txt', status: 200, body: page('/vibeeval-1-404.txt', 'AbC123dEf456GhI789jKl012') });
    const probe = makeExchange({ url: 'https://a.example/.git/HEAD', status: 200, body: page('/.git/HEAD', 'ZzY987xXw654VvU321tTs098') });
    expect(isSoft404(probe, notFound)).toBe(true);
  });

  it('keeps a real file that differs from the baseline', () => {
    const notFound = makeExchange({ url: 'https://app.example/vibeeval-x1-404.txt', body: SPA });
    const env = makeExchange({ url: 'https://app.example/.env', body: 'API_KEY=abc\n', contentType: 'text/plain' });
    expect(isSoft404(env, notFound)).toBe(false);
  });

  it('usableAnswer drops errors, non-2xx, redirects elsewhere and soft 404s', () => {
    const site = makeSite({
      root: { url: 'https://app.example/', body: SPA },
      notFound: { url: 'https://app.example/vibeeval-x-404.txt', body: SPA },
      probes: {
        err: { url: 'https://app.example/a', error: 'ECONNRESET' },
        missing: { url: 'https://app.example/b', status: 404, body: 'nope', contentType: 'text/plain' },
        moved: {
          url: 'https://app.example/.env',
          finalUrl: 'https://app.example/login',
          redirects: [{ url: 'https://app.example/.env', status: 302, location: '/login', headers: [] }],
          body: 'KEY=1',
          contentType: 'text/plain',
        },
        spa: { url: 'https://app.example/.env', body: SPA },
        real: { url: 'https://app.example/.env', body: 'KEY=1', contentType: 'text/plain' },
      },
    });
    expect(['err', 'missing', 'moved', 'spa', 'gone'].map((key) => usableAnswer(site, key))).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(usableAnswer(site, 'real')?.body).toBe('KEY=1');
  });
});

describe('secrets', () => {
  it('recognises real-looking credentials and not placeholders', () => {
    expect(looksLikeSecretValue('sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'X')).toBe(true);
    expect(looksLikeSecretValue('s3cr3t-Pa55word!', 'DB_PASSWORD')).toBe(true);
    expect(looksLikeSecretValue('postgres://app:hunter22@db.internal:5432/app', 'DATABASE_URL')).toBe(true);
    for (const placeholder of ['', 'changeme', 'your_api_key_here', '<secret>', '${SECRET}', 'xxxxxx', 'true']) expect(looksLikeSecretValue(placeholder, 'API_KEY')).toBe(false);
    expect(looksLikeSecretValue('production', 'NODE_ENV')).toBe(false);
  });

  it('masks values in env lines, JSON, URLs and known tokens', () => {
    const masked = maskSecrets('DB_PASSWORD=s3cr3t-Pa55word!\nPORT=3000\n{"apiKey": "AKIAABCDEFGHIJKLMNOP"}\npostgres://app:hunter22@db/app');
    expect(masked).toContain('DB_PASSWORD=s3cr****');
    expect(masked).toContain('PORT=3000');
    expect(masked).not.toContain('s3cr3t-Pa55word!');
    expect(masked).not.toContain('AKIAABCDEFGHIJKLMNOP');
    expect(masked).not.toContain('hunter22');
  });
});

describe('pathProbes', () => {
  it('builds GET probes keyed by check id and path at the origin', () => {
    const site = makeSite({ root: { url: 'https://app.example/dashboard', body: SPA } });
    expect(pathProbes('exposed-git', site, ['/.git/HEAD'], { binary: true })).toEqual([
      { key: 'exposed-git:/.git/HEAD', method: 'GET', url: 'https://app.example/.git/HEAD', binary: true },
    ]);
  });
});

describe('maskSecrets hides weak credentials too', () => {
  it('masks any real value under a credential-like name, however short', () => {
    const masked = maskSecrets('DB_PASSWORD=hunter2\nAPP_NAME=petpal\nSMTP_PASS="abc"\nAPI_TOKEN=\nSECRET_KEY=changeme');
    expect(masked).not.toContain('hunter2');
    expect(masked).toContain('DB_PASSWORD=****');
    expect(masked).toContain('APP_NAME=petpal');
    expect(masked).not.toContain('"abc"');
    expect(masked).toContain('SECRET_KEY=changeme');
  });
});
