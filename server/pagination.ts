import type { FastifyReply, FastifyRequest } from 'fastify';
import { NEXT_CURSOR_HEADER } from '../common/pagination';

// Keyset pagination for the API's lists: rows sorted newest first by (timestamp, id), and a cursor that is the
// last row's key. Inserting rows in front never shifts a later page, unlike an offset.

/** The position after which the next page starts: the last row's timestamp (microseconds, as PostgreSQL has it) and id. */
export interface CursorKey {
  at: string;
  id: string;
}

/** A 400 the product API answers with `{detail}` (the error handlers read statusCode). */
export class BadCursorError extends Error {
  readonly statusCode = 400;
  constructor() {
    super('cursor: must be a cursor from a previous answer (X-Next-Cursor)');
  }
}

/** SQL text of a timestamptz with every microsecond, in UTC: the cursor must not round the key it resumes from. */
export const cursorTimestampSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID = /^(?:\d{1,19}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');
}

/** The key of a cursor from a previous answer; undefined for the first page; a BadCursorError for anything else. */
export function decodeCursor(cursor: string | undefined): CursorKey | undefined {
  if (cursor === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadCursorError();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw new BadCursorError();
  const [at, id] = parsed as unknown[];
  if (typeof at !== 'string' || typeof id !== 'string' || !TIMESTAMP.test(at) || !ID.test(id)) throw new BadCursorError();
  return { at, id };
}

/**
 * Cuts the `limit + 1` rows a list query fetched into the page and the next page's cursor (null when no row
 * follows). Fetching one row more than asked tells whether another page exists without a count.
 */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => CursorKey): { items: T[]; next: string | null } {
  if (rows.length <= limit) return { items: rows, next: null };
  const items = rows.slice(0, limit);
  return { items, next: encodeCursor(keyOf(items[items.length - 1]!)) };
}

/**
 * Sets the next page's headers on a list answer: `X-Next-Cursor: <cursor>` and an RFC 8288
 * `Link: <same path and query, with cursor>; rel="next"`. The body stays the plain list.
 */
export function setNextPage(request: FastifyRequest, reply: FastifyReply, next: string | null): void {
  void reply.headers(nextPageHeaders(request, next));
}

/** The headers of `setNextPage`, for answers kept and sent again (server/changes/list-cache.ts). */
export function nextPageHeaders(request: FastifyRequest, next: string | null): Record<string, string> {
  if (next === null) return {};
  const url = new URL(request.url, 'http://api.invalid');
  url.searchParams.set('cursor', next);
  return { [NEXT_CURSOR_HEADER]: next, link: `<${url.pathname}${url.search}>; rel="next"` };
}
