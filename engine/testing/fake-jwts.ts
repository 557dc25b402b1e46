// Builders for test JWTs signed for real (HS256/384/512 with a given secret) or unsigned (alg none), assembled at run
// time like the keys in fake-keys.ts.
import { createHmac } from 'node:crypto';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const HASH = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;

/** A JWT signed with `secret` (HS256 unless told). */
export function signedJwt(payload: Record<string, unknown>, secret: string, alg: keyof typeof HASH = 'HS256'): string {
  const input = `${b64url({ alg, typ: 'JWT' })}.${b64url(payload)}`;
  return `${input}.${createHmac(HASH[alg], secret).update(input).digest('base64url')}`;
}

/** An unsigned JWT: header alg as given ('none', 'None', 'NONE'), empty signature. */
export function unsignedJwt(payload: Record<string, unknown>, alg = 'none'): string {
  return `${b64url({ alg, typ: 'JWT' })}.${b64url(payload)}.`;
}
