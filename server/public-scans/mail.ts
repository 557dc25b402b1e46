import type { ScanResult } from '../../common/scan';
import { plural } from '../../common/plural';
import { SEVERITY_RANK } from '../../common/scan';
import { html } from '../../engine/html-kit';
import type { MailMessage } from '../mail/mailer';

/** The site's host for subjects and file names (never the full URL: a query string may carry anything). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The public quick scan's mail: a summary with the most serious findings, the full HTML report attached, and a
 * signed link to the same report on the server.
 */
export function publicReportMail(options: { to: string; url: string; result: ScanResult; reportHtml: string; reportLink: string }): MailMessage {
  const { to, url, result, reportHtml, reportLink } = options;
  const host = hostOf(url);
  const top = [...result.findings]
    .filter((finding) => finding.severity !== 'info')
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity])
    .slice(0, 5);
  const { critical, high, medium, low } = result.counts;
  const summary = `${plural(critical, 'critical issue')}, ${high} high, ${medium} medium and ${low} low; ${plural(result.passed.length, 'check')} passed.`;
  return {
    to,
    subject: `Your vibeeval security report for ${host}: grade ${result.grade}`,
    text: [
      `vibeeval scanned ${url} (${plural(result.pages.length, 'page')}).`,
      '',
      `Overall grade: ${result.grade} (${result.score}/100). Security headers: ${result.headers.grade}.`,
      summary,
      '',
      ...(top.length ? ['Most serious findings:', ...top.map((f) => `- [${f.severity}] ${f.title}`), ''] : ['No issues above informational were found.', '']),
      'The full report is attached (open the HTML file in a browser). You can also view it here for 7 days:',
      reportLink,
      '',
      'Secrets found on the site are shown masked in the report. Scan only sites you own or have permission to test.',
    ].join('\n'),
    html: html`<p>vibeeval scanned <strong>${url}</strong> (${plural(result.pages.length, 'page')}).</p>
<p>Overall grade: <strong>${result.grade}</strong> (${result.score}/100). Security headers: <strong>${result.headers.grade}</strong>.<br>${summary}</p>
${top.length ? html`<p>Most serious findings:</p><ul>${top.map((f) => html`<li><strong>${f.severity}</strong>: ${f.title}</li>`)}</ul>` : html`<p>No issues above informational were found.</p>`}
<p>The full report is attached. You can also <a href="${reportLink}">view it online</a> for 7 days.</p>
<p style="color:#555">Secrets found on the site are shown masked in the report. Scan only sites you own or have permission to test.</p>`.toString(),
    attachments: [{ filename: `vibeeval-report-${host.replace(/[^a-z0-9.-]/gi, '_')}.html`, content: reportHtml, contentType: 'text/html; charset=utf-8' }],
  };
}

/** The mail when the site could not be scanned (unreachable, refused address): the reason, and what to try. */
export function publicScanFailedMail(options: { to: string; url: string; reason: string }): MailMessage {
  const { to, url, reason } = options;
  return {
    to,
    subject: `We could not scan ${hostOf(url)}`,
    text: [`vibeeval could not scan ${url}:`, reason, '', 'Check that the address opens in a browser from the internet, then try again from the website.'].join('\n'),
    html: html`<p>vibeeval could not scan <strong>${url}</strong>:</p><p>${reason}</p><p>Check that the address opens in a browser from the internet, then try again from the website.</p>`.toString(),
  };
}
