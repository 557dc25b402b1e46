import { RateLimiterRes, type RateLimiterPostgres } from 'rate-limiter-flexible';

/** Counts one attempt for `key`: null when it is within the limit, else the seconds (at least 1) until the next may come. */
export async function takePoint(limiter: RateLimiterPostgres, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
  }
}
