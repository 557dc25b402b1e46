// The test accounts' sessions during a signed-in scan, on the scan's main thread: a probe a check planned "as account
// N" is sent with that account's access token in place of the public key. The account signs in to a project the first
// time a probe needs it (the checks found the project and its key; this side reads no site text), refreshes when the
// token nears expiry, and signs out when the scan's requests are done. Passwords and tokens stay here: the checks get
// the logins, the outcome and the user ids, and every exchange leaving the scan has the tokens masked.
import type { ScanCoverage } from '../../common/scan';
import type { ScanAccount } from '../../common/scan-accounts';
import type { Fetcher } from '../retrieval/fetcher';
import { maskSecret } from '../secrets/mask';
import type { Exchange, ProbeRequest, SiteAccount } from '../types';
import { canUsePasswordGrant, refreshSession, signInWithPassword, signOut, type SupabaseEndpoint, type SupabaseSession } from './sign-in';
import { signUp, Throwaway } from './throwaway';

export type SignInCoverage = NonNullable<ScanCoverage['signIns']>[number];

/** Refresh this long before expiry, so a request never goes out with a token about to lapse. */
const REFRESH_MARGIN_MS = 60_000;

export const NO_SIGN_IN_METHOD = 'No sign-in method was found: the site shows no Supabase project with a public key, so the scan ran as an anonymous visitor only.';
export const USERNAME_LOGIN = "Not signed in: Supabase's password sign-in takes an email address, and this login is a user name.";
export const NO_SIGN_UP = 'No Supabase project of the site was found open to sign-up.';

interface Live {
  endpoint: SupabaseEndpoint;
  index: number;
  /** The current session, or why there is none. */
  state: Promise<{ session?: SupabaseSession; reason?: string }>;
  refreshing?: Promise<{ session?: SupabaseSession; reason?: string }>;
}

/** The sessions of a scan's test accounts, one per account and project. */
export class SessionStore {
  private readonly live = new Map<string, Live>();
  private readonly outcomes: Array<{ signedIn: boolean; reason?: string; userId?: string; tried: boolean }>;
  /** Every token issued during the scan, for masking (a refreshed token's predecessor may still show up). */
  private readonly tokens = new Set<string>();
  /** Active scans: the one account the scan may create itself (index after the given accounts). */
  private throwaway?: Throwaway;

  constructor(
    private readonly fetcher: Fetcher,
    private readonly accounts: readonly ScanAccount[],
    private readonly now: () => number = Date.now,
  ) {
    this.outcomes = accounts.map(() => ({ signedIn: false, tried: false }));
  }

  /**
   * Active scans: lets the scan create one throwaway account where sign-up is open, the first time a probe planned as
   * it needs it. Without this call no sign-up is ever sent, whatever a check plans.
   */
  allowThrowaway(): void {
    this.throwaway ??= new Throwaway(this.accounts.length);
  }

  /** What checks may know of the accounts: logins, and once signed in, user ids. */
  siteAccounts(): SiteAccount[] {
    const given = this.accounts.map((account, i) => ({ login: account.login, signedIn: this.outcomes[i]!.signedIn, userId: this.outcomes[i]!.userId }));
    return this.throwaway ? [...given, this.throwaway.siteAccount()] : given;
  }

  /** The coverage line of each account: signed in or not, and why not (`noSignUp`: why no throwaway was created). */
  coverage(noSignUp: string = NO_SIGN_UP): SignInCoverage[] {
    const given = this.accounts.map((account, i): SignInCoverage => {
      const outcome = this.outcomes[i]!;
      if (!outcome.tried) return { account: account.login, signedIn: false, reason: canUsePasswordGrant(account.login) ? NO_SIGN_IN_METHOD : USERNAME_LOGIN };
      return { account: account.login, signedIn: outcome.signedIn, method: 'supabase', reason: outcome.signedIn ? undefined : outcome.reason };
    });
    return this.throwaway ? [...given, this.throwaway.coverage(noSignUp)] : given;
  }

  /** The probe's headers with the account's access token as the bearer, or why it cannot be sent. */
  async authorize(probe: ProbeRequest): Promise<{ headers: Record<string, string> } | { error: string }> {
    const index = probe.as ?? -1;
    if (this.throwaway && index === this.throwaway.index) return this.authorizeThrowaway(probe);
    const account = this.accounts[index];
    const apikey = probe.headers?.apikey;
    if (!account || !apikey) return { error: 'no such test account' };
    const outcome = this.outcomes[index]!;
    if (!canUsePasswordGrant(account.login)) {
      Object.assign(outcome, { tried: true, reason: USERNAME_LOGIN });
      return { error: USERNAME_LOGIN };
    }
    return this.bearer(probe, this.session(new URL(probe.url).origin, apikey, index));
  }

  /** The probe's headers with the live session's access token as the bearer. */
  private async bearer(probe: ProbeRequest, live: Live): Promise<{ headers: Record<string, string> } | { error: string }> {
    const { session, reason } = await this.current(live);
    if (!session) return { error: reason ?? 'not signed in' };
    const headers = Object.fromEntries(Object.entries(probe.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'));
    return { headers: { ...headers, Authorization: `Bearer ${session.accessToken}` } };
  }

  private authorizeThrowaway(probe: ProbeRequest): Promise<{ headers: Record<string, string> } | { error: string }> | { error: string } {
    const throwaway = this.throwaway!;
    const apikey = probe.headers?.apikey;
    if (!apikey) return { error: 'no such test account' };
    const projectUrl = new URL(probe.url).origin;
    const live = this.live.get(`${throwaway.index}\n${projectUrl}\n${apikey}`);
    if (live) return this.bearer(probe, live);
    // One throwaway account per scan, ever: the guard is the account itself, whose endpoint is set before its one
    // sign-up is sent and never changed. Concurrent probes share that sign-up; a probe for another project, or one
    // after the sessions were closed, gets no second.
    if (throwaway.endpoint) return { error: `The scan's one throwaway account belongs to ${throwaway.endpoint.projectUrl}; no other is created.` };
    throwaway.endpoint = { projectUrl, apikey };
    const created: Live = { endpoint: throwaway.endpoint, index: throwaway.index, state: this.signUp(throwaway, throwaway.endpoint) };
    this.live.set(`${throwaway.index}\n${projectUrl}\n${apikey}`, created);
    return this.bearer(probe, created);
  }

  private async signUp(throwaway: Throwaway, endpoint: SupabaseEndpoint): Promise<{ session?: SupabaseSession; reason?: string }> {
    const answer = await signUp(this.fetcher, endpoint, throwaway.login, throwaway.password, this.now);
    throwaway.record(answer);
    if (!answer.ok) return { reason: `The throwaway account did not sign in: ${answer.reason}` };
    this.tokens.add(answer.session.accessToken).add(answer.session.refreshToken);
    return { session: answer.session };
  }

  private session(projectUrl: string, apikey: string, index: number): Live {
    const id = `${index}\n${projectUrl}\n${apikey}`;
    let live = this.live.get(id);
    if (!live) {
      const endpoint = { projectUrl, apikey };
      live = { endpoint, index, state: this.signIn(endpoint, index) };
      this.live.set(id, live);
    }
    return live;
  }

  private async signIn(endpoint: SupabaseEndpoint, index: number): Promise<{ session?: SupabaseSession; reason?: string }> {
    const answer = await signInWithPassword(this.fetcher, endpoint, this.accounts[index]!, this.now);
    const outcome = this.outcomes[index]!;
    outcome.tried = true;
    if (!answer.ok) {
      if (!outcome.signedIn) outcome.reason = answer.reason;
      return { reason: answer.reason };
    }
    this.tokens.add(answer.session.accessToken).add(answer.session.refreshToken);
    Object.assign(outcome, { signedIn: true, reason: undefined, userId: outcome.userId ?? answer.session.userId });
    return { session: answer.session };
  }

  /** The live session, refreshed first when it is about to expire (one refresh at a time). */
  private async current(live: Live): Promise<{ session?: SupabaseSession; reason?: string }> {
    const state = await live.state;
    if (!state.session || state.session.expiresAt - REFRESH_MARGIN_MS > this.now()) return state;
    live.refreshing ??= refreshSession(this.fetcher, live.endpoint, state.session, this.now).then((answer) => {
      live.refreshing = undefined;
      if (!answer.ok) return { reason: answer.reason };
      this.tokens.add(answer.session.accessToken).add(answer.session.refreshToken);
      return { session: answer.session };
    });
    live.state = live.refreshing;
    return live.state;
  }

  /** Signs every open session out; the scan's last requests to the projects. */
  async signOutAll(): Promise<void> {
    const open = [...this.live.values()];
    this.live.clear();
    await Promise.all(
      open.map(async (live) => {
        const { session } = await live.state;
        if (session) await signOut(this.fetcher, live.endpoint, session);
      }),
    );
  }

  /** The exchange with the accounts' tokens and passwords masked; a token answer's body withheld. */
  redact(exchange: Exchange): Exchange {
    if (this.accounts.length === 0 && !this.throwaway) return exchange;
    const secrets = [...this.tokens, ...this.accounts.map((a) => a.password), ...(this.throwaway ? [this.throwaway.password] : [])].filter((s) => s.length >= 4);
    const mask = (text: string) => secrets.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(maskSecret(secret)) : out), text);
    const isTokenCall = /\/auth\/v1\/(?:token|signup)(?:\?|$)/.test(exchange.url);
    return {
      ...exchange,
      requestHeaders: Object.fromEntries(Object.entries(exchange.requestHeaders).map(([name, value]) => [name, mask(value)])),
      body: isTokenCall ? '(withheld: a sign-in answer holds the session tokens)' : mask(exchange.body),
    };
  }
}
