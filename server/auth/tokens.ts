import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';

export const ISSUER = 'vibeeval';
export const AUDIENCE = 'authenticated';

export interface AccessClaims extends JWTPayload {
  sub: string;
  email: string;
  role: 'authenticated';
  session_id: string;
  aal: 'aal1';
  amr: { method: string; timestamp: number }[];
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  is_anonymous: false;
}

/** An opaque random token (refresh tokens, mail links, PKCE codes) and the hash we store for it. */
export function opaqueToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

type SignableClaims = Pick<AccessClaims, 'sub' | 'email' | 'role' | 'session_id' | 'aal' | 'amr' | 'app_metadata' | 'user_metadata' | 'is_anonymous'>;

export class AccessTokens {
  readonly #key: Uint8Array;

  constructor(
    secret: string,
    readonly lifetimeSeconds: number,
  ) {
    this.#key = new TextEncoder().encode(secret);
  }

  /** Signs a short-lived HS256 access token, shaped like Supabase's so supabase-js and our API read the same claims. */
  async sign(claims: SignableClaims, now = Math.floor(Date.now() / 1000)) {
    const expiresAt = now + this.lifetimeSeconds;
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(claims.sub)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .sign(this.#key);
    return { token, expiresAt };
  }

  /** Tokens whose signature was verified, until they expire: a client sends the same one with every request. */
  readonly #verified = new LRUCache<string, AccessClaims>({ max: 10_000 });

  /** The claims of a token verified earlier and not expired yet; undefined for any other (verify it). */
  recall(token: string): AccessClaims | undefined {
    const known = this.#verified.get(token);
    if (!known) return undefined;
    if (typeof known.exp === 'number' && known.exp * 1000 > Date.now()) return known;
    this.#verified.delete(token);
    return undefined;
  }

  /** Verifies signature, issuer, audience and expiry; throws jose's errors otherwise. */
  async verify(token: string): Promise<AccessClaims> {
    const known = this.recall(token);
    if (known) return known;
    const payload = await this.#verifySignature(token);
    this.#verified.set(token, payload);
    return payload;
  }

  async #verifySignature(token: string): Promise<AccessClaims> {
    const { payload } = await jwtVerify<AccessClaims>(token, this.#key, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.session_id !== 'string') throw new Error('token lacks sub or session_id');
    return payload;
  }
}
