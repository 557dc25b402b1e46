/** How long check code may run, and in how much memory, before it is stopped. */
export interface CheckBudget {
  /** One check's probe planning or run, in ms. */
  perCheckMs: number;
  /** All check code of one scan together, in ms. */
  perScanMs: number;
  /** The check worker's heap, in MB. */
  heapMb: number;
}

/**
 * A check runs in milliseconds over a 50-page site (the whole registry in well under a second); one that takes
 * 10 s is stuck in a pattern or a loop on what the site sent, and the rest of the scan should not wait for it.
 * A minute for all checks together bounds a site built to make every check slow at once.
 * The worker's heap: the site it is sent (bodies are capped by the fetcher) fits many times over; a check that
 * builds something unbounded from it runs out there rather than in the process that answers HTTP.
 */
export const DEFAULT_CHECK_BUDGET: CheckBudget = { perCheckMs: 10_000, perScanMs: 60_000, heapMb: 768 };
