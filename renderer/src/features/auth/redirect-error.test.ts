import { describe, expect, it } from 'vitest';
import { isRecoveryFragment, takeRedirectError } from './redirect-error';

describe('takeRedirectError', () => {
  it('returns the decoded error_description once per fragment', () => {
    const hash = '#error=access_denied&error_description=Token+has+expired';
    expect(takeRedirectError(hash)).toBe('Token has expired');
    expect(takeRedirectError(hash)).toBeUndefined();
  });

  it('ignores fragments without an error', () => {
    expect(takeRedirectError('#pricing')).toBeUndefined();
    expect(takeRedirectError('')).toBeUndefined();
  });
});

describe('isRecoveryFragment', () => {
  it('recognises the fragment of a recovery link', () => {
    expect(isRecoveryFragment('#access_token=a&refresh_token=b&type=recovery')).toBe(true);
    expect(isRecoveryFragment('#type=signup')).toBe(false);
    expect(isRecoveryFragment('#error=access_denied&error_code=otp_expired')).toBe(false);
    expect(isRecoveryFragment('')).toBe(false);
  });
});
