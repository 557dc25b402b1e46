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
