import escapeHtml from 'escape-html';
import type { BuildChanges, ContinuousBuild, MonitoringOverview } from '@common/continuous';
import { ApiError } from '../../api/http';
import { BUILDS_CALL, texts } from './texts';
import { plural } from '@common/plural';

type BuildStatus = ContinuousBuild['status'];

/** The usage meter: the share of the monthly allowance used, the bar never past 100 % (spec section 9). */
export function usageMeter(usage: MonitoringOverview['usage']): { percent: number; label: string; exhausted: boolean } {
  const percent = usage.limit > 0 ? Math.min(100, Math.max(0, (usage.used / usage.limit) * 100)) : 100;
  return {
    percent: Math.round(percent * 10) / 10,
    label: `${usage.used.toLocaleString('en-US')} of ${usage.limit.toLocaleString('en-US')} events`,
    exhausted: usage.used >= usage.limit,
  };
}

/** The tag a site embeds: the script from the API host, the project's site token in data-site, loaded async. */
export function scriptTag(apiOrigin: string, siteToken: string): string {
  const origin = apiOrigin.replace(/\/+$/, '');
  return `<script src="${escapeHtml(origin)}/latest.js" data-site="${escapeHtml(siteToken)}" async></script>`;
}

/** Badge colours: success green, warning orange, error red, and grey 'Pending' until the re-scan judges it. */
export const BUILD_STATUS_VIEW: Record<BuildStatus, { label: string; palette: string }> = {
  success: { label: texts.statuses.success, palette: 'green' },
  warning: { label: texts.statuses.warning, palette: 'orange' },
  error: { label: texts.statuses.error, palette: 'red' },
  other: { label: texts.statuses.other, palette: 'gray' },
};

/** What a build's row says changed. */
export type ChangeSummary =
  { kind: 'pending' } | { kind: 'broken'; reason: string } | { kind: 'changes'; headline: string; findings: BuildChanges['new_findings']; unlisted: number };

/** A build's changes in words: pending until judged, the error when the site broke, else new and fixed counts. */
export function changeSummary(build: Pick<ContinuousBuild, 'changes'>): ChangeSummary {
  const changes = build.changes;
  if (!changes) return { kind: 'pending' };
  if (changes.error) return { kind: 'broken', reason: changes.error };
  const parts: string[] = [];
  if (changes.new_count > 0) parts.push(plural(changes.new_count, 'new finding', 'new findings'));
  if (changes.fixed_count > 0) parts.push(`${changes.fixed_count.toLocaleString('en-US')} fixed`);
  return {
    kind: 'changes',
    headline: parts.length > 0 ? parts.join(', ') : texts.noChanges,
    findings: changes.new_findings,
    unlisted: Math.max(0, changes.new_count - changes.new_findings.length),
  };
}

/** The toast's description: 'Failed to fetch continuous builds: {status} - {text}' (spec section 8's pattern). */
export function buildsCallError(error: unknown): string {
  if (error instanceof ApiError) return `Failed to ${BUILDS_CALL}: ${error.status} - ${error.message}`;
  return `Failed to ${BUILDS_CALL}: ${error instanceof Error ? error.message : String(error)}`;
}

/** The project the page shows: the one asked for in ?project=, else the first of the user's projects. */
export function chooseProjectId(requested: string | null, projectIds: readonly string[]): string | null {
  if (requested) return requested;
  return projectIds[0] ?? null;
}

/** '12 AM', '1 AM', ... '11 PM' for the hour picker. */
export function hourLabel(hour: number): string {
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelve} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** Weekday names in the server's numbering (0 = Sunday). */
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The browser's IANA time zone (what the schedule is saved in), UTC when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The Next.js App Router form of the tag (app/layout.tsx), with next/script loading it after hydration. */
export function nextScriptSnippet(apiOrigin: string, siteToken: string): string {
  const origin = apiOrigin.replace(/\/+$/, '');
  return [
    "import Script from 'next/script';",
    '',
    '// inside <body>, after {children}:',
    `<Script src="${escapeHtml(origin)}/latest.js" data-site="${escapeHtml(siteToken)}" strategy="afterInteractive" />`,
  ].join('\n');
}
