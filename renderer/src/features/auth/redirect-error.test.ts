import { describe, expect, it } from 'vitest';
import { resetLinkOf, takeInvalidResetLink, takeRedirectError } from './redirect-error';

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

describe('resetLinkOf', () => {
  it('a recovery link carries type=recovery and no error', () => {
    expect(resetLinkOf('#access_token=a&refresh_token=b&type=recovery')).toBe('recovery');
  });
  it('a used or expired link comes back with an error; a malformed one lacks type=recovery', () => {
    expect(resetLinkOf('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired')).toBe('failed');
    expect(resetLinkOf('#error_description=Token+has+expired&type=recovery')).toBe('failed');
    expect(resetLinkOf('#access_token=abc')).toBe('failed');
    expect(resetLinkOf('#type=signup')).toBe('failed');
  });
  it('the page opened without a link', () => {
    expect(resetLinkOf('')).toBe('none');
    expect(resetLinkOf('#')).toBe('none');
  });
});

describe('takeInvalidResetLink', () => {
  it('is true once per link, so its toast shows once', () => {
    expect(takeInvalidResetLink('#access_token=once')).toBe(true);
    expect(takeInvalidResetLink('#access_token=once')).toBe(false);
    expect(takeInvalidResetLink('#access_token=another')).toBe(true);
  });
});
