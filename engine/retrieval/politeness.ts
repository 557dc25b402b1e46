/**
 * Adaptive per-host politeness: a small window of requests in flight per host that halves when the host says it is
 * overloaded (429, 503, Retry-After) or answers markedly slower than it did at first, and grows back slowly on healthy
 * answers (additive increase, multiplicative decrease, as TCP does). Each host has its own budget, so a CDN serving
 * scripts does not slow the site itself. An optional ceiling keeps starts per second per host under a fixed number.
 */
export interface PolitenessOptions {
  /** Most requests in flight per host (the window starts there once the host has answered). */
  window?: number;
  /** Hard ceiling of request starts per second per host; 0 or undefined = none. */
  ceiling?: number;
  /** Longest pause a host may ask for (Retry-After) before we retry anyway. */
  maxPauseMs?: number;
  /** First backoff when a host answers 429/503 without Retry-After; doubles on each retry. */
  backoffMs?: number;
  /** Answers slower than this many times the host's baseline time to first byte shrink the window. */
  slowFactor?: number;
}

/** What a request's answer tells the pacer. */
export interface PaceOutcome {
  status: number;
  /** The Retry-After header, if any. */
  retryAfter?: string;
  /** Time to the response headers, in ms. */
  latencyMs?: number;
  /** Retries already made for this request (0 for the first attempt). */
  attempt: number;
}

interface HostState {
  limit: number;
  inFlight: number;
  answered: number;
  waiters: Array<() => void>;
  pausedUntil: number;
  nextStart: number;
  baselineMs: number;
  ewmaMs: number;
  /** Answers to wait before the latency signal may shrink the window again (one decrease per window's worth). */
  cooldown: number;
}

const DEFAULT_WINDOW = 4;
const DEFAULT_MAX_PAUSE_MS = 30_000;
const DEFAULT_BACKOFF_MS = 500;
/** Local or very fast hosts: below this a doubling of time to first byte is noise, not load. */
const LATENCY_FLOOR_MS = 100;
/** Answers whose fastest time to first byte sets the host's baseline. */
const BASELINE_SAMPLES = 3;
const EWMA_WEIGHT = 0.3;

/** Milliseconds a Retry-After value asks for (delta-seconds or an HTTP date), or undefined if it is not one. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export class HostPoliteness {
  private readonly hosts = new Map<string, HostState>();
  private readonly timers = new Set<{ timer: ReturnType<typeof setTimeout>; resolve: () => void }>();
  private readonly window: number;
  private readonly interval: number;
  private readonly maxPauseMs: number;
  private readonly backoffMs: number;
  private readonly slowFactor: number;
  private released = false;

  constructor(options: PolitenessOptions = {}) {
    this.window = Math.max(1, Math.floor(options.window ?? DEFAULT_WINDOW));
    this.interval = options.ceiling && options.ceiling > 0 ? 1000 / options.ceiling : 0;
    this.maxPauseMs = options.maxPauseMs ?? DEFAULT_MAX_PAUSE_MS;
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.slowFactor = options.slowFactor ?? 3;
  }

  /** The current window of a host (for tests and diagnostics). */
  windowOf(host: string): number {
    return Math.floor(this.state(host).limit);
  }

  /** Requests to a host in flight now. */
  inFlightOf(host: string): number {
    return this.state(host).inFlight;
  }

  /**
   * Resolves when a request to `host` may start: a slot in its window, any pause over, the ceiling respected.
   * Until a host has answered once only one request goes to it, so an address that does not answer costs one try.
   */
  async acquire(host: string): Promise<void> {
    const state = this.state(host);
    for (;;) {
      if (this.released) return;
      const limit = state.answered === 0 ? 1 : Math.floor(state.limit);
      if (state.inFlight < limit) break;
      await new Promise<void>((resolve) => state.waiters.push(resolve));
    }
    state.inFlight++;
    for (;;) {
      const now = Date.now();
      const at = Math.max(now, state.pausedUntil, state.nextStart);
      if (at <= now || this.released) break;
      await this.sleep(at - now);
    }
    if (this.interval) state.nextStart = Math.max(Date.now(), state.nextStart) + this.interval;
  }

  /**
   * Ends a request started with acquire(). Returns how long to wait before retrying when the host asked to slow down
   * (429, or 503 with Retry-After); the host is paused for that long, so every request to it waits, not only this one.
   */
  release(host: string, outcome: PaceOutcome | 'failed'): number | undefined {
    const state = this.state(host);
    state.inFlight = Math.max(0, state.inFlight - 1);
    let retryIn: number | undefined;
    if (outcome !== 'failed') {
      state.answered++;
      retryIn = this.learn(state, outcome);
    }
    this.wake(state);
    return retryIn;
  }

  /** Lets every waiting request go at once (the scan was stopped; they fail fast on the aborted signal). */
  releaseAll(): void {
    this.released = true;
    for (const entry of [...this.timers]) {
      clearTimeout(entry.timer);
      entry.resolve();
    }
    this.timers.clear();
    for (const state of this.hosts.values()) {
      for (const wake of state.waiters.splice(0)) wake();
    }
  }

  private learn(state: HostState, outcome: PaceOutcome): number | undefined {
    const asked = parseRetryAfter(outcome.retryAfter);
    const overloaded = outcome.status === 429 || outcome.status === 503 || (asked !== undefined && outcome.status >= 400);
    if (overloaded) {
      state.limit = Math.max(1, state.limit / 2);
      // A 503 without Retry-After may be the page's real answer (maintenance, a broken route): slow down, keep it.
      if (outcome.status === 503 && asked === undefined) return undefined;
      const wait = Math.min(this.maxPauseMs, asked ?? this.backoffMs * 2 ** outcome.attempt);
      state.pausedUntil = Math.max(state.pausedUntil, Date.now() + wait);
      return wait;
    }
    if (outcome.latencyMs !== undefined) this.noteLatency(state, outcome.latencyMs);
    return undefined;
  }

  private noteLatency(state: HostState, ms: number): void {
    if (state.answered <= BASELINE_SAMPLES) {
      state.baselineMs = Math.min(state.baselineMs, ms);
      state.ewmaMs = state.baselineMs;
      return;
    }
    state.ewmaMs = state.ewmaMs * (1 - EWMA_WEIGHT) + ms * EWMA_WEIGHT;
    const slow = state.ewmaMs > this.slowFactor * Math.max(state.baselineMs, LATENCY_FLOOR_MS);
    if (state.cooldown > 0) state.cooldown--;
    if (slow && state.cooldown === 0) {
      state.limit = Math.max(1, state.limit / 2);
      state.cooldown = Math.max(this.window, 4);
    } else if (!slow) {
      state.limit = Math.min(this.window, state.limit + 1 / Math.max(1, state.limit));
    }
  }

  private wake(state: HostState): void {
    const free = Math.max(0, Math.floor(state.limit) - state.inFlight);
    for (const wake of state.waiters.splice(0, free)) wake();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const entry = {
        resolve,
        timer: setTimeout(() => {
          this.timers.delete(entry);
          resolve();
        }, ms),
      };
      this.timers.add(entry);
    });
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { limit: this.window, inFlight: 0, answered: 0, waiters: [], pausedUntil: 0, nextStart: 0, baselineMs: Infinity, ewmaMs: 0, cooldown: 0 };
      this.hosts.set(host, state);
    }
    return state;
  }
}
