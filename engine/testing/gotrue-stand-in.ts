// TEST STAND-IN for Supabase Auth (GoTrue), the part the PostgREST stand-in serves under /auth/v1: password sign-in
// and refresh (POST /auth/v1/token?grant_type=password|refresh_token), sign-out (POST /auth/v1/logout) and the
// current user (GET /auth/v1/user), and sign-up (POST /auth/v1/signup) when the project's sign-up is open: closed
// (GoTrue's `disable_signup`), open with email confirmation (the new account cannot sign in until it confirms), or
// open with auto-confirm (a session comes back at once). It issues HS256 JWTs for the users it holds (sub = the user's id, role
// authenticated), which the PostgREST stand-in reads to apply its per-user rules.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** A user of the stand-in project, who signs in with email and password. */
export interface StandInUser {
  id: string;
  email: string;
  password: string;
}

/** Who a request is made as: the anon key alone, or a signed-in user's access token. */
export type Caller = { role: 'anon' } | { role: 'authenticated'; sub: string };

/** Who may sign up: nobody, anyone who then confirms the email address, or anyone at once (auto-confirm). */
export type SignUpMode = 'closed' | 'confirm' | 'auto';

export interface AuthOptions {
  users?: StandInUser[];
  /** Sign-up (default 'confirm': open, as a new Supabase project is, with email confirmation on). */
  signUp?: SignUpMode;
  /** Called with each account created by sign-up (the stand-in's `handle_new_user` trigger). */
  onSignUp?: (user: StandInUser) => void;
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

/** A sign-up: the one call that creates an account. Counted apart from sign-in, refresh and sign-out. */
export function isSignUpCall(method: string, url: string): boolean {
  return method === 'POST' && url.split('?')[0] === '/auth/v1/signup';
}

/** Supabase Auth for the stand-in: its users, the tokens it issued and the sessions still open. */
export class GoTrueStandIn {
  private readonly users: StandInUser[];
  /** Users created by sign-up who have not confirmed their email address (they cannot sign in). */
  private readonly unconfirmed = new Set<string>();
  private readonly signUpMode: SignUpMode;
  private readonly onSignUp?: (user: StandInUser) => void;
  private readonly lifetime: number;
  private readonly now: () => number;
  /** Refresh token -> user id, for sessions not signed out. */
  private readonly refreshTokens = new Map<string, string>();
  /** Users who signed out, in order. */
  readonly signedOut: string[] = [];
  /** Every access and refresh token issued (tests look for them in a scan's outputs). */
  readonly issued: string[] = [];
  /** Accounts created by sign-up, with the password they were given (tests look for it in a scan's outputs). */
  readonly signedUp: StandInUser[] = [];

  constructor(options: AuthOptions = {}) {
    this.users = [...(options.users ?? [])];
    this.signUpMode = options.signUp ?? 'confirm';
    this.onSignUp = options.onSignUp;
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
    const access = sign({
      sub: user.id,
      email: user.email,
      role: 'authenticated',
      aud: 'authenticated',
      iat,
      exp: iat + this.lifetime,
      session_id: randomBytes(8).toString('hex'),
    });
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
    if (path === '/auth/v1/signup' && method === 'POST') return this.signUp(body);
    if (path === '/auth/v1/logout' && method === 'POST') {
      const caller = this.caller(headers.authorization, headers.apikey);
      if ('error' in caller || caller.role !== 'authenticated')
        return { status: 401, body: { code: 401, error_code: 'no_authorization', msg: 'This endpoint requires a valid Bearer token' } };
      for (const [token, id] of this.refreshTokens) if (id === caller.sub) this.refreshTokens.delete(token);
      this.signedOut.push(caller.sub);
      return { status: 204 };
    }
    if (path === '/auth/v1/user' && (method === 'GET' || method === 'HEAD')) {
      const caller = this.caller(headers.authorization, headers.apikey);
      const user = !('error' in caller) && caller.role === 'authenticated' ? this.users.find((u) => u.id === caller.sub) : undefined;
      return user
        ? { status: 200, body: { id: user.id, email: user.email, role: 'authenticated' } }
        : { status: 401, body: { code: 401, error_code: 'bad_jwt', msg: 'invalid JWT' } };
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
      if (user && this.unconfirmed.has(user.id)) return { status: 400, body: { code: 400, error_code: 'email_not_confirmed', msg: 'Email not confirmed' } };
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

  /** The GoTrue settings answer for this project's sign-up (what GET /auth/v1/settings says). */
  settings(): { disable_signup: boolean; mailer_autoconfirm: boolean } {
    return { disable_signup: this.signUpMode === 'closed', mailer_autoconfirm: this.signUpMode === 'auto' };
  }

  /** POST /auth/v1/signup as GoTrue answers it: refused when closed, a session when auto-confirmed, else the new user. */
  private signUp(body: string): AuthAnswer {
    if (this.signUpMode === 'closed') return { status: 422, body: { code: 422, error_code: 'signup_disabled', msg: 'Signups not allowed for this instance' } };
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body || '{}') as Record<string, unknown>;
    } catch {
      return { status: 400, body: { code: 400, error_code: 'bad_json', msg: 'Could not parse request body as JSON' } };
    }
    const { email, password } = parsed;
    if (typeof email !== 'string' || !email.includes('@'))
      return { status: 400, body: { code: 400, error_code: 'validation_failed', msg: 'Unable to validate email address: invalid format' } };
    if (typeof password !== 'string' || password.length < 6)
      return { status: 422, body: { code: 422, error_code: 'weak_password', msg: 'Password should be at least 6 characters.' } };
    const existing = this.users.find((u) => u.email === email);
    if (existing) {
      // GoTrue does not make a second account for an address: with auto-confirm it says so; with confirmation on it
      // answers as for a new user (so sign-up does not reveal who has an account) and changes nothing.
      if (this.signUpMode === 'auto') return { status: 422, body: { code: 422, error_code: 'user_already_exists', msg: 'User already registered' } };
      return { status: 200, body: { id: randomUUID(), aud: 'authenticated', role: '', email, confirmation_sent_at: new Date(this.now()).toISOString() } };
    }
    const user: StandInUser = { id: randomUUID(), email, password };
    this.users.push(user);
    this.signedUp.push(user);
    this.onSignUp?.(user);
    if (this.signUpMode === 'auto') return this.session(user);
    this.unconfirmed.add(user.id);
    return {
      status: 200,
      body: {
        id: user.id,
        aud: 'authenticated',
        role: 'authenticated',
        email,
        confirmation_sent_at: new Date(this.now()).toISOString(),
        app_metadata: { provider: 'email' },
        user_metadata: {},
        identities: [],
      },
    };
  }
}
