import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './http';

/** A toast's title and, usually, its description. */
export type ErrorToast = readonly [title: string, description?: string];

/**
 * What a query or mutation says about its failures (its `meta`): the one handler below raises the toast, so hooks
 * carry texts, not effects.
 */
// A type, not an interface: TanStack Query takes a meta type only if it is a Record<string, unknown>.
export type ErrorMeta = {
  /** The toast a failure raises: fixed texts, or texts made from the error (null: this failure raises none). */
  errorToast?: ErrorToast | ((error: unknown) => ErrorToast | null);
  /**
   * Whether a 401 toasts too. It always signs the user out (the route guard then shows /login), so by default it
   * raises no toast of its own; on where the spec gives the failure a text ('Authentication required').
   */
  toastUnauthorized?: boolean;
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorMeta;
    mutationMeta: ErrorMeta;
  }
}

const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;

/** The toast a failure raises under `meta`, or null. */
export function errorToastFor(error: unknown, meta: ErrorMeta | undefined): ErrorToast | null {
  if (!meta?.errorToast) return null;
  if (isUnauthorized(error) && !meta.toastUnauthorized) return null;
  return typeof meta.errorToast === 'function' ? meta.errorToast(error) : meta.errorToast;
}

/**
 * The one error path. A 401 means the session is gone or revoked, so we drop it and the route guard sends the user
 * to /login; pages never check for 401 themselves. Any failure then raises the toast its query or mutation names in
 * `meta.errorToast`, once per failed fetch (after retries) however many components watch it.
 */
export function createQueryClient(onUnauthorized: () => void, showError: (title: string, description?: string) => void): QueryClient {
  const onError = (error: unknown, meta: ErrorMeta | undefined) => {
    if (isUnauthorized(error)) onUnauthorized();
    const toast = errorToastFor(error, meta);
    if (toast) showError(...toast);
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onError(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => onError(error, mutation.meta) }),
    defaultOptions: {
      queries: {
        // A 4xx will not get better by asking again.
        retry: (failureCount, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
    },
  });
}
