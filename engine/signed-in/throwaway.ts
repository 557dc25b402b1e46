// Active scans only: the one account a scan creates itself, where the site's Supabase project lets anyone sign up, to
// learn what a brand-new account can read. It lives on the scan's main thread beside the test accounts' sessions
// (session-store.ts): its address is named in the report so the owner can delete it; its password is random, held in
// memory for the sign-up only, and never leaves this process.
import { randomBytes } from 'node:crypto';
import type { ScanCoverage } from '../../common/scan';
import type { Fetcher } from '../retrieval/fetcher';
import type { SiteAccount } from '../types';
import { headersFor, parseSession, refusal, type SupabaseEndpoint, type SupabaseSession } from './sign-in';

/**
 * The throwaway account's mail domain. example.com is reserved for documentation by RFC 2606 and publishes a null MX
 * (RFC 7505): no one can receive mail there, so a confirmation mail the project sends reaches no person, and the
 * address can never be a real user's of the site. (Hosted Supabase Auth refuses to send mail to it at all.)
 */
export const THROWAWAY_DOMAIN = 'example.com';

/** A new address for each scan: `vibeeval-<12 hex>@example.com`, recognisable in the project's user list. */
export function throwawayAddress(): string {
  return `vibeeval-${randomBytes(6).toString('hex')}@${THROWAWAY_DOMAIN}`;
}

/**
 * 192 random bits, and one character of each class a project's password rules may ask for (lower, upper, digit,
 * symbol), within GoTrue's 72-byte limit.
 */
export function throwawayPassword(): string {
  return `${randomBytes(24).toString('base64url')}aA1!`;
}

/** What the sign-up did: a session (auto-confirmed), or why not and whether an account may exist anyway. */
export type SignUpAnswer = { ok: true; session: SupabaseSession } | { ok: false; reason: string; created: 'unconfirmed' | 'no' | 'unknown' };

/**
 * POST /auth/v1/signup as supabase-js's signUp sends it. Sent once, never retried (Fetcher `once`): an attempt the
 * project carried out before a 429 or a dropped connection must not become a second account.
 */
export async function signUp(fetcher: Fetcher, endpoint: SupabaseEndpoint, login: string, password: string, now: () => number = Date.now): Promise<SignUpAnswer> {
  const exchange = await fetcher.fetch({
    method: 'POST',
    url: `${endpoint.projectUrl}/auth/v1/signup`,
    headers: headersFor(endpoint.apikey),
    body: JSON.stringify({ email: login, password, data: {} }),
    noRedirect: true,
    once: true,
  });
  const session = parseSession(exchange, now());
  if (session) return { ok: true, session };
  // GoTrue answers 200 with the new user and no session when the address must be confirmed first.
  if (exchange.status === 200) return { ok: false, created: 'unconfirmed', reason: 'email confirmation is required' };
  const known = exchange.status >= 400 && exchange.status < 500;
  return { ok: false, created: known ? 'no' : 'unknown', reason: refusal(exchange, 'Supabase sign-up') };
}

type SignInCoverage = NonNullable<ScanCoverage['signIns']>[number];

const DELETE_IT = 'delete it in the Supabase dashboard (Authentication > Users)';
const MAX_REASON = 500;

/** The scan's one throwaway account: its address, its password (memory only) and how its sign-up went. */
export class Throwaway {
  readonly login = throwawayAddress();
  /** Sent in the sign-up body only; masked wherever an exchange could echo it. */
  readonly password = throwawayPassword();
  /** The one project it was (or is being) created on; set before the sign-up is sent, never changed after. */
  endpoint?: SupabaseEndpoint;
  private outcome?: { signedIn: boolean; userId?: string; reason?: string; created: 'yes' | 'unconfirmed' | 'no' | 'unknown' };

  constructor(readonly index: number) {}

  /** Records the sign-up's answer. */
  record(answer: SignUpAnswer): void {
    this.outcome = answer.ok ? { signedIn: true, userId: answer.session.userId, created: 'yes' } : { signedIn: false, reason: answer.reason, created: answer.created };
  }

  /** As checks see it: its address, whether it signed in, its user id. */
  siteAccount(): SiteAccount {
    return { login: this.login, signedIn: this.outcome?.signedIn ?? false, userId: this.outcome?.userId, throwaway: true };
  }

  /** The coverage line: created and signed in, or why not (`untried`: why no sign-up was sent, from the site). */
  coverage(untried: string): SignInCoverage {
    const project = this.endpoint?.projectUrl ?? '';
    const line = (account: string, signedIn: boolean, reason: string): SignInCoverage => ({
      account,
      signedIn,
      ...(this.endpoint ? { method: 'supabase' as const } : {}),
      reason: reason.slice(0, MAX_REASON),
      throwaway: true,
    });
    const outcome = this.outcome;
    if (!outcome) return line('throwaway account (not created)', false, untried);
    if (outcome.created === 'yes') return line(this.login, true, `created on ${project}, where anyone can sign up; ${DELETE_IT}.`);
    if (outcome.created === 'unconfirmed') {
      return line(
        this.login,
        false,
        `Anyone can sign up on ${project}, but a new account must confirm its email address first: ${this.login} was created unconfirmed and not used; ${DELETE_IT}.`,
      );
    }
    if (outcome.created === 'no') return line(this.login, false, `${outcome.reason ?? 'Supabase sign-up was refused.'} No account was created.`);
    return line(this.login, false, `${outcome.reason ?? 'Supabase sign-up got no answer.'} If ${this.login} was created, ${DELETE_IT}.`);
  }
}
