import { describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../../../bridge';

vi.mock('../../../ui/toaster', () => ({ notify: { error: vi.fn(), unexpected: vi.fn() } }));
const { listenToGoogleResult } = await import('./use-google-sign-in');

/** A bridge whose main process is this test: `emit` plays an auth event from main. */
function fakeBridge() {
  let listener: ((payload: never) => void) | undefined;
  const bridge = {
    subscribe: (_channel: string, next: (payload: never) => void) => {
      listener = next;
      return () => (listener = undefined);
    },
  } as unknown as Bridge;
  return { bridge, emit: (payload: unknown) => listener?.(payload as never), subscribed: () => listener !== undefined };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the result of a desktop sign-in with Google', () => {
  it('adopts the session, then opens the dashboard', async () => {
    const { bridge, emit } = fakeBridge();
    const order: string[] = [];
    const setSession = vi.fn(async () => (order.push('session'), { error: null }));
    const navigate = vi.fn(() => void order.push('navigate'));
    const showError = vi.fn();
    listenToGoogleResult(bridge, { setSession, navigate, showError });
    emit({ kind: 'signed-in', accessToken: 'access', refreshToken: 'refresh' });
    await settle();
    expect(setSession).toHaveBeenCalledWith({ access_token: 'access', refresh_token: 'refresh' });
    expect(navigate).toHaveBeenCalledWith('/dashboard');
    expect(order).toEqual(['session', 'navigate']);
    expect(showError).not.toHaveBeenCalled();
  });

  it('shows a session that cannot be adopted, and stays', async () => {
    const { bridge, emit } = fakeBridge();
    const navigate = vi.fn();
    const showError = vi.fn();
    listenToGoogleResult(bridge, { setSession: async () => ({ error: { message: 'Invalid Refresh Token' } }), navigate, showError });
    emit({ kind: 'signed-in', accessToken: 'access', refreshToken: 'refresh' });
    await settle();
    expect(showError).toHaveBeenCalledWith('Invalid Refresh Token');
    expect(navigate).not.toHaveBeenCalled();
  });

  it("shows main's error, and stops listening when unsubscribed", () => {
    const { bridge, emit, subscribed } = fakeBridge();
    const showError = vi.fn();
    const stop = listenToGoogleResult(bridge, { setSession: vi.fn(), navigate: vi.fn(), showError });
    emit({ kind: 'error', message: 'Sign-in with Google was cancelled.' });
    expect(showError).toHaveBeenCalledWith('Sign-in with Google was cancelled.');
    stop();
    expect(subscribed()).toBe(false);
  });
});
