/**
 * Errors of a request sent on a kept-alive connection the other end had already closed (a server closes an idle
 * connection, Node's after 5 s, just as the next request goes out on it): the request was never read, and browsers
 * send it again once on a new connection.
 */
const STALE_CONNECTION_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

/** Whether `error` is such a failure of a request that went out on a reused connection. */
export function failedOnStaleConnection(error: NodeJS.ErrnoException, reusedSocket: boolean | undefined): boolean {
  return reusedSocket === true && STALE_CONNECTION_CODES.has(error.code ?? '');
}
