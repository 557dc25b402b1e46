import { createHash, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { authSessions, oneTimeTokens, refreshTokens, users } from '../db/schema';
import { USER_METADATA_LIMITS } from '../http-input';
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords';
import { SessionEnds } from './session-ends';
import { opaqueToken, tokenHash, type AccessClaims, type AccessTokens } from './tokens';
import { transaction } from '../db/transaction';
import { LRUCache } from 'lru-cache';

/** An error in GoTrue's shape, which supabase-js turns into an AuthApiError with `code` and `message`. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const MIN_PASSWORD_LENGTH = 6;
const RECOVERY_TTL_MS = 60 * 60 * 1000;
const PKCE_CODE_TTL_MS = 5 * 60 * 1000;

type UserRow = typeof users.$inferSelect;
/** What a link mailed to an account's address is for. */
export type EmailLinkKind = 'recovery' | 'signup';

/** The user object of GoTrue's API. */
export function userJson(user: UserRow) {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: iso(user.emailConfirmedAt),
    confirmed_at: iso(user.emailConfirmedAt),
    phone: '',
    last_sign_in_at: iso(user.lastSignInAt),
    app_metadata: { provider: user.providers[0] ?? 'email', providers: user.providers },
    user_metadata: user.userMetadata,
    identities: [],
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    is_anonymous: false,
  };
}

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * How long after its sign-in a session may set a new password without giving the current one: time enough to
 * finish the reset page a recovery link opens (its session starts when the link is followed), not enough for a
 * token taken later from a device left signed in.
 */
const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

/** Did the token's session sign in (or follow a recovery link) within RECENT_SIGN_IN_MS? */
function recentSignIn(claims: Pick<AccessClaims, 'amr'>, now = Date.now()): boolean {
  // Every token of a session carries the session's start (see sessionJson), refreshed ones too.
  const started = claims.amr[0]?.timestamp;
  return typeof started === 'number' && now - started * 1000 < RECENT_SIGN_IN_MS;
}

/** How long a session found in the database is trusted before it is looked up again (by default). */
export const SESSION_RECHECK_MS = 2_000;

/** A client's PKCE challenge, kept with a mailed link's token so the link answers with a code to exchange. */
export interface PkceChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

export interface AuthServiceOptions {
  /** Shared servers: sign-up mails a confirmation link, and password sign-in waits for it (GoTrue's mailer_autoconfirm off). */
  confirmEmail?: boolean;
  /**
   * How long a session found in the database is trusted before it is looked up again (default SESSION_RECHECK_MS).
   * A session ended on another instance is refused here at once by the database's news, or after this at the latest.
   */
  sessionRecheckMs?: number;
}

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly tokens: AccessTokens,
    private readonly options: AuthServiceOptions = {},
    /** Sessions ended here are told there; any end told there (this process or another) drops the kept answers. */
    readonly sessionEnds = new SessionEnds(),
  ) {
    sessionEnds.on(() => this.forgetSessions());
  }

  /**
   * A new account (with the token of its confirmation link to mail when addresses are confirmed), or the account
   * that already has the address. `answer` is the same either way (a user without a session, a stand-in for an existing account), so sign-up
   * does not tell who has an account; the mail to the address says what happened. Signing up proves nothing about
   * the address (anyone can type anyone's): it stays unproven until a link mailed to it is followed (see
   * ProviderSignIn for why that matters).
   */
  async signUp(email: string, password: string, metadata: Record<string, unknown>, pkce?: PkceChallenge) {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new AuthError(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
        weak_password: { reasons: ['length'] },
      });
    }
    const passwordHash = await hashPassword(password);
    const now = new Date();
    const address = normaliseEmail(email);
    const [user] = await this.db
      .insert(users)
      .values({ email: address, passwordHash, emailConfirmedAt: null, userMetadata: metadata })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (user) {
      // Without confirmation the new account signs in at once; its address is proven later, if ever, by a recovery link.
      const token = this.options.confirmEmail ? await this.createEmailToken(user.id, 'signup', pkce) : undefined;
      return { kind: 'created' as const, user, token, answer: userJson(user) };
    }
    const existing = await this.db.query.users.findFirst({ where: eq(users.email, address) });
    const standIn: UserRow = {
      id: randomUUID(),
      email: address,
      passwordHash: null,
      emailConfirmedAt: null,
      disabledAt: null,
      lastSignInAt: null,
      userMetadata: metadata,
      providers: ['email'],
      createdAt: now,
      updatedAt: now,
    };
    return { kind: 'existing' as const, user: existing, answer: userJson(standIn) };
  }

  async signInWithPassword(email: string, password: string, client: ClientInfo) {
    const user = await this.db.query.users.findFirst({ where: eq(users.email, normaliseEmail(email)) });
    const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !user.passwordHash || !ok) throw new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
    if (this.options.confirmEmail && !user.emailConfirmedAt) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
    const [updated] = await this.db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id)).returning();
    return this.issueSession(updated ?? user, 'password', client);
  }

  /** A session for the account with this id (one that followed an adoption link mailed to its address). */
  async sessionFor(userId: string, method: string, client: ClientInfo) {
    const user = await this.db.query.users.findFirst({ where: eq(users.id, userId) });
    if (!user) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
    return this.issueSession(user, method, client);
  }

  /** Creates a session with its first refresh token and access token. */
  async issueSession(user: UserRow, method: string, client: ClientInfo) {
    const [session] = await this.db
      .insert(authSessions)
      .values({ userId: user.id, ip: client.ip, userAgent: client.userAgent?.slice(0, 512) })
      .returning();
    if (!session) throw new Error('session insert returned nothing');
    const refreshToken = opaqueToken();
    await this.db.insert(refreshTokens).values({ tokenHash: tokenHash(refreshToken), sessionId: session.id });
    return this.sessionJson(user, session.id, session.createdAt, method, refreshToken);
  }

  private async sessionJson(user: UserRow, sessionId: string, authenticatedAt: Date, method: string, refreshToken: string) {
    const { token, expiresAt } = await this.tokens.sign({
      sub: user.id,
      email: user.email,
      role: 'authenticated',
      session_id: sessionId,
      aal: 'aal1',
      amr: [{ method, timestamp: Math.floor(authenticatedAt.getTime() / 1000) }],
      app_metadata: { provider: user.providers[0] ?? 'email', providers: user.providers },
      user_metadata: user.userMetadata,
      is_anonymous: false,
    });
    return {
      access_token: token,
      token_type: 'bearer' as const,
      expires_in: this.tokens.lifetimeSeconds,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: userJson(user),
    };
  }

  /**
   * Exchanges a refresh token for a new pair. Each token works once: presenting one that was already
   * used means it leaked (or a client misbehaves), so the whole session is revoked.
   */
  async refresh(presented: string) {
    let reusedSession: string | undefined;
    const session = await transaction(this.db, async (tx) => {
      const [row] = await tx
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash(presented)))
        .for('update');
      if (!row) throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      if (row.revoked) {
        reusedSession = row.sessionId;
        return undefined;
      }
      const [session] = await tx.select().from(authSessions).where(eq(authSessions.id, row.sessionId));
      const user = session && (await tx.query.users.findFirst({ where: eq(users.id, session.userId) }));
      if (!session || !user) throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: Session Not Found');
      await tx.update(refreshTokens).set({ revoked: true }).where(eq(refreshTokens.id, row.id));
      const next = opaqueToken();
      await tx.insert(refreshTokens).values({ tokenHash: tokenHash(next), sessionId: session.id });
      await tx.update(authSessions).set({ refreshedAt: new Date() }).where(eq(authSessions.id, session.id));
      return this.sessionJson(user, session.id, session.createdAt, 'token_refresh', next);
    });
    if (!session) {
      // Outside the transaction above, which only read: the revocation must not roll back with the error.
      if (reusedSession) {
        const [ended] = await this.db.delete(authSessions).where(eq(authSessions.id, reusedSession)).returning({ userId: authSessions.userId });
        if (ended) this.sessionEnds.emit({ userId: ended.userId, sessionId: reusedSession });
      }
      throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
    return session;
  }

  /** Resolves a verified access token to its user, failing when the session was signed out. */
  /** Checked on every API request: a prepared statement, planned once per connection. */
  private sessionQuery?: ReturnType<typeof this.prepareSessionQuery>;

  private prepareSessionQuery() {
    return this.db
      .select({ user: users })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(and(eq(authSessions.id, sql.placeholder('sessionId')), eq(authSessions.userId, sql.placeholder('userId'))))
      .prepare('user_for_session');
  }

  /**
   * Sessions found in the last `sessionRecheckMs`. A logout in this process clears it at once; one on another
   * server instance takes effect here within that time.
   */
  private readonly recentSessions = new LRUCache<string, { user: UserRow; at: number }>({ max: 10_000 });
  /**
   * The session checks under way: the requests of a session that come while its check runs wait for that answer
   * instead of asking PostgreSQL again (a client with many requests in flight asked once per request each time
   * the kept answer expired). A check started before a logout is neither joined nor kept after it (`epoch`).
   */
  private readonly pendingSessions = new Map<string, { epoch: number; user: Promise<UserRow> }>();
  private sessionsEpoch = 0;

  /** Drops every kept session answer, and the checks under way from being joined or kept (a logout). */
  forgetSessions() {
    this.recentSessions.clear();
    this.pendingSessions.clear();
    this.sessionsEpoch++;
  }

  private get sessionRecheckMs() {
    return this.options.sessionRecheckMs ?? SESSION_RECHECK_MS;
  }

  /** The user of a session found in the last `sessionRecheckMs`, without asking; undefined: ask `userForSession`. */
  recentUser(userId: string, sessionId: string): UserRow | undefined {
    const recent = this.recentSessions.get(`${userId}/${sessionId}`);
    return recent && Date.now() - recent.at < this.sessionRecheckMs ? recent.user : undefined;
  }

  async userForSession(userId: string, sessionId: string): Promise<UserRow> {
    const key = `${userId}/${sessionId}`;
    const recent = this.recentSessions.get(key);
    if (recent && Date.now() - recent.at < this.sessionRecheckMs) return recent.user;
    const pending = this.pendingSessions.get(key);
    if (pending && pending.epoch === this.sessionsEpoch) return pending.user;
    const check = { epoch: this.sessionsEpoch, user: this.checkSession(key, userId, sessionId) };
    this.pendingSessions.set(key, check);
    try {
      return await check.user;
    } finally {
      if (this.pendingSessions.get(key) === check) this.pendingSessions.delete(key);
    }
  }

  private async checkSession(key: string, userId: string, sessionId: string): Promise<UserRow> {
    const epoch = this.sessionsEpoch;
    this.sessionQuery ??= this.prepareSessionQuery();
    const [row] = await this.sessionQuery.execute({ sessionId, userId });
    if (!row) {
      this.recentSessions.delete(key);
      throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    if (epoch !== this.sessionsEpoch) return row.user;
    this.recentSessions.set(key, { user: row.user, at: Date.now() });
    return row.user;
  }

  /**
   * Changes the user's metadata or password. A new password needs the current one unless `session` signed in (or
   * followed a recovery link) recently, and signs out every other session of the user (this one stays).
   */
  async updateUser(
    user: UserRow,
    changes: { password?: string; currentPassword?: string; data?: Record<string, unknown>; email?: string },
    session: { id: string; claims: Pick<AccessClaims, 'amr'> },
  ) {
    if (changes.email !== undefined && normaliseEmail(changes.email) !== user.email) {
      throw new AuthError(422, 'email_change_unsupported', 'Changing the email address of a local account is not supported.');
    }
    const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
    if (changes.password !== undefined) {
      if (changes.password.length < MIN_PASSWORD_LENGTH) {
        throw new AuthError(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
          weak_password: { reasons: ['length'] },
        });
      }
      await this.assertMayChangePassword(user, changes.currentPassword, session.claims);
      if (user.passwordHash && (await verifyPassword(changes.password, user.passwordHash))) {
        throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
      }
      set.passwordHash = await hashPassword(changes.password);
    }
    // Metadata is merged in the database, not from the (possibly cached) row: two changes in a row both stay, and
    // the merged whole must stay within the size each change is held to.
    const merged = changes.data ? sql`${users.userMetadata} || ${JSON.stringify(changes.data)}::jsonb` : undefined;
    const [updated] = await this.db
      .update(users)
      .set(merged ? { ...set, userMetadata: merged } : set)
      .where(and(eq(users.id, user.id), merged ? sql`octet_length((${merged})::text) <= ${USER_METADATA_LIMITS.bytes}` : undefined))
      .returning();
    if (!updated && merged) {
      throw new AuthError(400, 'validation_failed', `data: may take at most ${USER_METADATA_LIMITS.bytes} bytes as JSON, merged with the stored metadata`);
    }
    if (updated) this.refreshCachedUser(updated);
    if (updated && set.passwordHash) await this.afterPasswordChange(user.id, session.id);
    return updated ?? user;
  }

  /**
   * Whoever holds only a token (taken from a device left signed in, or leaked) must not lock the owner out: a new
   * password needs the current one, or a sign-in (or recovery link) within RECENT_SIGN_IN_MS. GoTrue's codes and texts.
   */
  private async assertMayChangePassword(user: UserRow, currentPassword: string | undefined, claims: Pick<AccessClaims, 'amr'>) {
    if (recentSignIn(claims)) return;
    if (!user.passwordHash) throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication');
    const required = 'Current password required when setting new password.';
    if (!currentPassword) throw new AuthError(400, 'current_password_required', required);
    if (!(await verifyPassword(currentPassword, user.passwordHash))) throw new AuthError(400, 'current_password_invalid', required);
  }

  /** The other sessions of the user end (their access and refresh tokens with them), and so do unused recovery links. */
  private async afterPasswordChange(userId: string, keptSessionId: string) {
    const ended = await this.db
      .delete(authSessions)
      .where(and(eq(authSessions.userId, userId), ne(authSessions.id, keptSessionId)))
      .returning({ id: authSessions.id });
    await this.db.delete(oneTimeTokens).where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.kind, 'recovery'), isNull(oneTimeTokens.usedAt)));
    this.endSessions(userId, ended);
  }

  /** The sessions cache holds the user row: after a change, its sessions see the new row. */
  private refreshCachedUser(user: UserRow) {
    for (const recent of this.recentSessions.values()) if (recent.user.id === user.id) recent.user = user;
    // A check under way read the row before the change: its answer is not kept, nor joined.
    this.sessionsEpoch++;
  }

  async signOut(userId: string, sessionId: string, scope: 'global' | 'local' | 'others') {
    const where =
      scope === 'local'
        ? eq(authSessions.id, sessionId)
        : scope === 'others'
          ? and(eq(authSessions.userId, userId), ne(authSessions.id, sessionId))
          : eq(authSessions.userId, userId);
    this.endSessions(userId, await this.db.delete(authSessions).where(where).returning({ id: authSessions.id }));
  }

  /** Tells this process at once that the sessions ended (the others hear it from the database's trigger). */
  private endSessions(userId: string, ended: { id: string }[]) {
    this.forgetSessions();
    for (const { id } of ended) this.sessionEnds.emit({ userId, sessionId: id });
  }

  /**
   * Creates a recovery token for the account, or returns undefined when there is none (the caller answers
   * the same either way, so the endpoint doesn't reveal which emails are registered).
   */
  async createRecovery(email: string, pkce?: PkceChallenge) {
    const user = await this.db.query.users.findFirst({ where: eq(users.email, normaliseEmail(email)) });
    if (!user) return undefined;
    return { user, token: await this.createEmailToken(user.id, 'recovery', pkce) };
  }

  /** The secret of a link mailed to the account's address (recovery or sign-up confirmation), valid for an hour. */
  private async createEmailToken(userId: string, kind: EmailLinkKind, pkce: PkceChallenge | undefined) {
    const token = opaqueToken();
    await this.db.insert(oneTimeTokens).values({
      userId,
      kind,
      tokenHash: tokenHash(token),
      codeChallenge: pkce?.challenge,
      codeChallengeMethod: pkce?.method,
      expiresAt: new Date(Date.now() + RECOVERY_TTL_MS),
    });
    return token;
  }

  /** Marks an unexpired, unused token of this kind as used and returns it; undefined otherwise (atomic). */
  private async consumeOneTimeToken(token: string, kind: EmailLinkKind | 'pkce_code') {
    const [row] = await this.db
      .update(oneTimeTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(oneTimeTokens.tokenHash, tokenHash(token)), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, sql`now()`)))
      .returning();
    return row;
  }

  /** A one-time auth code for a PKCE client, redeemed with its verifier at /token?grant_type=pkce. */
  async createPkceCode(userId: string, pkce: { challenge: string; method: string }, authenticationMethod: string) {
    const code = opaqueToken();
    await this.db.insert(oneTimeTokens).values({
      userId,
      kind: 'pkce_code',
      tokenHash: tokenHash(code),
      codeChallenge: pkce.challenge,
      codeChallengeMethod: pkce.method,
      authenticationMethod,
      expiresAt: new Date(Date.now() + PKCE_CODE_TTL_MS),
    });
    return code;
  }

  /**
   * Redeems a recovery (or sign-up confirmation) token once: a session, or for PKCE clients an auth code to exchange.
   * Following a link mailed to the address proves it is the owner's: the address counts as confirmed from then on.
   */
  async redeemRecovery(token: string, client: ClientInfo, kind: EmailLinkKind = 'recovery') {
    const row = await this.consumeOneTimeToken(token, kind);
    if (!row) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
    const [user] = await this.db
      .update(users)
      .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())` })
      .where(eq(users.id, row.userId))
      .returning();
    if (!user) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
    this.refreshCachedUser(user);
    if (row.codeChallenge && row.codeChallengeMethod) {
      const code = await this.createPkceCode(user.id, { challenge: row.codeChallenge, method: row.codeChallengeMethod }, kind);
      return { kind: 'code' as const, code };
    }
    return { kind: 'session' as const, session: await this.issueSession(user, kind, client) };
  }

  /** The PKCE grant: the auth code plus the verifier whose hash the client sent first. */
  async exchangeCode(authCode: string, verifier: string, client: ClientInfo) {
    const row = await this.consumeOneTimeToken(authCode, 'pkce_code');
    if (!row) throw new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
    const expected = row.codeChallengeMethod === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
    if (expected !== row.codeChallenge) {
      throw new AuthError(403, 'bad_code_verifier', 'code challenge does not match previously saved code verifier');
    }
    const user = await this.db.query.users.findFirst({ where: eq(users.id, row.userId) });
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
    const session = await this.issueSession(user, row.authenticationMethod ?? 'pkce', client);
    return { ...session, redirect_type: row.authenticationMethod === 'recovery' ? 'recovery' : undefined };
  }
}
