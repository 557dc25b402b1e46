import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { Db } from '../db';
import { authSessions, oauthFlows, oneTimeTokens, userIdentities, users } from '../db/schema';
import { transaction } from '../db/transaction';
import type { ProviderIdentity } from './google-provider';
import { AuthError, normaliseEmail } from './service';
import { ADOPT_TTL_MS } from './adoption';
import { opaqueToken, tokenHash } from './tokens';

/** How long a user has at the provider between our redirect and its return. */
export const FLOW_TTL_MS = 10 * 60 * 1000;

export type OauthFlow = typeof oauthFlows.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** An account set aside by a sign-in (`setAsideUnproven`), with the secret of the link that moves its records. */
export interface SetAside {
  userId: string;
  /** Its address before it was released: the one the mail goes to. */
  email: string;
  createdAt: Date;
  /** The adoption link's secret (kind 'adopt', bound to this account and the one that signed in). */
  adoptToken: string;
}

/** The client's own PKCE challenge (supabase-js, the desktop app), passed through to the one-time code. */
export interface ClientChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

/** Flows to a provider and back, and the accounts its identities map to. */
export class ProviderSignIn {
  constructor(
    private readonly db: Db,
    readonly provider: string,
  ) {}

  /** Stores a new flow; returns the secrets the provider's side of it needs (state, nonce, our PKCE verifier). */
  async startFlow(redirectTo: string, client: ClientChallenge | undefined) {
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    // Abandoned flows go as new ones start; the table holds only the last ten minutes.
    await this.db.delete(oauthFlows).where(lte(oauthFlows.expiresAt, sql`now()`));
    await this.db.insert(oauthFlows).values({
      provider: this.provider,
      stateHash: tokenHash(state),
      nonce,
      codeVerifier,
      redirectTo,
      codeChallenge: client?.challenge,
      codeChallengeMethod: client?.method,
      expiresAt: new Date(Date.now() + FLOW_TTL_MS),
    });
    return { state, nonce, codeVerifier };
  }

  /** The unexpired flow of this state, deleted as it is read: a state works once. */
  async takeFlow(state: string): Promise<OauthFlow | undefined> {
    if (!state) return undefined;
    const [row] = await this.db
      .delete(oauthFlows)
      .where(and(eq(oauthFlows.stateHash, tokenHash(state)), eq(oauthFlows.provider, this.provider)))
      .returning();
    return row && row.expiresAt.getTime() > Date.now() ? row : undefined;
  }

  /**
   * The account of a provider identity: the one already linked to it; else the account with the same proven address,
   * linked now (only when the provider says the address is verified); else a new confirmed account without a
   * password. An account whose address was never proven is set aside first (`setAsideUnproven`); `superseded` is
   * told of it once that is committed, so the caller can drop what it keeps of that account's sessions and mail
   * the address the link that moves its records (server/auth/adoption.ts).
   */
  async accountFor(identity: ProviderIdentity, superseded: (setAside: SetAside) => void = () => undefined): Promise<UserRow> {
    if (!identity.emailVerified) {
      throw new AuthError(403, 'email_not_verified', 'Your Google account’s email address is not verified, so it cannot be used to sign in.');
    }
    const email = normaliseEmail(identity.email);
    let setAside: SetAside | undefined;
    const account = await transaction(this.db, async (tx) => {
      const linked = await this.linkedAccount(tx, identity.subject);
      const now = new Date();
      if (linked) {
        const [user] = await tx.update(users).set({ lastSignInAt: now }).where(eq(users.id, linked.id)).returning();
        return user ?? linked;
      }
      const old = await this.setAsideUnproven(tx, email, now);
      const metadata = { ...(identity.name ? { full_name: identity.name } : {}), ...(identity.picture ? { avatar_url: identity.picture } : {}) };
      // One statement for both cases keeps two first sign-ins at once from creating two accounts.
      const [user] = await tx
        .insert(users)
        .values({ email, passwordHash: null, emailConfirmedAt: now, lastSignInAt: now, userMetadata: metadata, providers: [this.provider] })
        .onConflictDoUpdate({
          target: users.email,
          set: {
            lastSignInAt: now,
            updatedAt: now,
            providers: sql`CASE WHEN ${this.provider} = ANY(${users.providers}) THEN ${users.providers} ELSE array_append(${users.providers}, ${this.provider}) END`,
          },
        })
        .returning();
      if (!user) throw new Error('account upsert returned nothing');
      const [inserted] = await tx.insert(userIdentities).values({ provider: this.provider, subject: identity.subject, userId: user.id }).onConflictDoNothing().returning();
      if (old) {
        // The account just set aside held the address, so the upsert above made a new account.
        const adoptToken = opaqueToken();
        await tx.insert(oneTimeTokens).values({
          userId: old.id,
          targetUserId: user.id,
          kind: 'adopt',
          tokenHash: tokenHash(adoptToken),
          expiresAt: new Date(Date.now() + ADOPT_TTL_MS),
        });
        setAside = { userId: old.id, email: old.email, createdAt: old.createdAt, adoptToken };
      }
      if (inserted) return user;
      // The same first sign-in finished a moment ago in another request: its link stands.
      const raced = await this.linkedAccount(tx, identity.subject);
      if (!raced) throw new Error('identity link vanished');
      return raced;
    });
    // Once committed: a session check that read the disabled account's sessions before must not be trusted after.
    if (setAside) superseded(setAside);
    return account;
  }

  /**
   * Pre-account takeover, handled as Supabase Auth does: anyone may sign up with an address that is not theirs, so an
   * account whose address was never proven is not trusted when a verified identity for that address arrives. Linking
   * it would hand its owner's future work to whoever chose its password; handing its rows (projects, webhooks, keys)
   * to the identity would plant them in the real owner's dashboard. So the identity gets a new account, and the old
   * one is disabled: its password and sessions go, its address is released (`disabled_at` records when), and its
   * rows stay with it, reachable by no one who signs in. The owner of the address sets a password later through a
   * recovery mail, as the Google account; the records come over if the address's owner follows the link mailed to
   * it (server/auth/adoption.ts). Returns the disabled account (with the address it had), if there was one.
   */
  private async setAsideUnproven(tx: Db, email: string, now: Date): Promise<{ id: string; email: string; createdAt: Date } | undefined> {
    const [old] = await tx
      .update(users)
      .set({ email: sql`'disabled+' || ${users.id}::text || '@vibeeval.invalid'`, passwordHash: null, disabledAt: now, updatedAt: now })
      .where(and(eq(users.email, email), isNull(users.emailConfirmedAt)))
      .returning({ id: users.id, createdAt: users.createdAt });
    if (!old) return undefined;
    await tx.delete(authSessions).where(eq(authSessions.userId, old.id));
    // The WHERE matched this address exactly (RETURNING gives the row as renamed).
    return { id: old.id, email, createdAt: old.createdAt };
  }

  /** The account linked to this provider's subject, if any. */
  private async linkedAccount(db: Db, subject: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select({ user: users })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.provider, this.provider), eq(userIdentities.subject, subject)));
    return row?.user;
  }
}
