// The test accounts' sessions during a signed-in scan, on the scan's main thread: a probe a check planned "as account
// N" is sent with that account's credential. The account signs in the first time a probe needs it, by the method the
// probe names (a Supabase project and key, a Firebase web API key; the checks found them) or, for a request to the
// site's own origin and API, by the sign-in the site offers (siteCredential). It refreshes when the credential nears
// expiry and signs out when the scan's requests are done. Passwords, tokens and cookies stay here: the checks get the
// logins, the outcome and the user ids, and every exchange leaving the scan has the secrets masked.
import type { ScanCoverage } from '../../common/scan';
import type { ScanAccount, SignInMethod } from '../../common/scan-accounts';
import type { Fetcher } from '../retrieval/fetcher';
import { maskSecret } from '../secrets/mask';
import type { Exchange, ProbeRequest, SiteAccount, SiteBeforeProbes } from '../types';
import { FIREBASE_TOKEN_CALL, firebaseMethod } from './firebase-sign-in';
import { needsEmail, withCredential, type MethodSession, type SignInMethodImpl } from './methods';
import { canUsePasswordGrant, methodAnswer, supabaseMethod } from './sign-in';
import { siteSignIns, type SiteSignIn, type SiteSignInOptions } from './site-sign-in';
import { signUp, Throwaway } from './throwaway';

export type SignInCoverage = NonNullable<ScanCoverage['signIns']>[number];

/** Refresh this long before expiry, so a request never goes out with a token about to lapse. */
const REFRESH_MARGIN_MS = 60_000;

export const NO_SIGN_IN_METHOD =
  'No sign-in method was found: the site shows no Supabase or Firebase project with a public key, no JSON login API and no login form, so the scan ran as an anonymous visitor only.';
export const USERNAME_LOGIN = needsEmail("Supabase's password sign-in");
export const NO_SIGN_UP = 'No Supabase project of the site was found open to sign-up.';
/** Methods of a hosted auth service: their token is the credential the site's own API takes too. */
const PROVIDERS: ReadonlySet<SignInMethod> = new Set(['supabase', 'firebase']);

type Attempt = { session?: MethodSession; reason?: string };

interface Live {
  impl: SignInMethodImpl;
  index: number;
  /** The current session, or why there is none. */
  state: Promise<Attempt>;
  refreshing?: Promise<Attempt>;
}

interface Outcome {
  signedIn: boolean;
  tried: boolean;
  method?: SignInMethod;
  reason?: string;
  userId?: string;
}

type Credential = { headers: Record<string, string>; url?: string } | { error: string };

/** The sessions of a scan's test accounts, one per account and sign-in method (and project). */
export class SessionStore {
  private readonly live = new Map<string, Live>();
  private readonly outcomes: Outcome[];
  /** Every secret issued during the scan, for masking (a refreshed token's predecessor may still show up). */
  private readonly tokens = new Set<string>();
  /** The site's own sign-ins (its JSON login API, its login form), known once the site is retrieved. */
  private siteMethods: SiteSignIn[] = [];
  /** URLs whose answers hold a session (the site's login API): withheld from every exchange kept. */
  private readonly signInUrls = new Set<string>();
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

  /** The coverage line of each account: signed in or not, by which method, and why not (`noSignUp`: why no throwaway was created). */
  coverage(noSignUp: string = NO_SIGN_UP): SignInCoverage[] {
    const given = this.accounts.map((account, i): SignInCoverage => {
      const outcome = this.outcomes[i]!;
      if (!outcome.tried)
        return { account: account.login, signedIn: false, reason: canUsePasswordGrant(account.login) || this.siteMethods.length > 0 ? NO_SIGN_IN_METHOD : USERNAME_LOGIN };
      return { account: account.login, signedIn: outcome.signedIn, method: outcome.method, reason: outcome.signedIn ? undefined : outcome.reason };
    });
    return this.throwaway ? [...given, this.throwaway.coverage(noSignUp)] : given;
  }

  /** Learns how the site itself signs users in (its login API, its login form), from the retrieved pages and scripts. */
  useSite(site: SiteBeforeProbes, options: SiteSignInOptions = {}): void {
    if (this.accounts.length === 0) return;
    this.siteMethods = siteSignIns(site, options);
    for (const method of this.siteMethods) if (method.answerHoldsSession) this.signInUrls.add(method.url);
  }

  /** The probe's headers (and URL) with the account's credential, or why it cannot be sent. */
  async authorize(probe: ProbeRequest): Promise<Credential> {
    const index = probe.as ?? -1;
    if (this.throwaway && index === this.throwaway.index) return this.authorizeThrowaway(probe);
    if (!this.accounts[index]) return { error: 'no such test account' };
    const apikey = probe.headers?.apikey;
    if (apikey) {
      const origin = new URL(probe.url).origin;
      const session = await this.sessionOf(index, `supabase\n${origin}\n${apikey}`, () => supabaseMethod({ projectUrl: origin, apikey }));
      return 'error' in session ? session : { headers: withCredential(probe.headers, session.credential) };
    }
    if (probe.firebase) {
      const { apiKey, tokenIn } = probe.firebase;
      const session = await this.sessionOf(index, `firebase\n${apiKey}`, () => firebaseMethod(apiKey));
      if ('error' in session) return session;
      if (tokenIn === 'bearer') return { headers: withCredential(probe.headers, session.credential) };
      const url = new URL(probe.url);
      url.searchParams.set('auth', session.credential.bearer ?? '');
      return { headers: { ...(probe.headers ?? {}) }, url: url.href };
    }
    // No provider key: a request to the site's own origin or API, which takes the account's credential for it.
    const credential = await this.siteCredential(index);
    return 'error' in credential ? credential : { headers: { ...withCredential(probe.headers, {}), ...credential.headers } };
  }

  /**
   * The account's credential for a request to the app's own origin and API: the token of its Supabase or Firebase
   * session when it has one (an app's own API and edge functions take that token), else the session of the site's
   * own login API or login form.
   */
  async siteCredential(index: number): Promise<{ headers: Record<string, string> } | { error: string }> {
    if (!this.accounts[index]) return { error: 'no such test account' };
    // Probes planned beside this one start their project sign-ins in the same turn: let them register first.
    await Promise.resolve();
    for (const live of [...this.live.values()].filter((l) => l.index === index && PROVIDERS.has(l.impl.method))) {
      const { session } = await this.current(live);
      if (session) return { headers: withCredential({}, session.credential) };
    }
    let failure: { error: string } | undefined;
    for (const method of this.siteMethods) {
      const session = await this.sessionOf(index, `${method.impl.method}\n${method.url}`, () => method.impl);
      if (!('error' in session)) return { headers: withCredential({}, session.credential) };
      failure ??= session;
    }
    return failure ?? { error: this.outcomes[index]!.reason ?? NO_SIGN_IN_METHOD };
  }

  private async authorizeThrowaway(probe: ProbeRequest): Promise<Credential> {
    const throwaway = this.throwaway!;
    const apikey = probe.headers?.apikey;
    if (!apikey) return { error: 'no such test account' };
    const projectUrl = new URL(probe.url).origin;
    const key = `${throwaway.index}\nsupabase\n${projectUrl}\n${apikey}`;
    let live = this.live.get(key);
    if (!live) {
      // One throwaway account per scan, ever: the guard is the account itself, whose endpoint is set before its one
      // sign-up is sent and never changed. Concurrent probes share that sign-up; a probe for another project, or one
      // after the sessions were closed, gets no second.
      if (throwaway.endpoint) return { error: `The scan's one throwaway account belongs to ${throwaway.endpoint.projectUrl}; no other is created.` };
      const endpoint = (throwaway.endpoint = { projectUrl, apikey });
      const impl = supabaseMethod(endpoint);
      live = { impl, index: throwaway.index, state: this.signUp(throwaway) };
      this.live.set(key, live);
    }
    const { session, reason } = await this.current(live);
    return session ? { headers: withCredential(probe.headers, session.credential) } : { error: reason ?? 'not signed in' };
  }

  private async signUp(throwaway: Throwaway): Promise<Attempt> {
    const answer = await signUp(this.fetcher, throwaway.endpoint!, throwaway.login, throwaway.password, this.now);
    throwaway.record(answer);
    if (!answer.ok) return { reason: `The throwaway account did not sign in: ${answer.reason}` };
    const converted = methodAnswer(answer);
    if (!converted.ok) return { reason: converted.reason };
    this.keep(converted.session);
    return { session: converted.session };
  }

  /** The account's live session with a method, signed in on first use and refreshed near expiry. */
  private async sessionOf(index: number, id: string, make: () => SignInMethodImpl): Promise<MethodSession | { error: string }> {
    const key = `${index}\n${id}`;
    let live = this.live.get(key);
    if (!live) {
      const impl = make();
      const refused = impl.refuseLogin(this.accounts[index]!.login);
      if (refused) {
        this.record(index, impl.method, { reason: refused });
        return { error: refused };
      }
      live = { impl, index, state: this.signIn(impl, index) };
      this.live.set(key, live);
    }
    const { session, reason } = await this.current(live);
    return session ?? { error: reason ?? 'not signed in' };
  }

  private record(index: number, method: SignInMethod, attempt: Attempt): void {
    const outcome = this.outcomes[index]!;
    outcome.tried = true;
    if (outcome.signedIn) return;
    if (attempt.session) Object.assign(outcome, { signedIn: true, method, reason: undefined, userId: attempt.session.userId });
    else Object.assign(outcome, { method, reason: attempt.reason });
  }

  private keep(session: MethodSession): void {
    for (const secret of session.secrets) this.tokens.add(secret);
  }

  private async signIn(impl: SignInMethodImpl, index: number): Promise<Attempt> {
    const answer = await impl.signIn(this.fetcher, this.accounts[index]!, this.now);
    const attempt: Attempt = answer.ok ? { session: answer.session } : { reason: answer.reason };
    if (answer.ok) this.keep(answer.session);
    this.record(index, impl.method, attempt);
    return attempt;
  }

  /** The live session, refreshed first when it is about to expire (one refresh at a time). */
  private async current(live: Live): Promise<Attempt> {
    const state = await live.state;
    const { session } = state;
    if (!session || session.expiresAt === undefined || !live.impl.refresh || session.expiresAt - REFRESH_MARGIN_MS > this.now()) return state;
    live.refreshing ??= live.impl.refresh(this.fetcher, session, this.now).then((answer) => {
      live.refreshing = undefined;
      if (!answer.ok) return { reason: answer.reason };
      this.keep(answer.session);
      return { session: answer.session };
    });
    live.state = live.refreshing;
    return live.state;
  }

  /**
   * Signs in, by the site's own sign-in, the accounts no request needed yet, so the coverage says whether each can
   * sign in (a site whose pages behind the login the checks had no reason to read).
   */
  async signInUntried(): Promise<void> {
    if (this.siteMethods.length === 0) return;
    await Promise.all(this.accounts.flatMap((_, index) => (this.outcomes[index]!.tried ? [] : [this.siteCredential(index)])));
  }

  /** Signs every open session out; the scan's last requests to the site and its projects. */
  async signOutAll(): Promise<void> {
    const open = [...this.live.values()];
    this.live.clear();
    await Promise.all(
      open.map(async (live) => {
        const { session } = await live.state;
        if (session && live.impl.signOut) await live.impl.signOut(this.fetcher, session);
      }),
    );
    await Promise.all([...new Set(open.map((live) => live.impl))].flatMap((impl) => (impl.close ? [impl.close()] : [])));
  }

  /** The exchange with the accounts' secrets masked; a sign-in answer's body and cookies withheld. */
  redact(exchange: Exchange): Exchange {
    if (this.accounts.length === 0 && !this.throwaway) return exchange;
    const secrets = [...this.tokens, ...this.accounts.map((a) => a.password), ...(this.throwaway ? [this.throwaway.password] : [])].filter((s) => s.length >= 4);
    const mask = (text: string) => secrets.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(maskSecret(secret)) : out), text);
    const maskHeaders = (headers: Exchange['headers']) => headers.map(([name, value]) => [name, mask(value)] as [string, string]);
    const withheld = /\/auth\/v1\/(?:token|signup)(?:\?|$)/.test(exchange.url) || FIREBASE_TOKEN_CALL.test(exchange.url) || this.signInUrls.has(exchange.url.split('?', 1)[0]!);
    const headers = maskHeaders(withheld ? exchange.headers.filter(([name]) => name.toLowerCase() !== 'set-cookie') : exchange.headers);
    return {
      ...exchange,
      url: mask(exchange.url),
      finalUrl: mask(exchange.finalUrl),
      redirects: exchange.redirects.map((hop) => ({ ...hop, url: mask(hop.url), location: mask(hop.location), headers: maskHeaders(hop.headers) })),
      requestHeaders: Object.fromEntries(Object.entries(exchange.requestHeaders).map(([name, value]) => [name, mask(value)])),
      headers,
      body: withheld ? '(withheld: a sign-in answer holds the session tokens)' : mask(exchange.body),
    };
  }
}
