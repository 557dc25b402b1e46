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
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT: must be a number'],
    [{ PORT: '70000' }, 'PORT: must be between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a URL starting with postgres:// or postgresql://'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL: must be a URL starting with smtp:// or smtps://'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ JWT_EXPIRY: '-5' }, 'JWT_EXPIRY'],
    [{ SUPABASE_URL: 'https://abc.supabase.co' }, 'SUPABASE_ANON_KEY: required when SUPABASE_URL is set'],
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

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: '' }).databaseUrl).toBeUndefined();
  });
});
