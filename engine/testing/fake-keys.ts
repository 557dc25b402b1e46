// Builders for obviously fake credentials in the real formats. Tests assemble keys at run time (prefix + generated
// body) so no key-shaped literal is committed: scanners and push protection see nothing to flag.

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const HEX = '0123456789abcdef';
export const UPPER32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A deterministic pseudo-random string (seeded LCG): high entropy, reproducible, different per seed. */
export function fakeToken(length: number, alphabet = ALNUM, seed = 1): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return out;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT with the given claims and a signature that verifies against nothing. */
export function fakeJwt(payload: Record<string, unknown>, seed = 7): string {
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.${fakeToken(43, ALNUM + '-_', seed)}`;
}

/** A Supabase legacy API key JWT for project `ref` with role anon or service_role. */
export function fakeSupabaseKey(ref: string, role: 'anon' | 'service_role' | 'authenticated', seed = 7): string {
  return fakeJwt({ iss: 'supabase', ref, role, iat: 1_700_000_000, exp: 2_000_000_000 }, seed);
}
