import { describe, expect, it } from 'vitest';
import { describeDeepLink, findDeepLinkArg, MAX_DEEP_LINK_LENGTH, parseDeepLink } from './deep-links';

const UUID = '3f2b8c1e-7a4d-4e2f-9b6a-1c2d3e4f5a6b';
const INVITE = `vbi_${'Ab3_-'.repeat(8)}xyz`;

describe('invitation links', () => {
  it.each([
    'vibeeval://invite',
    'vibeeval://invite?token=',
    'vibeeval://invite?token=vbi_short',
    `vibeeval://invite?token=${INVITE}&token=${INVITE}`,
    `vibeeval://invite?token=${INVITE}&next=https://evil.test`,
    `vibeeval://invite?token=${INVITE}#frag`,
    `vibeeval://invite/extra?token=${INVITE}`,
    `vibeeval://invite?token=${INVITE.replace('vbi_', 'vbx_')}`,
    `vibeeval://invite?token=${INVITE}%00`,
  ])('refuses %s', (raw) => {
    expect(parseDeepLink(raw)).toBeNull();
  });

  it('keeps the token out of the loggable form', () => {
    expect(describeDeepLink(`vibeeval://invite?token=${INVITE}`)).toBe('vibeeval://invite');
  });
});

describe('parseDeepLink', () => {
  it.each([
    ['vibeeval://auth/callback?code=abc123&state=xyz', { kind: 'auth-callback', code: 'abc123', state: 'xyz' }],
    ['vibeeval://auth/callback?error=access_denied&error_description=User%20denied&state=s1', { kind: 'auth-error', error: 'User denied', state: 's1' }],
    ['vibeeval://auth/callback?error=access_denied', { kind: 'auth-error', error: 'access_denied' }],
    [
      'vibeeval://reset-password#access_token=tok.en-1&type=recovery&expires_in=3600',
      { kind: 'password-recovery', fragment: 'access_token=tok.en-1&type=recovery&expires_in=3600' },
    ],
    [
      'vibeeval://reset-password#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      {
        kind: 'password-recovery',
        fragment: 'error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      },
    ],
    [`vibeeval://project/${UUID}`, { kind: 'project', projectId: UUID }],
    [`vibeeval://project/${UUID}/`, { kind: 'project', projectId: UUID }],
    ['vibeeval://report/rep_01-ab', { kind: 'report', reportId: 'rep_01-ab' }],
    [`vibeeval://invite?token=${INVITE}`, { kind: 'invite', token: INVITE }],
    [`vibeeval://invite/?token=${INVITE}`, { kind: 'invite', token: INVITE }],
  ])('accepts %s', (raw, expected) => {
    expect(parseDeepLink(raw)).toEqual(expected);
  });

  it.each([
    // other schemes and lookalikes
    'https://auth/callback?code=a&state=b',
    'javascript:alert(1)',
    'vibeevil://project/' + UUID,
    'file:///etc/passwd',
    // credentials, ports
    'vibeeval://user:pass@auth/callback?code=a&state=b',
    'vibeeval://user@project/' + UUID,
    'vibeeval://project:80/' + UUID,
    // missing or duplicated params
    'vibeeval://auth/callback?code=a',
    'vibeeval://auth/callback?state=b',
    'vibeeval://auth/callback?code=a&code=c&state=b',
    'vibeeval://auth/callback?code=&state=b',
    'vibeeval://auth/callback?code=a&state=b#frag',
    // recovery without the right fragment
    'vibeeval://reset-password',
    'vibeeval://reset-password#type=recovery',
    'vibeeval://reset-password#access_token=t&type=signup',
    'vibeeval://reset-password?x=1#access_token=t&type=recovery',
    // bad ids and traversal
    'vibeeval://project/not-a-uuid',
    'vibeeval://project/' + UUID + '/extra',
    'vibeeval://project/' + UUID + '?x=1',
    'vibeeval://project/',
    'vibeeval://report/../project/' + UUID,
    'vibeeval://report/..%2F..%2Fetc',
    'vibeeval://report/a%2Fb',
    'vibeeval://report//x',
    'vibeeval://report/r\u00e9port',
    'vibeeval://report/' + 'a'.repeat(129),
    'vibeeval://auth/callback?code=%E2%98%83&state=b',
    // unknown routes
    'vibeeval://settings',
    'vibeeval://',
    '',
    'vibeeval://report/x'.padEnd(MAX_DEEP_LINK_LENGTH + 1, 'x'),
  ])('rejects %s', (raw) => {
    expect(parseDeepLink(raw)).toBeNull();
  });

  it.each([undefined, null, 42, {}, ['vibeeval://report/x']])('rejects non-string %j', (raw) => {
    expect(parseDeepLink(raw)).toBeNull();
  });
});

describe('describeDeepLink', () => {
  it('drops query and fragment, which may hold secrets', () => {
    expect(describeDeepLink('vibeeval://auth/callback?code=SECRET&state=s')).toBe('vibeeval://auth/callback');
    expect(describeDeepLink('vibeeval://reset-password#access_token=SECRET&type=recovery')).toBe('vibeeval://reset-password');
  });

  it('does not echo other input', () => {
    expect(describeDeepLink('https://user:SECRET@example.com/')).toBe('<not a vibeeval link>');
  });
});

describe('findDeepLinkArg', () => {
  it('finds the link among other arguments', () => {
    expect(findDeepLinkArg(['/usr/bin/vibeeval', '--flag', 'VibeEval://report/x'])).toBe('VibeEval://report/x');
  });

  it('gives undefined without one', () => {
    expect(findDeepLinkArg(['/usr/bin/vibeeval', '.', 'https://x'])).toBeUndefined();
  });
});
