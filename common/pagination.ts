import { z } from 'zod';

// Every list the API returns comes in pages: the body stays the list itself (the spec's "list of projects"),
// and the next page's cursor travels in the X-Next-Cursor and Link response headers. A cursor is opaque to
// clients; the server reads it as the last row's sort key (keyset pagination), so pages stay stable while rows
// are inserted in front.

export { NEXT_CURSOR_HEADER } from './page-header';

/** Cursors are short base64url strings; anything longer or of other characters is refused before decoding. */
export const cursorSchema = z
  .string()
  .max(200, 'cursor: must be a cursor from a previous answer (X-Next-Cursor)')
  .regex(/^[A-Za-z0-9_-]+$/, 'cursor: must be a cursor from a previous answer (X-Next-Cursor)');

/** `?limit=&cursor=` of a list route: `limit` defaults to `fallback` and may not exceed `max`. */
export function pageQuerySchema({ fallback, max }: { fallback: number; max: number }) {
  return z.object({
    limit: z.coerce
      .number({ message: 'limit: must be a number' })
      .int('limit: must be a whole number')
      .min(1, 'limit: must be at least 1')
      .max(max, `limit: cannot exceed ${max}`)
      .default(fallback),
    cursor: cursorSchema.optional(),
  });
}
export type PageQuery = z.output<ReturnType<typeof pageQuerySchema>>;

/** Page sizes of the API's lists (default and maximum per call). */
export const PAGE_SIZES = {
  projects: { fallback: 50, max: 200 },
  events: { fallback: 30, max: 500 },
  reportLinks: { fallback: 30, max: 100 },
  scenarios: { fallback: 50, max: 200 },
  apiKeys: { fallback: 50, max: 100 },
  webhooks: { fallback: 50, max: 100 },
  webhookDeliveries: { fallback: 20, max: 100 },
  publicScans: { fallback: 20, max: 100 },
  /** A project's scan history (GET /project/{id}/scans). */
  scanHistory: { fallback: 20, max: 100 },
  domains: { fallback: 50, max: 100 },
  /** A project's finished checks again (GET /project/{id}/rechecks), in its History. */
  rechecks: { fallback: 20, max: 100 },
  decisions: { fallback: 100, max: 500 },
  /** A project holds at most MAX_DECISIONS_PER_PROJECT (common/triage.ts): its baseline is always one page. */
  baseline: { fallback: 1000, max: 1000 },
} as const;

/** One page of a list as a client sees it: the items and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
