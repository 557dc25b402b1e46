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

export type SignInCoverage = NonNullable<ScanCoverage['signIns']>[number];

/** Refresh this long before expiry, so a request never goes out with a token about to lapse. */
const REFRESH_MARGIN_MS = 60_000;

export const NO_SIGN_IN_METHOD = 'No sign-in method was found: the site shows no Supabase project with a public key, so the scan ran as an anonymous visitor only.';
export const USERNAME_LOGIN = "Not signed in: Supabase's password sign-in takes an email address, and this login is a user name.";

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

  constructor(
    private readonly fetcher: Fetcher,
    private readonly accounts: readonly ScanAccount[],
    private readonly now: () => number = Date.now,
  ) {
    this.outcomes = accounts.map(() => ({ signedIn: false, tried: false }));
  }

  /** What checks may know of the accounts: logins, and once signed in, user ids. */
  siteAccounts(): SiteAccount[] {
    return this.accounts.map((account, i) => ({ login: account.login, signedIn: this.outcomes[i]!.signedIn, userId: this.outcomes[i]!.userId }));
  }

  /** The coverage line of each account: signed in or not, and why not. */
  coverage(): SignInCoverage[] {
    return this.accounts.map((account, i) => {
      const outcome = this.outcomes[i]!;
      if (!outcome.tried) return { account: account.login, signedIn: false, reason: canUsePasswordGrant(account.login) ? NO_SIGN_IN_METHOD : USERNAME_LOGIN };
      return { account: account.login, signedIn: outcome.signedIn, method: 'supabase', reason: outcome.signedIn ? undefined : outcome.reason };
    });
  }

  /** The probe's headers with the account's access token as the bearer, or why it cannot be sent. */
  async authorize(probe: ProbeRequest): Promise<{ headers: Record<string, string> } | { error: string }> {
    const index = probe.as ?? -1;
    const account = this.accounts[index];
    const apikey = probe.headers?.apikey;
    // No public key: a request to the site's own API, which takes the account's credential for it.
    if (account && !apikey) return this.withSiteCredential(probe, index);
    if (!account || !apikey) return { error: 'no such test account' };
    const outcome = this.outcomes[index]!;
    if (!canUsePasswordGrant(account.login)) {
      Object.assign(outcome, { tried: true, reason: USERNAME_LOGIN });
      return { error: USERNAME_LOGIN };
    }
    const live = this.session(new URL(probe.url).origin, apikey, index);
    const { session, reason } = await this.current(live);
    if (!session) return { error: reason ?? 'not signed in' };
    const headers = Object.fromEntries(Object.entries(probe.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'));
    return { headers: { ...headers, Authorization: `Bearer ${session.accessToken}` } };
  }

  /**
   * The account's credential for the site's own API: its Supabase session's access token as the bearer (the JWT a
   * Lovable or Bolt app's edge functions and API routes verify). Needs a session a Supabase probe already opened.
   */
  async siteCredential(index: number): Promise<{ headers: Record<string, string> } | { error: string }> {
    const live = [...this.live.values()].find((l) => l.index === index);
    if (!live) return { error: 'not signed in: no session of this account for the site\'s API' };
    const { session, reason } = await this.current(live);
    if (!session) return { error: reason ?? 'not signed in' };
    return { headers: { Authorization: `Bearer ${session.accessToken}` } };
  }

  private async withSiteCredential(probe: ProbeRequest, index: number): Promise<{ headers: Record<string, string> } | { error: string }> {
    const credential = await this.siteCredential(index);
    if ('error' in credential) return credential;
    const headers = Object.fromEntries(Object.entries(probe.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'));
    return { headers: { ...headers, ...credential.headers } };
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
    if (this.accounts.length === 0) return exchange;
    const secrets = [...this.tokens, ...this.accounts.map((a) => a.password)].filter((s) => s.length >= 4);
    const mask = (text: string) => secrets.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(maskSecret(secret)) : out), text);
    const isTokenCall = /\/auth\/v1\/token(?:\?|$)/.test(exchange.url);
    return {
      ...exchange,
      requestHeaders: Object.fromEntries(Object.entries(exchange.requestHeaders).map(([name, value]) => [name, mask(value)])),
      body: isTokenCall ? '(withheld: a sign-in answer holds the session tokens)' : mask(exchange.body),
    };
  }
}
