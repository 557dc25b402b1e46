/** A session that ended (signed out, revoked, or its user deleted); no `sessionId`: every session of the user. */
export interface SessionEnd {
  userId: string;
  sessionId?: string;
}

/**
 * The news that sessions ended, in this process: the auth service drops its kept session answers and live streams
 * close. The process that ends a session tells it here at once; the others hear it from the database (a trigger on
 * auth_sessions notifies `vibeeval_sessions`, relayed by the live bus), so hearing one twice is harmless.
 */
export class SessionEnds {
  readonly #handlers = new Set<(end: SessionEnd) => void>();

  /** Calls `handler` for every end; returns the unsubscribe function. */
  on(handler: (end: SessionEnd) => void): () => void {
    this.#handlers.add(handler);
    return () => this.#handlers.delete(handler);
  }

  emit(end: SessionEnd): void {
    for (const handler of this.#handlers) handler(end);
  }
}

/** Does the end concern this session of this user? */
export const endsSession = (end: SessionEnd, userId: string, sessionId: string | undefined) =>
  end.userId === userId && (end.sessionId === undefined || end.sessionId === sessionId);

/** Reads the payload of a `vibeeval_sessions` notification (`<user id>:<session id>`). */
export function parseSessionEnd(payload: string): SessionEnd | undefined {
  const [userId, sessionId] = payload.split(':');
  return userId && sessionId ? { userId, sessionId } : undefined;
}
