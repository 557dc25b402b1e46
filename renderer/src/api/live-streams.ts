import type { QueryClient } from '@tanstack/react-query';

/** What the app shell does with a query client's live stream. */
export interface LiveStream {
  reconnect(): void;
}

/**
 * The live stream each query client has open (api/live.tsx opens it in the dashboard). Apart from live.tsx so the
 * app shell (the workspace switch) reaches it without loading the live messages' schemas on the public pages.
 */
export const liveStreams = new WeakMap<QueryClient, LiveStream>();

/** Reopens the live stream of this query client's session: the workspace changed, and the stream is per workspace. */
export function reconnectLiveUpdates(queryClient: QueryClient): void {
  liveStreams.get(queryClient)?.reconnect();
}
