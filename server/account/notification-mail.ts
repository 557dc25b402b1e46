import type { WebhookEventType } from '../../common/webhooks';
import { html, join } from '../../engine/html-kit';
import type { MailMessage } from '../mail/mailer';

// The mail of a finished scan, scenario run or continuous build: a short summary (grade, finding counts, result)
// and, when there is one, the signed link of the report. Built from the same event data the webhooks carry.

/** The events that send a mail when the account's email notifications are on. */
export const MAILED_EVENTS: ReadonlySet<WebhookEventType> = new Set<WebhookEventType>(['scan.completed', 'scenario_run.completed', 'continuous_build.completed']);

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
const str = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');

/** "2 critical, 0 high, 1 medium, 3 low" from a scan's counts (severities it lacks count as 0, info only when present). */
export function countsLine(counts: unknown): string {
  const record = counts && typeof counts === 'object' ? (counts as Record<string, unknown>) : {};
  return SEVERITIES.filter((severity) => severity !== 'info' || typeof record.info === 'number')
    .map((severity) => `${typeof record[severity] === 'number' ? record[severity] : 0} ${severity}`)
    .join(', ');
}

interface Summary {
  subject: string;
  lines: string[];
}

/** The new findings a re-scan's mail names, from the event's `new_findings`. */
function newFindingLines(listed: unknown): string[] {
  if (!Array.isArray(listed)) return [];
  return listed.map((finding: { title?: unknown; severity?: unknown }) => `New: ${str(finding.title)} (${str(finding.severity)})`);
}

function scanSummary(data: Record<string, unknown>): Summary {
  const grade = str(data.grade) || '—';
  // A re-scan leads with what is new since the last scan ('2 new findings since the last scan').
  const headline = str(data.summary);
  return {
    subject: headline ? `${headline}: grade ${grade} for ${str(data.url)}` : `Scan finished: grade ${grade} for ${str(data.url)}`,
    lines: [
      ...(headline ? [`${headline}.`] : []),
      ...newFindingLines(data.new_findings),
      `The scan of ${str(data.url)} finished.`,
      `Grade: ${grade}${data.score == null ? '' : ` (score ${str(data.score)})`}`,
      `Findings: ${countsLine(data.counts)}`,
    ],
  };
}

function scenarioSummary(data: Record<string, unknown>): Summary {
  const passed = data.status === 'passed';
  const seconds = typeof data.duration_ms === 'number' ? ` in ${(data.duration_ms / 1000).toFixed(1)} s` : '';
  return {
    subject: `Scenario ${passed ? 'passed' : 'failed'}: ${str(data.name)}`,
    lines: [
      `The scenario "${str(data.name)}" on ${str(data.website)} ${passed ? 'passed' : 'failed'}${seconds}.`,
      ...(passed ? [] : [`Failed at step ${data.failed_step == null ? '—' : str(data.failed_step)}: ${str(data.error) || 'no error message'}`]),
    ],
  };
}

function buildSummary(data: Record<string, unknown>): Summary {
  const grade = str(data.grade) || '—';
  const previous = data.previous_grade ? ` (was ${str(data.previous_grade)})` : '';
  return {
    subject: `Build ${str(data.status)}: grade ${grade} for ${str(data.url)}`,
    lines: [
      `The continuous build ${str(data.build_hash)} of ${str(data.url)} was judged: ${str(data.status)}.`,
      `Grade: ${grade}${previous}`,
      `New findings: ${str(data.new_count)}, fixed: ${str(data.fixed_count)}`,
      ...(data.error ? [`Error: ${str(data.error)}`] : []),
    ],
  };
}

/** The notification mail of one event, or null for events that send none. */
export function notificationMail(to: string, type: WebhookEventType, data: Record<string, unknown>, reportUrl: string | null): MailMessage | null {
  const summary = type === 'scan.completed' ? scanSummary(data) : type === 'scenario_run.completed' ? scenarioSummary(data) : type === 'continuous_build.completed' ? buildSummary(data) : null;
  if (!summary) return null;
  const footer = 'You get this mail because email notifications are on: turn them off in vibeeval under Settings, Preferences.';
  const link = reportUrl ? [`Open the report: ${reportUrl}`] : [];
  return {
    to,
    subject: summary.subject,
    text: [...summary.lines, ...link, '', footer].join('\n'),
    html: join(
      [...summary.lines.map((line) => html`<p>${line}</p>`), reportUrl && html`<p><a href="${reportUrl}">Open the report</a></p>`, html`<p style="color:#666">${footer}</p>`].filter(Boolean),
      '\n',
    ).toString(),
  };
}
