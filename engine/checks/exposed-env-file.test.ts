import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { exposedEnvFile } from './exposed-env-file';

const ORIGIN = 'https://app.example';
const SPA = '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script src="/assets/index.js"></script></body></html>';
const site = (probes: Record<string, ExchangeInit>) => makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-7f3-404.txt`, body: SPA }, probes });
const env = (path: string, body: string, extra: Partial<ExchangeInit> = {}) => ({
  [`exposed-env-file:${path}`]: { url: `${ORIGIN}${path}`, body, contentType: 'application/octet-stream', ...extra },
});

describe('exposed-env-file', () => {
  it('plans one GET per env path', () => {
    expect(plannedProbes(exposedEnvFile, site({})).map((p) => p.url)).toEqual([
      `${ORIGIN}/.env`,
      `${ORIGIN}/.env.local`,
      `${ORIGIN}/.env.production`,
      `${ORIGIN}/.env.development`,
      `${ORIGIN}/.env.backup`,
      `${ORIGIN}/.env.example`,
    ]);
  });

  const valid: Array<[string, Record<string, ExchangeInit>]> = [
    ['SPA answering 200 with index.html', env('/.env', SPA, { contentType: 'text/html' })],
    ['404 with a text body', env('/.env', 'DB_PASSWORD=hunter2hunter2', { status: 404 })],
    ['prose that happens to contain an equals sign', env('/.env', 'Welcome!\nThis page is not what you want.\nTry the home page, 1 + 1 = 2.\nThanks')],
    ['example file without real values', env('/.env.example', 'API_KEY=your_api_key_here\nDB_PASSWORD=changeme\n').valueOf() && {}],
    ['network error', env('/.env', '', { error: 'ETIMEDOUT' })],
  ];
  it.each(valid)('no finding: %s', (_name, probes) => {
    const findings = exposedEnvFile.run(site(probes));
    expect(findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('reports a real .env with secrets as critical, masking values', () => {
    const [finding] = exposedEnvFile.run(
      site(env('/.env', 'NODE_ENV=production\nSTRIPE_SECRET_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc\nDATABASE_URL=postgres://app:s3cretpw@db.internal:5432/app\n')),
    );
    expect(finding?.severity).toBe('critical');
    expect(finding?.detail).toContain('STRIPE_SECRET_KEY');
    expect(JSON.stringify(finding?.evidence)).not.toContain('4eC39HqLyjWDarjtT1zdp7dc');
    expect(JSON.stringify(finding?.evidence)).not.toContain('s3cretpw');
  });

  it('reports a .env without credentials as high and an example file as info', () => {
    expect(exposedEnvFile.run(site(env('/.env.local', 'PORT=3000\nNODE_ENV=development\n')))[0]?.severity).toBe('high');
    expect(exposedEnvFile.run(site(env('/.env.example', 'API_KEY=your_api_key_here\nPORT=3000\n')))[0]?.severity).toBe('info');
  });
});
