import { describe, expect, it } from 'vitest';
import { recoveryRedirect } from './recovery-redirect';

describe('recoveryRedirect', () => {
  it('sends the desktop app its own link and the web its reset page', () => {
    expect(recoveryRedirect('desktop', 'http://127.0.0.1:5000')).toBe('vibeeval://reset-password');
    expect(recoveryRedirect('web', 'https://vibeeval.example.com')).toBe('https://vibeeval.example.com/reset-password');
  });
});
