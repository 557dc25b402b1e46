/**
 * Keeps a database available: once told the database is lost, it tries to bring it back (restart the embedded
 * PostgreSQL, or reconnect to DATABASE_URL) with growing pauses between attempts, until it succeeds or is stopped.
 * It holds the state that /health and the API's 503 answers report, and tells listeners when the database is back.
 */
import { setTimeout as delay } from 'node:timers/promises';

export type Availability = { state: 'up' } | { state: 'down'; detail: string; since: number; attempts: number };

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  // Resolves after `ms`, or at once when `signal` aborts.
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
};

export interface Backoff {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** Share of each pause drawn at random (0.2 = ±10 %), so that many workers do not reconnect in step. */
  jitter: number;
}

/** Capped at 3 s: once the database can be back, clients wait at most that long for the server to notice. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 3_000, factor: 2, jitter: 0.2 };

/** The pause before attempt `attempt` (1-based): initialMs, then multiplied by factor each time, capped at maxMs. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + backoff.jitter * (random() - 0.5)));
}

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

export interface SupervisorOptions {
  /** Brings the database back; throws while that is not possible yet. */
  recover(attempt: number): Promise<void>;
  /** Answers whether the database takes queries now (used to confirm a suspected loss). */
  probe(): Promise<boolean>;
  /** What clients are told while the database is away, e.g. 'The embedded database stopped; restarting it'. */
  describe(attempts: number, lastError?: string): string;
  log: Log;
  backoff?: Backoff;
  clock?: Clock;
  random?: () => number;
}

export class Supervisor {
  private current: Availability = { state: 'up' };
  private readonly listeners = new Set<(availability: Availability) => void>();
  private readonly stopped = new AbortController();
  private recovering: Promise<void> | undefined;
  private probing: Promise<void> | undefined;
  private readonly clock: Clock;
  private readonly backoff: Backoff;

  constructor(private readonly options: SupervisorOptions) {
    this.clock = options.clock ?? systemClock;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  get availability(): Availability {
    return this.current;
  }

  /** Calls `listener` on every change of state; returns the unsubscribe function. */
  onChange(listener: (availability: Availability) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the database is up (at once if it is), or when the supervisor stops or `signal` aborts. */
  whenUp(signal?: AbortSignal): Promise<void> {
    if (this.current.state === 'up' || this.stopped.signal.aborted || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        off();
        this.stopped.signal.removeEventListener('abort', done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const off = this.onChange((availability) => availability.state === 'up' && done());
      this.stopped.signal.addEventListener('abort', done, { once: true });
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** The database is certainly gone (its process exited): start bringing it back. */
  lost(reason: string): void {
    if (this.stopped.signal.aborted || this.recovering) return;
    this.options.log('warn', `database lost (${reason}); recovering`);
    this.set({ state: 'down', detail: this.options.describe(0), since: this.clock.now(), attempts: 0 });
    this.recovering = this.recover().finally(() => (this.recovering = undefined));
  }

  /**
   * Something failed as if the database were gone (a connection error): check, and recover if it is. Resolves
   * once the check is done, so that `availability` then tells.
   */
  suspect(reason: string): Promise<void> {
    if (this.stopped.signal.aborted || this.recovering) return Promise.resolve();
    this.probing ??= this.confirm(reason).finally(() => (this.probing = undefined));
    return this.probing;
  }

  /**
   * A loss is declared only after two probes in a row fail: on a busy machine one new connection can miss the
   * probe's timeout while the database is fine, and a false loss answers every request 503 until it comes back.
   */
  private async confirm(reason: string): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.options.probe().catch(() => false)) return;
      if (this.stopped.signal.aborted) return;
    }
    this.lost(reason);
  }

  /** Stops recovering (the server is shutting down); waiters are released. */
  async stop(): Promise<void> {
    this.stopped.abort();
    await this.recovering;
    await this.probing;
  }

  private async recover(): Promise<void> {
    for (let attempt = 1; !this.stopped.signal.aborted; attempt++) {
      await this.clock.sleep(backoffDelay(attempt, this.backoff, this.options.random), this.stopped.signal);
      if (this.stopped.signal.aborted) return;
      try {
        await this.options.recover(attempt);
        const since = this.current.state === 'down' ? this.current.since : this.clock.now();
        this.options.log('info', `database back after ${this.clock.now() - since} ms (attempt ${attempt})`);
        this.set({ state: 'up' });
        return;
      } catch (error) {
        const message = (error as Error).message;
        this.options.log(attempt % 10 === 1 ? 'warn' : 'debug', `database recovery attempt ${attempt} failed: ${message}`);
        if (this.current.state === 'down') this.set({ ...this.current, attempts: attempt, detail: this.options.describe(attempt, message) });
      }
    }
  }

  private set(next: Availability) {
    this.current = next;
    for (const listener of [...this.listeners]) {
      try {
        listener(next);
      } catch (error) {
        this.options.log('error', `a database state listener failed: ${(error as Error).message}`);
      }
    }
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', '57P01', '57P02', '57P03']);
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end|terminating connection|the database system is (starting up|shutting down|in recovery mode)|Connection ended unexpectedly/i;

/**
 * True when `error` (or an error it wraps, as Drizzle's query errors do) says the connection to the database
 * failed, as opposed to a query the database refused. SQLSTATE class 08 is "connection exception".
 */
export function isConnectionError(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  }
  return false;
}
