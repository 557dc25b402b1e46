import { describe, expect, it } from 'vitest';
import { parseCredentials } from './credentials';

const both = { username: 'user@example.com', password: 'S3cret!pw' };

describe('parseCredentials', () => {
  it.each([
    ['user@example.com / S3cret!pw'],
    ['user@example.com/S3cret!pw'],
    ['user@example.com:S3cret!pw'],
    ['Log in with user@example.com / S3cret!pw please'],
    ['email: user@example.com\npassword: S3cret!pw'],
    ['Email: user@example.com\r\nPassword: S3cret!pw'],
    ['PASSWORD: S3cret!pw\nEMAIL: user@example.com'],
    ['username: user@example.com\npass: S3cret!pw'],
    ['user: user@example.com\npass: S3cret!pw'],
    ['login: user@example.com\npassword = S3cret!pw'],
    ['Test account\n- Email: user@example.com\n- Password: `S3cret!pw`\nThen open the dashboard.'],
    ['email: user@example.com password: S3cret!pw'],
    ['Use the staging account.\nE-mail: "user@example.com"\nPassword: "S3cret!pw".'],
  ])('reads %j', (text) => {
    expect(parseCredentials(text)).toEqual(both);
  });

  it('reads a user name that is not an email', () => {
    expect(parseCredentials('username: admin\npassword: hunter2')).toEqual({ username: 'admin', password: 'hunter2' });
  });

  it.each([
    [null],
    [''],
    ['   '],
    ['Check the pricing page and the contact form.'],
    ['email: user@example.com'],
    ['password: S3cret!pw'],
    ['see https://example.com/login for details'],
  ])('finds none in %j', (text) => {
    expect(parseCredentials(text)).toBeNull();
  });
});
