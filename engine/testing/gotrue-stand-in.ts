// TEST STAND-IN for Supabase Auth (GoTrue), the part the PostgREST stand-in serves under /auth/v1: password sign-in
// and refresh (POST /auth/v1/token?grant_type=password|refresh_token), sign-out (POST /auth/v1/logout) and the
// current user (GET /auth/v1/user). It issues HS256 JWTs for the users it holds (sub = the user's id, role
// authenticated), which the PostgREST stand-in reads to apply its per-user rules.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A user of the stand-in project, who signs in with email and password. */
export interface StandInUser {
  id: string;
  email: string;
  password: string;
}

/** Who a request is made as: the anon key alone, or a signed-in user's access token. */
export type Caller = { role: 'anon' } | { role: 'authenticated'; sub: string };

export interface AuthOptions {
  users?: StandInUser[];
  /** Lifetime of an access token, in seconds (GoTrue's default is 3600). */
  tokenLifetime?: number;
  /** The clock, in ms (tests move it to expire tokens). */
  now?: () => number;
}

interface AuthAnswer {
  status: number;
  body?: unknown;
}

const SECRET = randomBytes(32);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function sign(payload: Record<string, unknown>): string {
  const input = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
}

/** The payload of a token this stand-in signed; undefined for any other string. */
function verified(token: string): Record<string, unknown> | undefined {
  const [head, body, signature] = token.split('.');
  if (!head || !body || signature === undefined) return undefined;
  const expected = createHmac('sha256', SECRET).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * The user a bearer token names when it is a live access token this stand-in signed: what an app's own API (a
 * Supabase edge function, an Express route) checks with the project's JWT secret. Undefined for anything else.
 */
export function verifiedUser(authorization: string | undefined, now = Date.now()): { sub: string; email?: string } | undefined {
  const payload = authorization?.startsWith('Bearer ') ? verified(authorization.slice(7)) : undefined;
  if (!payload || typeof payload.sub !== 'string' || payload.role !== 'authenticated') return undefined;
  if (typeof payload.exp === 'number' && payload.exp * 1000 <= now) return undefined;
  return { sub: payload.sub, email: typeof payload.email === 'string' ? payload.email : undefined };
}

/** The sign-in, refresh and sign-out calls: the only requests to the project a signed-in scan may send that write. */
export function isAuthCall(method: string, url: string): boolean {
  const path = url.split('?')[0]!;
  return method === 'POST' && (path === '/auth/v1/token' || path === '/auth/v1/logout');
}

/** Supabase Auth for the stand-in: its users, the tokens it issued and the sessions still open. */
export class GoTrueStandIn {
  private readonly users: StandInUser[];
  private readonly lifetime: number;
  private readonly now: () => number;
  /** Refresh token -> user id, for sessions not signed out. */
  private readonly refreshTokens = new Map<string, string>();
  /** Users who signed out, in order. */
  readonly signedOut: string[] = [];
  /** Every access and refresh token issued (tests look for them in a scan's outputs). */
  readonly issued: string[] = [];

  constructor(options: AuthOptions = {}) {
    this.users = options.users ?? [];
    this.lifetime = options.tokenLifetime ?? 3600;
    this.now = options.now ?? Date.now;
  }

  /** Who the bearer token names: anon for the anon key, a user for a live token of ours, undefined when refused. */
  caller(authorization: string | undefined, apikey: string): Caller | { error: string } {
    if (authorization === undefined || authorization === `Bearer ${apikey}`) return { role: 'anon' };
    const payload = verified(authorization.replace(/^Bearer /, ''));
    if (!payload || typeof payload.sub !== 'string') return { error: 'JWSError JWSInvalidSignature' };
    if (typeof payload.exp === 'number' && payload.exp * 1000 <= this.now()) return { error: 'JWT expired' };
    return { role: 'authenticated', sub: payload.sub };
  }

  private session(user: StandInUser): AuthAnswer {
    const iat = Math.floor(this.now() / 1000);
    const refresh = randomBytes(12).toString('base64url');
    this.refreshTokens.set(refresh, user.id);
    this.issued.push(refresh);
    const access = sign({ sub: user.id, email: user.email, role: 'authenticated', aud: 'authenticated', iat, exp: iat + this.lifetime, session_id: randomBytes(8).toString('hex') });
    this.issued.push(access);
    return {
      status: 200,
      body: {
        access_token: access,
        token_type: 'bearer',
        expires_in: this.lifetime,
        expires_at: iat + this.lifetime,
        refresh_token: refresh,
        user: { id: user.id, aud: 'authenticated', role: 'authenticated', email: user.email, app_metadata: { provider: 'email' }, user_metadata: {} },
      },
    };
  }

  /** Answers a request under /auth/v1, or undefined when the path is not one of ours. */
  handle(method: string, url: URL, headers: { authorization?: string; apikey: string }, body: string): AuthAnswer | undefined {
    const path = url.pathname;
    if (path === '/auth/v1/token' && method === 'POST') return this.token(url.searchParams.get('grant_type'), body);
    if (path === '/auth/v1/logout' && method === 'POST') {
      const caller = this.caller(headers.authorization, headers.apikey);
      if ('error' in caller || caller.role !== 'authenticated') return { status: 401, body: { code: 401, error_code: 'no_authorization', msg: 'This endpoint requires a valid Bearer token' } };
      for (const [token, id] of this.refreshTokens) if (id === caller.sub) this.refreshTokens.delete(token);
      this.signedOut.push(caller.sub);
      return { status: 204 };
    }
    if (path === '/auth/v1/user' && (method === 'GET' || method === 'HEAD')) {
      const caller = this.caller(headers.authorization, headers.apikey);
      const user = !('error' in caller) && caller.role === 'authenticated' ? this.users.find((u) => u.id === caller.sub) : undefined;
      return user ? { status: 200, body: { id: user.id, email: user.email, role: 'authenticated' } } : { status: 401, body: { code: 401, error_code: 'bad_jwt', msg: 'invalid JWT' } };
    }
    return undefined;
  }

  private token(grant: string | null, body: string): AuthAnswer {
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(body || '{}') as Record<string, unknown>;
    } catch {
      return { status: 400, body: { error: 'invalid_request', error_description: 'Could not read the body' } };
    }
    if (grant === 'password') {
      const user = this.users.find((u) => u.email === parsed.email && u.password === parsed.password);
      return user ? this.session(user) : { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid login credentials' } };
    }
    if (grant === 'refresh_token') {
      const id = typeof parsed.refresh_token === 'string' ? this.refreshTokens.get(parsed.refresh_token) : undefined;
      const user = this.users.find((u) => u.id === id);
      if (!user) return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid Refresh Token: Refresh Token Not Found' } };
      this.refreshTokens.delete(parsed.refresh_token as string);
      return this.session(user);
    }
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'grant_type must be password or refresh_token' } };
  }
}
