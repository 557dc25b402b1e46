import { html } from '../../engine/html-kit';
import type { MailMessage } from '../mail/mailer';

/** The invitation to a workspace: names the workspace and who invited, and links the page that accepts it. */
export function invitationMail({ to, workspaceName, inviter, link, hours }: { to: string; workspaceName: string; inviter: string; link: string; hours: number }): MailMessage {
  return {
    to,
    subject: `${inviter} invited you to ${workspaceName} on vibeeval`,
    text: [
      `${inviter} invited you to join the workspace ${workspaceName} on vibeeval, to share its projects, scans and reports.`,
      '',
      `Open this link to join (sign in as ${to}; it works once, for ${hours} hours):`,
      link,
      '',
      'If you did not expect this, ignore this message: nothing happens unless you open the link.',
    ].join('\n'),
    html: html`<p>${inviter} invited you to join the workspace <strong>${workspaceName}</strong> on vibeeval, to share its projects, scans and reports.</p>
<p><a href="${link}">Join ${workspaceName}</a> (sign in as ${to}; the link works once, for ${hours} hours).</p>
<p>If you did not expect this, ignore this message: nothing happens unless you open the link.</p>`.toString(),
  };
}
