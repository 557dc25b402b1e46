import { NEXT_CURSOR_HEADER, type Page } from '@common/pagination';
import type { InfiniteData } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, type ApiClient, type RequestOptions } from './http';

// The API's lists come in pages: the body is the page's items, the X-Next-Cursor header the next page's cursor.
// Hooks load them with useInfiniteQuery (pageParam = cursor, null for the first page) and show the pages joined.

/** `path` asking for the page after `cursor` (the first page when null). */
export function withCursor(path: string, cursor: string | null): string {
  return cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path;
}

/** GET one page of a list; a body of another shape fails like an error response, with `fallbackError`. */
export async function fetchPage<T>(
  api: ApiClient,
  path: string,
  cursor: string | null,
  schema: z.ZodType<T[]>,
  options: Omit<RequestOptions, 'onHeaders'> & { fallbackError: string },
): Promise<Page<T>> {
  let nextCursor: string | null = null;
  const body = await api.request<unknown>('GET', withCursor(path, cursor), {
    ...options,
    onHeaders: (headers) => {
      nextCursor = headers.get(NEXT_CURSOR_HEADER);
    },
  });
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(200, options.fallbackError, body);
  return { items: parsed.data, nextCursor };
}

/** The options every paged list shares: start without a cursor, continue with the header's. */
export const pageParams = {
  initialPageParam: null as string | null,
  getNextPageParam: <T>(last: Page<T>) => last.nextCursor,
};

/** Every loaded item, first page first. */
export function joinPages<T>(data: InfiniteData<Page<T>, unknown> | undefined): T[] {
  return data ? data.pages.flatMap((page) => page.items) : [];
}
