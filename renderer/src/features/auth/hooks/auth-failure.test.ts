import { describe, expect, it } from 'vitest';
import { AuthFailure, authFailureToast } from './auth-failure';

describe('authFailureToast', () => {
  it("shows the auth server's explanation under the page's title", () => {
    expect(authFailureToast('Error signing in')(new AuthFailure('Invalid login credentials'))).toEqual(['Error signing in', 'Invalid login credentials']);
  });

  it('calls anything else unexpected, without its message', () => {
    expect(authFailureToast('Error signing in')(new TypeError('Failed to fetch'))).toEqual(['Error', 'An unexpected error occurred.']);
  });
});
