import type { Query, QueryClient, QueryFilters } from '@tanstack/react-query';

/** How long the live stream's invalidations are gathered before the queries they reach are fetched again. */
export const LIVE_REFETCH_WINDOW_MS = 100;

/**
 * Gathers the invalidations of many live messages so that each query they reach is fetched again once per window,
 * not once per message: a scan sends its page views and API calls in bursts, and a refetch per message started
 * (and cancelled) dozens of list requests a second.
 *
 * A query is marked stale at once (a screen mounted in the meantime fetches it); its refetch waits for the end of
 * the window. A request of it already on its way is let finish rather than cancelled (on a busy machine a request
 * outlives a window, and cancelling it at every window would let none finish), then the query is fetched once
 * more: that request may have been answered before the messages' changes were stored.
 */
export class LiveInvalidations {
  private readonly pending = new Set<Query>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly queryClient: QueryClient,
    private readonly windowMs = LIVE_REFETCH_WINDOW_MS,
  ) {}

  /** Marks the queries `filters` match as stale now and fetches the active ones again at the end of the window. */
  invalidate(filters: QueryFilters): void {
    const queries = this.queryClient.getQueryCache().findAll(filters);
    if (queries.length === 0) return;
    void this.queryClient.invalidateQueries({ ...filters, refetchType: 'none' });
    for (const query of queries) this.pending.add(query);
    this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  private flush(): void {
    this.timer = null;
    const cache = this.queryClient.getQueryCache();
    const due = new Set<Query>();
    for (const query of this.pending) {
      // Removed from the cache (signed out, garbage-collected): nothing to fetch.
      if (cache.get(query.queryHash) !== query) this.pending.delete(query);
      else if (query.state.fetchStatus !== 'fetching') {
        this.pending.delete(query);
        due.add(query);
      }
    }
    if (due.size > 0) {
      void this.queryClient.refetchQueries({ type: 'active', predicate: (query) => due.has(query) }, { cancelRefetch: false });
    }
    // The ones still on their way are looked at again next window.
    if (this.pending.size > 0) this.timer = setTimeout(() => this.flush(), this.windowMs);
  }
}

const batches = new WeakMap<QueryClient, LiveInvalidations>();

/** The query client's one gatherer of live invalidations. */
export function liveInvalidations(queryClient: QueryClient): LiveInvalidations {
  let batch = batches.get(queryClient);
  if (!batch) {
    batch = new LiveInvalidations(queryClient);
    batches.set(queryClient, batch);
  }
  return batch;
}
