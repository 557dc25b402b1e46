import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ HOME: '/home/someone' });
    expect(config.port).toBe(8787);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.hosted).toBeUndefined();
    expect(config.dataDir).toMatch(/\.vibeeval$/);
    expect(config.scenarios).toEqual({ concurrency: 2, rateLimit: 10, llm: null });
    // Scans are paced adaptively unless a ceiling is set.
    expect(config.scans.rateLimit).toBeUndefined();
  });

  it('reads a scan rate ceiling, which scenario runs use as their flat rate', () => {
    const config = loadConfig({ VIBEEVAL_SCAN_RATE: '2.5' });
    expect(config.scans.rateLimit).toBe(2.5);
    expect(config.scenarios.rateLimit).toBe(2.5);
    expect(loadConfig({ VIBEEVAL_SCAN_RATE: '0' }).scans.rateLimit).toBe(0);
  });

  it('reads the scenario runs and the optional AI service', () => {
    const config = loadConfig({ VIBEEVAL_SCENARIO_CONCURRENCY: '0', VIBEEVAL_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', VIBEEVAL_LLM_MODEL: 'llama3.2' });
    expect(config.scenarios).toEqual({ concurrency: 0, rateLimit: 10, llm: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: null, model: 'llama3.2' } });
    expect(loadConfig({ VIBEEVAL_LLM_BASE_URL: 'https://openrouter.ai/api/v1', VIBEEVAL_LLM_API_KEY: 'k', VIBEEVAL_LLM_MODEL: 'm' }).scenarios.llm?.apiKey).toBe('k');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT: must be a number'],
    [{ PORT: '70000' }, 'PORT: must be between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a URL starting with postgres:// or postgresql://'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL: must be a URL starting with smtp:// or smtps://'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ JWT_EXPIRY: '-5' }, 'JWT_EXPIRY'],
    [{ SUPABASE_URL: 'https://abc.supabase.co' }, 'SUPABASE_ANON_KEY: required when SUPABASE_URL is set'],
    [{ VIBEEVAL_LLM_BASE_URL: 'http://127.0.0.1:1234/v1' }, 'VIBEEVAL_LLM_MODEL: required when VIBEEVAL_LLM_BASE_URL is set'],
    [{ VIBEEVAL_LLM_BASE_URL: 'ftp://x' }, 'VIBEEVAL_LLM_BASE_URL: must be a URL starting with http:// or https://'],
    [{ VIBEEVAL_SCENARIO_CONCURRENCY: '-1' }, 'VIBEEVAL_SCENARIO_CONCURRENCY'],
    [{ GOOGLE_CLIENT_ID: 'id' }, 'GOOGLE_CLIENT_SECRET: required'],
    [{ GOOGLE_CLIENT_SECRET: 'secret' }, 'GOOGLE_CLIENT_ID: required'],
    [{ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', GOOGLE_ISSUER_URL: 'file:///x' }, 'GOOGLE_ISSUER_URL: must be a URL'],
  ])('names the variable of a bad value: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads a hosted Supabase project', () => {
    const config = loadConfig({ SUPABASE_URL: 'https://abc.supabase.co/', SUPABASE_ANON_KEY: 'anon', SUPABASE_JWT_SECRET: 's' });
    expect(config.hosted).toEqual({
      url: 'https://abc.supabase.co',
      anonKey: 'anon',
      jwtSecret: 's',
      jwksUrl: 'https://abc.supabase.co/auth/v1/.well-known/jwks.json',
    });
  });

  it('reads sign-in with Google, with Google as the default issuer, and leaves it off without a client', () => {
    expect(loadConfig({}).google).toBeNull();
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }).google).toEqual({
      clientId: 'id',
      clientSecret: 's',
      issuerUrl: 'https://accounts.google.com',
    });
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', GOOGLE_ISSUER_URL: 'http://127.0.0.1:9000' }).google?.issuerUrl).toBe('http://127.0.0.1:9000');
  });

  it('reads the proxies to believe (a hop count or addresses), none by default, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ VIBEEVAL_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ VIBEEVAL_TRUST_PROXY: '10.0.0.5, 10.0.1.0/24,::1' }).trustProxy).toEqual(['10.0.0.5', '10.0.1.0/24', '::1']);
    expect(() => loadConfig({ VIBEEVAL_TRUST_PROXY: 'everyone' })).toThrow(/VIBEEVAL_TRUST_PROXY/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: '' }).databaseUrl).toBeUndefined();
  });
});
