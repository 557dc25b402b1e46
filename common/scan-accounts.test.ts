import { describe, expect, it } from 'vitest';
import { parseScanAccounts, type AccountsFormat } from './scan-accounts';

const alice = { login: 'alice@example.com', password: 'S3cret!pw' };
const bob = { login: 'bob', password: 'hunter2 with spaces' };

describe('parseScanAccounts, file format (--accounts, VIBEEVAL_SCAN_ACCOUNTS)', () => {
  it('reads one account per line; the password is the rest of the line', () => {
    expect(parseScanAccounts('alice@example.com S3cret!pw\n\n# the second user\n  bob\t  hunter2 with spaces  \r\n')).toEqual({ ok: true, accounts: [alice, bob] });
  });

  it('reads nothing from blank and comment lines', () => {
    expect(parseScanAccounts('\n# none yet\n   \n')).toEqual({ ok: true, accounts: [] });
  });

  it('keeps a slash as part of the password (the file format has one separator: whitespace)', () => {
    expect(parseScanAccounts('alice@example.com / pw')).toEqual({ ok: true, accounts: [{ login: 'alice@example.com', password: '/ pw' }] });
  });
});

describe('parseScanAccounts, Credentials field format', () => {
  it.each([
    ['alice@example.com S3cret!pw'],
    ['alice@example.com / S3cret!pw'],
    ['alice@example.com:S3cret!pw'],
    ['Email: alice@example.com\nPassword: S3cret!pw'],
    ['Test account\n- Email: alice@example.com\n- Password: `S3cret!pw`\nThen open the dashboard.'],
  ])('reads %j', (text) => {
    expect(parseScanAccounts(text, 'field')).toEqual({ ok: true, accounts: [alice] });
  });

  it.each([
    ['alice@example.com / S3cret!pw\nbob@example.com / 0ther pw'],
    ['Email: alice@example.com\nPassword: S3cret!pw\n\nEmail: bob@example.com\nPassword: 0ther'],
    ['Admin login: alice@example.com / S3cret!pw\nUser login: bob@example.com / 0ther'],
    ['email: alice@example.com password: S3cret!pw\nemail: bob@example.com password: 0ther'],
  ])('reads two accounts from %j', (text) => {
    const parsed = parseScanAccounts(text, 'field');
    expect(parsed.ok && parsed.accounts.map((a) => a.login)).toEqual(['alice@example.com', 'bob@example.com']);
  });

  it('reads a user name and its password, with or without a slash', () => {
    expect(parseScanAccounts('admin hunter2\nbob / hunter3', 'field')).toEqual({
      ok: true,
      accounts: [
        { login: 'admin', password: 'hunter2' },
        { login: 'bob', password: 'hunter3' },
      ],
    });
  });
});

describe('parseScanAccounts errors', () => {
  const cases: [AccountsFormat, string, number, RegExp][] = [
    ['file', 'alice@example.com S3cret!pw\nbob@example.com P4ss-two\ncarol@example.com Th1rd-pw', 3, /at most 2 accounts/],
    ['file', '# accounts\nTh1rd-pw', 2, /cannot read an account/],
    ['file', 'alice@example.com S3cret!pw\nALICE@example.com P4ss-two', 2, /same account as line 1/],
    ['file', `${'a'.repeat(321)} S3cret!pw`, 1, /longer than 320/],
    ['field', 'alice@example.com / S3cret!pw\nbob@example.com / P4ss-two\ncarol@example.com / Th1rd-pw', 3, /at most 2 accounts/],
    ['field', 'Use the staging account please S3cret!pw', 1, /cannot read an account/],
    ['field', 'S3cret!pw', 1, /cannot read an account/],
    ['field', 'Email: alice@example.com\nEmail: bob@example.com\nPassword: S3cret!pw', 1, /email or user name without its password/],
    ['field', 'Password: S3cret!pw', 1, /password without its email/],
    ['field', 'email: a@example.com\npassword: S3cret!pw\nemail: b@example.com\npassword: P4ss-two\nemail: c@example.com\npassword: Th1rd-pw', 6, /at most 2/],
  ];
  it.each(cases)('%s %j: names line %i and no password', (format, text, line, problem) => {
    const parsed = parseScanAccounts(text, format);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.line).toBe(line);
    expect(parsed.message).toMatch(new RegExp(`^line ${line}: `));
    expect(parsed.message).toMatch(problem);
    for (const secret of ['S3cret', 'P4ss', 'Th1rd', 'staging']) expect(parsed.message).not.toContain(secret);
  });
});
