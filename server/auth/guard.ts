import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { AuthError, type AuthService } from './service';
import { ISSUER, type AccessTokens } from './tokens';

/** Who made a product API request. */
export interface RequestUser {
  id: string;
  email: string;
  source: 'local' | 'supabase';
  /** The session the token belongs to (local accounts; a hosted token's `session_id` claim when it has one). */
  sessionId?: string;
  /** When the token expires (seconds since the epoch), when it says. */
  expiresAt?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: RequestUser | null;
  }
}

export interface HostedAuth {
  url: string;
  jwtSecret?: string;
  jwksUrl: string;
}

/** The user at once when the token and its session were checked moments ago, else a promise (rejected with AuthError). */
export type BearerVerifier = (authorization: string | undefined) => RequestUser | Promise<RequestUser>;

const bearerToken = (authorization: string | undefined) => /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];

/**
 * Verifies a bearer token from either issuer: our own (HS256 with the install's secret, and the session
 * must still exist) or, when configured, the Supabase project's (its JWT secret or its JWKS).
 */
export function createBearerVerifier(tokens: AccessTokens, service: AuthService, hosted?: HostedAuth): BearerVerifier {
  const hostedKey: Uint8Array | JWTVerifyGetKey | undefined = hosted
    ? hosted.jwtSecret
      ? new TextEncoder().encode(hosted.jwtSecret)
      : createRemoteJWKSet(new URL(hosted.jwksUrl))
    : undefined;

  const verifyAsync = async (authorization: string | undefined): Promise<RequestUser> => {
    const token = bearerToken(authorization);
    if (!token) throw new AuthError(401, 'no_authorization', 'Not authenticated');
    if (token.startsWith('vb_live_')) throw new AuthError(401, 'bad_jwt', 'API keys work on the public API (/v1) only; this route needs a signed-in session.');
    // A token this process verified before (a client sends the same one with every request): no decoding again.
    const known = tokens.recall(token);
    if (known) {
      const user = await service.userForSession(known.sub, known.session_id).catch(() => {
        throw new AuthError(401, 'bad_jwt', 'Invalid access token');
      });
      return { id: user.id, email: user.email, source: 'local', sessionId: known.session_id, expiresAt: known.exp };
    }
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw new AuthError(401, 'bad_jwt', 'Invalid access token');
    }
    try {
      if (issuer === ISSUER) {
        const claims = await tokens.verify(token);
        const user = await service.userForSession(claims.sub, claims.session_id);
        return { id: user.id, email: user.email, source: 'local', sessionId: claims.session_id, expiresAt: claims.exp };
      }
      if (hosted && hostedKey) {
        const { payload } = await jwtVerify(token, hostedKey as Uint8Array, {
          issuer: `${hosted.url}/auth/v1`,
          audience: 'authenticated',
        });
        if (typeof payload.sub !== 'string') throw new Error('no subject');
        const sessionId = typeof payload.session_id === 'string' ? payload.session_id : undefined;
        return { id: payload.sub, email: typeof payload.email === 'string' ? payload.email : '', source: 'supabase', sessionId, expiresAt: payload.exp };
      }
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw new AuthError(401, expired ? 'token_expired' : 'bad_jwt', expired ? 'Access token expired' : 'Invalid access token');
    }
    throw new AuthError(401, 'bad_jwt', 'Invalid access token');
  };

  return (authorization) => {
    // The common case: a token verified before, of a session found moments ago (the same checks, kept; see
    // AccessTokens.recall and AuthService.recentUser): answered without a promise.
    const token = bearerToken(authorization);
    const known = token ? tokens.recall(token) : undefined;
    const user = known ? service.recentUser(known.sub, known.session_id) : undefined;
    if (known && user) return { id: user.id, email: user.email, source: 'local', sessionId: known.session_id, expiresAt: known.exp };
    return verifyAsync(authorization);
  };
}

/**
 * Makes every route registered in `scope` require a valid bearer token; failures answer 401 with a JSON
 * `detail`, the error shape of the product API.
 */
export function requireUser(scope: FastifyInstance, verify: BearerVerifier) {
  scope.decorateRequest('user', null);
  scope.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (request.method === 'OPTIONS') return done();
    const user = verify(request.headers.authorization);
    if (!(user instanceof Promise)) {
      request.user = user;
      return done();
    }
    user.then(
      (verified) => {
        request.user = verified;
        done();
      },
      (error: unknown) => {
        if (!(error instanceof AuthError)) return done(error as Error);
        reply.code(401).header('WWW-Authenticate', 'Bearer').send({ detail: error.message });
      },
    );
  });
}

/** The signed-in user of a request in the guarded scope (the guard has already refused anonymous requests). */
export function userOf(request: { user: RequestUser | null }): RequestUser {
  if (!request.user) throw Object.assign(new Error('Authentication required'), { statusCode: 401 });
  return request.user;
}
