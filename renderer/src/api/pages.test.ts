import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, type ApiClient, type RequestOptions } from './http';
import { fetchPage, joinPages, withCursor } from './pages';

function fakeApi(body: unknown, headers: Record<string, string>): ApiClient & { paths: string[] } {
  const paths: string[] = [];
  return {
    origin: 'http://api.test',
    paths,
    async request<T>(_method: string, path: string, options?: RequestOptions): Promise<T> {
      paths.push(path);
      options?.onHeaders?.(new Headers(headers));
      return body as T;
    },
    workspaceHeaders: async () => ({}),
  };
}

describe('paged lists', () => {
  it('adds the cursor to a path with or without a query', () => {
    expect(withCursor('/projects', null)).toBe('/projects');
    expect(withCursor('/projects', 'abc')).toBe('/projects?cursor=abc');
    expect(withCursor('/events/recent?limit=30', 'a_b-c')).toBe('/events/recent?limit=30&cursor=a_b-c');
  });

  it('reads the items from the body and the next cursor from X-Next-Cursor', async () => {
    const api = fakeApi([{ id: 'a' }, { id: 'b' }], { 'x-next-cursor': 'next1' });
    const page = await fetchPage(api, '/events/recent?limit=2', 'c0', z.array(z.object({ id: z.string() })), { fallbackError: 'Failed' });
    expect(page).toEqual({ items: [{ id: 'a' }, { id: 'b' }], nextCursor: 'next1' });
    expect(api.paths).toEqual(['/events/recent?limit=2&cursor=c0']);
    const last = await fetchPage(fakeApi([], {}), '/projects', null, z.array(z.object({ id: z.string() })), { fallbackError: 'Failed' });
    expect(last.nextCursor).toBeNull();
  });

  it('fails with the fallback message on a body that is not the list', async () => {
    const error: unknown = await fetchPage(fakeApi({ nope: true }, {}), '/projects', null, z.array(z.string()), { fallbackError: 'Failed to fetch projects' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Failed to fetch projects');
  });

  it('joins loaded pages in order', () => {
    expect(
      joinPages({
        pages: [
          { items: [1, 2], nextCursor: 'x' },
          { items: [3], nextCursor: null },
        ],
        pageParams: [null, 'x'],
      }),
    ).toEqual([1, 2, 3]);
    expect(joinPages(undefined)).toEqual([]);
  });
});
