/**
 * Spaces requests to each host evenly: at most `perSecond` starts per second per host (0 = no limit), with no other
 * limit on requests in flight. The scanner's pacing before the adaptive one (politeness.ts); kept as the reference
 * the scan benchmark compares against.
 */
export class HostRateLimiter {
  private readonly next = new Map<string, number>();
  private readonly interval: number;
  private readonly pending = new Set<() => void>();

  constructor(perSecond: number) {
    this.interval = perSecond > 0 ? 1000 / perSecond : 0;
  }

  /** Resolves when a request to `host` may start. */
  async wait(host: string): Promise<void> {
    if (this.interval === 0) return;
    const now = performance.now();
    const at = Math.max(now, this.next.get(host) ?? 0);
    this.next.set(host, at + this.interval);
    const delay = at - now;
    if (delay <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pending.delete(done);
        resolve();
      };
      const timer = setTimeout(done, delay);
      this.pending.add(done);
    });
  }

  /** The pacer interface the fetcher uses: a flat limiter only spaces starts. */
  acquire(host: string): Promise<void> {
    return this.wait(host);
  }

  /** Nothing is learnt from answers: never asks for a retry. */
  release(): undefined {
    return undefined;
  }

  /** Lets every waiting request go at once (the scan was stopped; they fail fast on the aborted signal). */
  releaseAll(): void {
    for (const done of [...this.pending]) done();
  }
}
