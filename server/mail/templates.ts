import type { MailMessage } from './mailer';
import { plural } from '../../common/plural';
import { html, join } from '../../engine/html-kit';

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
    html: html`<p>Someone asked to reset the password of your vibeeval account.</p>
<p><a href="${link}">Reset your password</a> (the link works once, for one hour).</p>
<p>If it was not you, ignore this message: your password stays as it is.</p>`.toString(),
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
    html: html`<p>A vibeeval account was created with this address.</p>
<p><a href="${link}">Confirm your address</a> (the link works once, for one hour).</p>
<p>If it was not you, ignore this message: no account is confirmed without this link.</p>`.toString(),
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
    html: html`<p>Someone tried to sign up for vibeeval with your address, which already has an account. No new account was made.</p>
<p>If it was you, <a href="${loginLink}">sign in</a> instead (or choose a new password from there).</p>
<p>If it was not you, ignore this message: your account is unchanged.</p>`.toString(),
  };
}

/** What the adoption mail tells about the set-aside account (server/auth/adoption.ts). */
export interface SetAsideAccount {
  createdAt: Date;
  projects: number;
  scenarios: number;
  webhookUrls: string[];
  apiKeys: number;
}

/**
 * Sent when a Google sign-in set apart a password account made with the address before it was proven; the link
 * (24 hours, once) moves that account's projects and scenarios into the Google account.
 */
export function adoptionMail(to: string, account: SetAsideAccount, link: string): MailMessage {
  const made = account.createdAt.toISOString().slice(0, 10);
  const holds = `It holds ${plural(account.projects, 'project')}, ${plural(account.scenarios, 'scenario')}, ${plural(account.webhookUrls.length, 'webhook')} and ${plural(account.apiKeys, 'API key')}.`;
  const intro = `An account with a password was made with this address on ${made} (UTC) without the address being confirmed, so it was kept apart when you signed in with Google.`;
  const webhooks = account.webhookUrls.length
    ? 'Its webhooks are not moved but deleted, since someone else may have made them: check these URLs before you make them again in your account:'
    : '';
  const rest = ['Its API keys are deleted, never moved.', 'If you did not make that account, ignore this message: nothing of it reaches your account.'];
  return {
    to,
    subject: 'Move the projects of your earlier vibeeval account',
    text: [
      intro,
      holds,
      '',
      'If you made it, open this link to move its projects and scenarios into the account you signed in to with Google (it works once, for 24 hours):',
      link,
      '',
      ...(webhooks ? [webhooks, ...account.webhookUrls.map((url) => `  ${url}`), ''] : []),
      ...rest,
    ].join('\n'),
    html: html`<p>${intro}</p>
<p>${holds}</p>
<p>If you made it, <a href="${link}">move its projects and scenarios into your account</a> (the link works once, for 24 hours).</p>
${webhooks && html`<p>${webhooks}</p>\n<ul>${account.webhookUrls.map((url) => html`<li>${url}</li>`)}</ul>\n`}${join(
      rest.map((line) => html`<p>${line}</p>`),
      '\n',
    )}`.toString(),
  };
}
