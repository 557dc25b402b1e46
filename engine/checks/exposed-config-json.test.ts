import { describe, expect, it } from 'vitest';
import { makeSite, type ExchangeInit } from '../testing/site';
import { exposedConfigJson } from './exposed-config-json';

const ORIGIN = 'https://app.example';
const SPA = '<!doctype html><html><body></body></html>';
const site = (probes: Record<string, ExchangeInit>) => makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-1-404.txt`, body: SPA }, probes });
const probe = (path: string, body: unknown, extra: Partial<ExchangeInit> = {}) => ({
  [`exposed-config-json:${path}`]: { url: `${ORIGIN}${path}`, body: typeof body === 'string' ? body : JSON.stringify(body), contentType: 'application/json', ...extra },
});

describe('exposed-config-json', () => {
  it.each([
    ['SPA shell', probe('/config.json', SPA, { contentType: 'text/html' })],
    ['JSON array', probe('/config.json', [1, 2])],
    ['JSON without config keys', probe('/config.json', { hello: 'world' })],
    ['JSON 404 body', probe('/config.json', { error: 'not found' }, { status: 404 })],
  ])('no finding: %s', (_name, probes) => {
    expect(exposedConfigJson.run(site(probes))).toEqual([]);
  });

  it('grades by content: public runtime config low, server config medium, secrets high, service account critical', () => {
    const findings = exposedConfigJson.run(
      site({
        ...probe('/config.json', { apiUrl: 'https://api.app.example', features: { beta: true } }),
        ...probe('/appsettings.json', { Logging: { LogLevel: { Default: 'Information' } }, AllowedHosts: '*' }),
        ...probe('/app.config.json', { database: { host: 'db', password: 'Sup3r-S3cret-Pw' } }),
        ...probe('/credentials.json', {
          type: 'service_account',
          project_id: 'p',
          private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvAIBADANBg\n-----END PRIVATE KEY-----\n',
          client_email: 'a@p.iam.gserviceaccount.com',
        }),
      }),
    );
    expect(Object.fromEntries(findings.map((f) => [f.key, f.severity]))).toEqual({
      '/config.json': 'low',
      '/app.config.json': 'high',
      '/appsettings.json': 'medium',
      '/credentials.json': 'critical',
    });
    expect(JSON.stringify(findings)).not.toContain('Sup3r-S3cret-Pw');
    expect(JSON.stringify(findings)).not.toContain('MIIEvAIBADANBg');
  });
});
