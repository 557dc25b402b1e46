import type { WebhookEventType } from '../../common/webhooks';
import { html, join } from '../../engine/html-kit';
import type { MailMessage } from '../mail/mailer';

// The mail of a finished scan, scenario run or continuous build: a short summary (grade, finding counts, result)
// and, when there is one, the signed link of the report. Built from the same event data the webhooks carry.

/** The events that send a mail when the account's email notifications are on. */
export const MAILED_EVENTS: ReadonlySet<WebhookEventType> = new Set<WebhookEventType>(['scan.completed', 'scan.failed', 'scenario_run.completed', 'continuous_build.completed']);

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

function scanFailedSummary(data: Record<string, unknown>): Summary {
  return {
    subject: `Scan failed: ${str(data.url)}`,
    lines: [`The scan of ${str(data.url)} could not complete.`, str(data.error) || 'No reason was given.'],
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

/**
 * A build's status says what changed since the scan before (success: nothing new; warning: a new medium finding;
 * error: a new high or critical one, or the re-scan failed), not how good the site is: the subject says so in those
 * words, so 'success' never stands next to a grade F.
 */
function buildSummary(data: Record<string, unknown>): Summary {
  const grade = str(data.grade) || '—';
  const previous = data.previous_grade ? ` (was ${str(data.previous_grade)})` : '';
  const newCount = typeof data.new_count === 'number' ? data.new_count : 0;
  const news = newCount === 0 ? 'no new findings' : newCount === 1 ? '1 new finding' : `${newCount} new findings`;
  const url = str(data.url);
  const subject =
    data.error && data.grade == null
      ? `Build error: the re-scan of ${url} failed`
      : `${data.status === 'success' ? 'Build checked' : data.status === 'warning' ? 'Build warning' : 'Build error'}: ${news}, grade ${grade} for ${url}`;
  return {
    subject,
    lines: [
      `The continuous build ${str(data.build_hash)} of ${url} was checked: ${news} since the scan before.`,
      `Grade: ${grade}${previous}`,
      `New findings: ${str(data.new_count)}, fixed: ${str(data.fixed_count)}`,
      ...(data.error ? [`Error: ${str(data.error)}`] : []),
    ],
  };
}

/** One run of a Run All, as the batch's summary mail lists it (server/scenarios/batches.ts). */
export interface BatchRunLine {
  name: string;
  website: string;
  status: 'passed' | 'failed';
  failedStep: number | null;
  error: string | null;
}

/** The one mail of a Run All, sent when its last run finished: how many passed, then one line per scenario. */
export function scenarioBatchMail(to: string, runs: BatchRunLine[]): MailMessage {
  const passed = runs.filter((run) => run.status === 'passed').length;
  const failed = runs.length - passed;
  return render(
    to,
    {
      subject: failed === 0 ? `Run All: all ${runs.length} scenarios passed` : `Run All: ${failed} of ${runs.length} scenarios failed`,
      lines: [
        `Run All finished: ${passed} passed, ${failed} failed.`,
        ...runs.map((run) =>
          run.status === 'passed'
            ? `Passed: ${run.name} (${run.website})`
            : `Failed: ${run.name} (${run.website})${run.failedStep == null ? '' : ` at step ${run.failedStep + 1}`}: ${run.error || 'no error message'}`,
        ),
      ],
    },
    null,
  );
}

/** The notification mail of one event, or null for events that send none. */
export function notificationMail(to: string, type: WebhookEventType, data: Record<string, unknown>, reportUrl: string | null): MailMessage | null {
  const summary =
    type === 'scan.completed'
      ? scanSummary(data)
      : type === 'scan.failed'
        ? scanFailedSummary(data)
        : type === 'scenario_run.completed'
          ? scenarioSummary(data)
          : type === 'continuous_build.completed'
            ? buildSummary(data)
            : null;
  return summary ? render(to, summary, reportUrl) : null;
}

function render(to: string, summary: Summary, reportUrl: string | null): MailMessage {
  const footer = 'You get this mail because email notifications are on: turn them off in vibeeval under Settings, Preferences.';
  const link = reportUrl ? [`Open the report: ${reportUrl}`] : [];
  return {
    to,
    subject: summary.subject,
    text: [...summary.lines, ...link, '', footer].join('\n'),
    html: join(
      [
        ...summary.lines.map((line) => html`<p>${line}</p>`),
        reportUrl && html`<p><a href="${reportUrl}">Open the report</a></p>`,
        html`<p style="color:#666">${footer}</p>`,
      ].filter(Boolean),
      '\n',
    ).toString(),
  };
}
