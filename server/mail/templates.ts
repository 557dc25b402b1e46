import type { MailMessage } from './mailer';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The password recovery mail; the link opens /auth/v1/verify, which lands on /reset-password. */
export function recoveryMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your vibeeval password',
    text: [
      'Someone asked to reset the password of your vibeeval account.',
      '',
      `Open this link to choose a new password (it works once, for one hour):`,
      link,
      '',
      'If it was not you, ignore this message: your password stays as it is.',
    ].join('\n'),
    html: `<p>Someone asked to reset the password of your vibeeval account.</p>
<p><a href="${escape(link)}">Reset your password</a> (the link works once, for one hour).</p>
<p>If it was not you, ignore this message: your password stays as it is.</p>`,
  };
}

/** The sign-up confirmation mail; the link opens /auth/v1/verify (type signup), which proves the address. */
export function confirmationMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your vibeeval address',
    text: [
      'A vibeeval account was created with this address.',
      '',
      'Open this link to confirm the address is yours (it works once, for one hour):',
      link,
      '',
      'If it was not you, ignore this message: no account is confirmed without this link.',
    ].join('\n'),
    html: `<p>A vibeeval account was created with this address.</p>
<p><a href="${escape(link)}">Confirm your address</a> (the link works once, for one hour).</p>
<p>If it was not you, ignore this message: no account is confirmed without this link.</p>`,
  };
}

/** Sent instead of a confirmation when someone signs up with an address that already has an account. */
export function signUpAttemptMail(to: string, loginLink: string): MailMessage {
  return {
    to,
    subject: 'Someone tried to sign up with your address',
    text: [
      'Someone tried to sign up for vibeeval with your address, which already has an account. No new account was made.',
      '',
      `If it was you, sign in instead (or choose a new password from there): ${loginLink}`,
      '',
      'If it was not you, ignore this message: your account is unchanged.',
    ].join('\n'),
    html: `<p>Someone tried to sign up for vibeeval with your address, which already has an account. No new account was made.</p>
<p>If it was you, <a href="${escape(loginLink)}">sign in</a> instead (or choose a new password from there).</p>
<p>If it was not you, ignore this message: your account is unchanged.</p>`,
  };
}
