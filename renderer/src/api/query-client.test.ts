import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './http';
import { createQueryClient, errorToastFor } from './query-client';

function setup() {
  const onUnauthorized = vi.fn();
  const showError = vi.fn();
  return { client: createQueryClient(onUnauthorized, showError), onUnauthorized, showError };
}

/** Fetches a query once with no retries and waits for it to settle. */
async function fail(client: QueryClient, error: Error, meta?: Parameters<typeof errorToastFor>[1]) {
  await client.fetchQuery({ queryKey: ['q', Math.random()], queryFn: () => Promise.reject(error), retry: false, meta }).catch(() => undefined);
}

describe('errorToastFor', () => {
  it('gives fixed texts, texts made from the error, or none', () => {
    expect(errorToastFor(new Error('x'), { errorToast: ['Failed', 'Try again'] })).toEqual(['Failed', 'Try again']);
    expect(errorToastFor(new ApiError(500, 'boom'), { errorToast: (e) => ['Failed', (e as Error).message] })).toEqual(['Failed', 'boom']);
    expect(errorToastFor(new ApiError(404, 'gone'), { errorToast: () => null })).toBeNull();
    expect(errorToastFor(new Error('x'), undefined)).toBeNull();
    expect(errorToastFor(new Error('x'), {})).toBeNull();
  });

  it('raises no toast for a 401 unless the query has a text for it', () => {
    const unauthorized = new ApiError(401, 'Sign in first');
    expect(errorToastFor(unauthorized, { errorToast: ['Failed'] })).toBeNull();
    expect(errorToastFor(unauthorized, { errorToast: ['Failed', 'Authentication required'], toastUnauthorized: true })).toEqual(['Failed', 'Authentication required']);
  });
});

describe('createQueryClient', () => {
  it('toasts a failed query once, with the texts of its meta', async () => {
    const { client, showError, onUnauthorized } = setup();
    await fail(client, new ApiError(500, 'boom'), { errorToast: (e) => ['Failed to load projects', (e as Error).message] });
    expect(showError).toHaveBeenCalledTimes(1);
    expect(showError).toHaveBeenCalledWith('Failed to load projects', 'boom');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('toasts once per failed fetch however many observers watch the query', async () => {
    const { client, showError } = setup();
    const options = { queryKey: ['shared'], queryFn: () => Promise.reject(new Error('down')), retry: false, meta: { errorToast: ['Failed'] as const } };
    const first = new QueryObserver(client, options);
    const second = new QueryObserver(client, options);
    const unsubscribe = [first.subscribe(() => undefined), second.subscribe(() => undefined)];
    await vi.waitFor(() => expect(client.getQueryState(['shared'])?.status).toBe('error'));
    expect(showError).toHaveBeenCalledTimes(1);
    unsubscribe.forEach((stop) => stop());
  });

  it('raises nothing for a query without texts', async () => {
    const { client, showError } = setup();
    await fail(client, new Error('quiet'));
    expect(showError).not.toHaveBeenCalled();
  });

  it('signs out on a 401, and toasts only where the query asks to', async () => {
    const { client, showError, onUnauthorized } = setup();
    await fail(client, new ApiError(401, 'Sign in first'), { errorToast: ['Failed to load projects'] });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(showError).not.toHaveBeenCalled();
    await fail(client, new ApiError(401, 'Sign in first'), { errorToast: ['Failed', 'Authentication required'], toastUnauthorized: true });
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
    expect(showError).toHaveBeenCalledWith('Failed', 'Authentication required');
  });

  it('toasts a failed mutation from its meta', async () => {
    const { client, showError } = setup();
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(new ApiError(409, 'Taken')),
      meta: { errorToast: (e) => ['Failed to save', (e as Error).message] },
    });
    await mutation.execute(undefined).catch(() => undefined);
    expect(showError).toHaveBeenCalledWith('Failed to save', 'Taken');
  });
});
