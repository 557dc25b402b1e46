import { findingTally, SEVERITIES, SEVERITY_RANK, tallyText, type Severity, type SeverityCounts } from '../../../common/scan';

// What a chat message says about one event, before any service's format: a headline, a few facts, the top new
// findings' titles and a link. Built from the event body the signed JSON carries ({type, timestamp, data}), so every
// field an event gains reaches the chats too. Texts here are raw (a scanned site may have written a finding's title):
// each service's formatter escapes them for its own markup and cuts them to its own limits.

/** The top new findings a message lists; the rest are counted ('…and 3 more'). */
export const TOP_FINDINGS = 5;
/** A finding's title, a project's address or a fact is cut here before any service's own limits. */
export const TITLE_MAX = 200;
export const FACT_MAX = 300;
export const NOTE_MAX = 500;

export type Tone = 'good' | 'warning' | 'bad' | 'neutral';

export interface ChatMessage {
  /** What happened, in one line: 'Scan completed: https://shop.example'. */
  headline: string;
  tone: Tone;
  facts: { label: string; value: string }[];
  /** Heading of the findings list ('New findings'). */
  findingsLabel: string;
  /** The top new findings, most severe first: '[high] Exposed .env file'. */
  findings: string[];
  /** New findings not listed. */
  moreFindings: number;
  /** An error message or a test's explanation. */
  note: string | null;
  /** The report (its signed link when the event carries one) or the event's page of the dashboard. */
  link: { url: string; label: string } | null;
}

/** The event body every delivery starts from. */
export interface EventBody {
  type: string;
  timestamp?: string;
  data: Record<string, unknown>;
}

/** `text` cut to `max` characters, the last one an ellipsis when cut (whole code points: no half emoji). */
export function cut(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
/** A one-line text: control characters and line breaks become spaces (a title cannot forge lines of the message). */
const line = (value: unknown, max: number): string =>
  cut(
    str(value)
      .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
      .trim(),
    max,
  );
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function counts(value: unknown): Partial<SeverityCounts> {
  const record = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const out: Partial<SeverityCounts> = {};
  for (const severity of SEVERITIES) {
    const count = num(record[severity]);
    if (count !== null) out[severity] = count;
  }
  return out;
}

/** The project as people know it: its name when the event has one, else the site's address. */
function projectOf(data: Record<string, unknown>): string {
  return line(data.project_name, TITLE_MAX) || line(data.url, TITLE_MAX) || line(data.website, TITLE_MAX);
}

function gradeFact(data: Record<string, unknown>): { label: string; value: string } | null {
  const grade = line(data.grade, 10);
  if (!grade) return null;
  const score = num(data.score);
  const previous = line(data.previous_grade, 10);
  return { label: 'Grade', value: `${grade}${score === null ? '' : ` (score ${score})`}${previous && previous !== grade ? ` (was ${previous})` : ''}` };
}

/** The event's new findings ({title, severity} items, however many the event carries), most severe first. */
function newFindings(data: Record<string, unknown>): { listed: string[]; more: number } {
  const items = Array.isArray(data.new_findings) ? (data.new_findings as unknown[]) : [];
  const findings = items
    .filter((item): item is Record<string, unknown> => !!item && typeof item === 'object' && line((item as Record<string, unknown>).title, TITLE_MAX) !== '')
    .map((item) => ({ title: line(item.title, TITLE_MAX), severity: (SEVERITIES as readonly string[]).includes(str(item.severity)) ? (item.severity as Severity) : null }))
    .sort((a, b) => (b.severity ? SEVERITY_RANK[b.severity] : -1) - (a.severity ? SEVERITY_RANK[a.severity] : -1));
  const listed = findings.slice(0, TOP_FINDINGS).map((finding) => (finding.severity ? `[${finding.severity}] ${finding.title}` : finding.title));
  const total = Math.max(num(data.new_count) ?? 0, findings.length);
  return { listed, more: total - listed.length };
}

function toneOfCounts(tally: Partial<SeverityCounts>): Tone {
  if ((tally.critical ?? 0) + (tally.high ?? 0) > 0) return 'bad';
  return findingTally(tally).issues > 0 ? 'warning' : 'good';
}

/** The dashboard page of an event, or its report's signed link when it carries one. */
function linkOf(type: string, data: Record<string, unknown>, origin: string | null): ChatMessage['link'] {
  const reportUrl = str(data.report_url);
  if (/^https?:\/\//i.test(reportUrl)) return { url: reportUrl, label: 'Open the report' };
  if (!origin) return null;
  const projectId = str(data.project_id);
  const path =
    type === 'scenario_run.completed'
      ? '/dashboard/scans'
      : type === 'report.generated'
        ? '/dashboard/reports'
        : type === 'subscription.updated'
          ? '/dashboard/billing'
          : type === 'webhook.test'
            ? '/dashboard/webhook'
            : projectId
              ? `/dashboard/projects/${encodeURIComponent(projectId)}`
              : '/dashboard';
  return { url: `${origin}${path}`, label: 'Open in vibeeval' };
}

type Parts = Pick<ChatMessage, 'headline' | 'tone' | 'facts'> & Partial<Pick<ChatMessage, 'findingsLabel' | 'note'>>;

function scanParts(data: Record<string, unknown>): Parts {
  const tally = counts(data.counts);
  return {
    // A re-scan leads with what is new since the last scan ('2 new findings since the last scan').
    headline: data.summary ? `${line(data.summary, TITLE_MAX)}: ${projectOf(data)}` : `Scan completed: ${projectOf(data)}`,
    tone: toneOfCounts(tally),
    facts: [gradeFact(data), { label: 'Findings', value: tallyText(findingTally(tally)) }].filter((fact) => fact !== null),
  };
}

function scenarioParts(data: Record<string, unknown>): Parts {
  const passed = data.status === 'passed';
  const step = num(data.failed_step);
  const duration = num(data.duration_ms);
  return {
    headline: `Scenario ${passed ? 'passed' : 'failed'}: ${line(data.name, TITLE_MAX)}`,
    tone: passed ? 'good' : 'bad',
    facts: [
      { label: 'Site', value: line(data.website, FACT_MAX) },
      ...(passed || step === null ? [] : [{ label: 'Failed at step', value: String(step) }]),
      ...(duration === null ? [] : [{ label: 'Duration', value: `${(duration / 1000).toFixed(1)} s` }]),
    ],
    note: passed ? null : line(data.error, NOTE_MAX) || null,
  };
}

/** A build's headline says what changed, as its mail does: 'success' means nothing new, never a good grade. */
const BUILD_HEADLINES: Record<string, string> = { success: 'Build checked, nothing new', warning: 'Build warning, new findings', error: 'Build error' };

function buildParts(data: Record<string, unknown>): Parts {
  const status = line(data.status, 20);
  return {
    headline: `${BUILD_HEADLINES[status] ?? 'Build judged'}: ${projectOf(data)}`,
    tone: status === 'success' ? 'good' : status === 'warning' ? 'warning' : 'bad',
    facts: [
      gradeFact(data),
      { label: 'New findings', value: String(num(data.new_count) ?? 0) },
      { label: 'Fixed', value: String(num(data.fixed_count) ?? 0) },
      ...(line(data.build_hash, 40) ? [{ label: 'Build', value: line(data.build_hash, 40) }] : []),
    ].filter((fact) => fact !== null),
    note: line(data.error, NOTE_MAX) || null,
  };
}

function scanFailedParts(data: Record<string, unknown>): Parts {
  return { headline: `Scan failed: ${projectOf(data)}`, tone: 'bad', facts: [], note: line(data.error, NOTE_MAX) || null };
}

function reportParts(data: Record<string, unknown>): Parts {
  const issues = num(data.total_issues);
  return {
    headline: `Report ready: ${line(data.type, 40) || 'security'} report of ${line(data.url, TITLE_MAX)}`,
    tone: 'neutral',
    facts: issues === null ? [] : [{ label: 'Issues', value: String(issues) }],
  };
}

function subscriptionParts(data: Record<string, unknown>): Parts {
  const plan = data.plan && typeof data.plan === 'object' ? line((data.plan as Record<string, unknown>).product_name, FACT_MAX) : '';
  return {
    headline: `Plan ${line(data.change, 40) || 'changed'}${plan ? `: ${plan}` : ''}`,
    tone: 'neutral',
    facts: [{ label: 'Status', value: line(data.status, FACT_MAX) }].filter((fact) => fact.value !== ''),
  };
}

const TEST_NOTE = 'A test message from vibeeval: this channel will receive finished scans, new findings and failed scenarios.';

/** An event type this build does not know yet: its type, project and counts, whatever it carries of them. */
function otherParts(type: string, data: Record<string, unknown>): Parts {
  const project = projectOf(data);
  const tally = counts(data.counts);
  const hasCounts = Object.keys(tally).length > 0;
  return {
    headline: `${line(type, 60)}${project ? `: ${project}` : ''}`,
    tone: hasCounts ? toneOfCounts(tally) : 'neutral',
    facts: [gradeFact(data), hasCounts ? { label: 'Findings', value: tallyText(findingTally(tally)) } : null].filter((fact) => fact !== null),
  };
}

function partsOf(type: string, data: Record<string, unknown>): Parts {
  switch (type) {
    case 'scan.completed':
      return scanParts(data);
    case 'scan.failed':
      return scanFailedParts(data);
    case 'scenario_run.completed':
      return scenarioParts(data);
    case 'continuous_build.completed':
      return buildParts(data);
    case 'report.generated':
      return reportParts(data);
    case 'subscription.updated':
      return subscriptionParts(data);
    case 'webhook.test':
      return { headline: 'vibeeval test message', tone: 'neutral', facts: [], note: TEST_NOTE };
    default:
      return otherParts(type, data);
  }
}

/** What a chat message says about the event; `origin` is where the dashboard is (null: no link but the report's). */
export function chatMessage(event: EventBody, origin: string | null): ChatMessage {
  const data = event.data ?? {};
  const parts = partsOf(event.type, data);
  const { listed, more } = newFindings(data);
  return {
    headline: parts.headline,
    tone: parts.tone,
    facts: parts.facts,
    findingsLabel: parts.findingsLabel ?? 'New findings',
    findings: listed,
    moreFindings: more,
    note: parts.note ?? null,
    link: linkOf(event.type, data, origin),
  };
}

/** '…and 3 more', with where to see them. */
export function moreText(more: number, link: ChatMessage['link']): string {
  return `…and ${more} more${link ? ' in vibeeval' : ''}`;
}

/**
 * As many of `items` as `fits` allows, in order, then a last line counting the ones left out (`extra` more were never
 * in `items`): the list of findings shrinks to a service's limit instead of being refused by it.
 */
export function fitLines(items: string[], extra: number, fits: (lines: string[]) => boolean, tail: (left: number) => string): string[] {
  const kept: string[] = [];
  for (const [index, item] of items.entries()) {
    const leftAfter = items.length - index - 1 + extra;
    const candidate = [...kept, item];
    if (!fits(leftAfter > 0 ? [...candidate, tail(leftAfter)] : candidate)) return [...kept, tail(items.length - index + extra)];
    kept.push(item);
  }
  return extra > 0 ? [...kept, tail(extra)] : kept;
}
