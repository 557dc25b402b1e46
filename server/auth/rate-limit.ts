import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { waitText } from '../../common/plural';
import { takePoint } from '../rate-limit';
import { AuthError } from './service';

export interface SignInLimits {
  perEmail: number;
  perIp: number;
  windowSeconds: number;
  /** Sign-ups, counted apart from sign-ins; unset: the sign-in numbers. */
  signUp?: { perEmail: number; perIp: number; windowSeconds: number };
}

export const SIGNUP_LIMIT_TEXT = 'Too many sign-up attempts. Please try again later.';

/** The 429 of the sign-in limit, with the wait it sends as Retry-After. */
export const signInLimitText = (retryAfterSeconds: number) => `Too many sign-in attempts. Try again in ${waitText(retryAfterSeconds)}.`;

/**
 * Sign-in and mail limits kept in PostgreSQL (table `rate_limits`, created by the migrations), so every
 * server instance of a team shares them. Only failed sign-ins add up, per account and per IP: an attempt holds a
 * point of each while its password is checked (so parallel guesses cannot outrun the limit), and a success gives
 * them back (the account's counter is cleared, the IP's point returned), so an office of people behind one address
 * signing in all day is never refused.
 */
export class AuthRateLimits {
  readonly #email: RateLimiterPostgres;
  readonly #ip: RateLimiterPostgres;
  readonly #recovery: RateLimiterPostgres;
  readonly #providerStart: RateLimiterPostgres;
  readonly #signUpEmail: RateLimiterPostgres;
  readonly #signUpIp: RateLimiterPostgres;

  constructor(pool: pg.Pool, limits: SignInLimits) {
    const base = { storeClient: pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true };
    this.#email = new RateLimiterPostgres({ ...base, keyPrefix: 'signin_email', points: limits.perEmail, duration: limits.windowSeconds });
    this.#ip = new RateLimiterPostgres({ ...base, keyPrefix: 'signin_ip', points: limits.perIp, duration: limits.windowSeconds });
    // One recovery mail a minute per address, like GoTrue's default.
    this.#recovery = new RateLimiterPostgres({ ...base, keyPrefix: 'recover_email', points: 1, duration: 60 });
    // Each start of a sign-in with a provider stores a flow for ten minutes: far more than a person starts.
    this.#providerStart = new RateLimiterPostgres({ ...base, keyPrefix: 'provider_start_ip', points: 30, duration: 600 });
    // Every sign-up sends a mail to the address (new account or not): per address it bounds the mail one person
    // can be sent by others; per client, the accounts and mail one script can make.
    const signUp = limits.signUp ?? limits;
    this.#signUpEmail = new RateLimiterPostgres({ ...base, keyPrefix: 'signup_email', points: signUp.perEmail, duration: signUp.windowSeconds });
    this.#signUpIp = new RateLimiterPostgres({ ...base, keyPrefix: 'signup_ip', points: signUp.perIp, duration: signUp.windowSeconds });
  }

  /** Counts a sign-up; throws a 429 AuthError with the seconds to wait when over either limit. */
  async signUpAttempt(email: string, ip: string) {
    await consume(this.#signUpIp, ip, 'over_request_rate_limit', SIGNUP_LIMIT_TEXT);
    await consume(this.#signUpEmail, email, 'over_email_send_rate_limit', SIGNUP_LIMIT_TEXT);
  }

  /**
   * Holds a point of both limits for a sign-in about to be checked; throws a 429 AuthError saying the wait (also
   * sent as Retry-After) when either is spent. A success must end with `signInSucceeded`.
   */
  async signInAttempt(email: string, ip: string) {
    const waits = await Promise.all([takePoint(this.#ip, ip), takePoint(this.#email, email)]);
    const retryAfter = Math.max(...waits.map((wait) => wait ?? 0));
    if (retryAfter > 0) throw new AuthError(429, 'over_request_rate_limit', signInLimitText(retryAfter), { retry_after: retryAfter });
  }

  /** Returns the points a successful sign-in held: successes never count. */
  async signInSucceeded(email: string, ip: string) {
    await Promise.all([this.#email.delete(email), this.#ip.reward(ip, 1)]);
  }

  /** Counts a start of a sign-in with a provider (Google) from this IP. */
  async providerSignInStart(ip: string) {
    await consume(this.#providerStart, ip, 'over_request_rate_limit', 'Too many sign-in attempts. Please try again later.');
  }

  async recoveryMail(email: string) {
    await consume(this.#recovery, email, 'over_email_send_rate_limit', 'For security purposes, you can only request this once every 60 seconds');
  }
}

async function consume(limiter: RateLimiterPostgres, key: string, code: string, message: string) {
  const retryAfter = await takePoint(limiter, key);
  if (retryAfter !== null) throw new AuthError(429, code, message, { retry_after: retryAfter });
}
