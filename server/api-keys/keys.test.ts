import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../common/api-keys';
import { apiKeyFromHeader, generateApiKey, hashApiKey } from './keys';

describe('API keys', () => {
  it("are 'vb_live_' plus 26 letters and digits, different every time", () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
    expect(new Set(keys).size).toBe(200);
    // Every character of the alphabet is drawn (uniform draw over 62 characters, 5,200 draws).
    expect(new Set(keys.join('').replaceAll('vb_live_', '')).size).toBe(62);
  });

  it('are kept as a SHA-256 in hex, never as themselves', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(8));
    expect(hashApiKey(key)).toBe(hashApiKey(key));
  });

  it('are read from a Bearer header only when they have the key shape', () => {
    const key = generateApiKey();
    expect(apiKeyFromHeader(`Bearer ${key}`)).toBe(key);
    expect(apiKeyFromHeader(`bearer  ${key} `)).toBe(key);
    expect(apiKeyFromHeader(undefined)).toBeNull();
    expect(apiKeyFromHeader(`Basic ${key}`)).toBeNull();
    expect(apiKeyFromHeader('Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig')).toBeNull();
    expect(apiKeyFromHeader(`Bearer ${key}x`)).toBeNull();
  });
});
