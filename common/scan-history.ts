import { z } from 'zod';
import { PAGE_SIZES, pageQuerySchema } from './pagination';
import { plural } from './plural';
import { findingSchema, gradeSchema, severityCountsSchema } from './scan';
import { SCAN_STATES } from './projects';

// A project's scan history: every scan with what started it, and what changed between any two of them (new, fixed,
// unchanged findings, by fingerprint: engine/diff.ts). One vocabulary for the change, used by the dashboard, the
// reports, the mails, the webhooks and the desktop notices.

/** What started a scan: the dashboard, monitoring's schedule, continuous testing's site change, or the API (/v1 and MCP). */
export const SCAN_TRIGGERS = ['manual', 'schedule', 'site_change', 'api'] as const;
export const scanTriggerSchema = z.enum(SCAN_TRIGGERS);
export type ScanTrigger = z.infer<typeof scanTriggerSchema>;

/** Each trigger in words, as the history shows it. */
export const SCAN_TRIGGER_LABELS: Record<ScanTrigger, string> = { manual: 'Manual', schedule: 'Schedule', site_change: 'Site change', api: 'API' };

/** One scan in a project's history: everything but its findings. */
export const scanHistoryItemSchema = z.object({
  id: z.string(),
  state: z.enum(SCAN_STATES),
  trigger: scanTriggerSchema,
  queued_at: z.string(),
  finished_at: z.string().nullable(),
  score: z.number().int().nullable(),
  grade: gradeSchema.nullable(),
  counts: severityCountsSchema.nullable(),
  error: z.string().nullable(),
  /** The scan's security report (opened from the dashboard's Reports page), once there is one. */
  report_id: z.string().nullable(),
});
export type ScanHistoryItem = z.infer<typeof scanHistoryItemSchema>;

/** GET /project/{id}/scans: `?limit=&cursor=`, newest first. */
export const scanHistoryQuerySchema = pageQuerySchema(PAGE_SIZES.scanHistory).strict();

const scanIdSchema = (field: 'from' | 'to') => z.uuid({ message: `${field}: must be a scan id` });

/**
 * GET /project/{id}/scans/diff: `to` defaults to the latest completed scan, `from` to the completed scan before `to`.
 * Both must be completed scans of the project.
 */
export const scanDiffQuerySchema = z
  .object({ from: scanIdSchema('from').optional(), to: scanIdSchema('to').optional() })
  .strict()
  .refine((query) => query.from === undefined || query.from !== query.to, { message: 'from and to must be two different scans', path: ['to'] });

/** A finding in a diff: enough to name it and find it in the scan's report. */
export const diffFindingSchema = findingSchema.pick({ fingerprint: true, checkId: true, title: true, severity: true, url: true, detail: true });
export type DiffFinding = z.infer<typeof diffFindingSchema>;

/** Findings listed per kind of change; the counts say how many there are in all. */
export const DIFF_LISTED = 200;

/** What changed from one scan to another. `from` is null when `to` is the project's first completed scan (all of it is new). */
export const scanDiffSchema = z.object({
  from: scanHistoryItemSchema.nullable(),
  to: scanHistoryItemSchema,
  counts: z.object({ new: z.number().int().nonnegative(), fixed: z.number().int().nonnegative(), unchanged: z.number().int().nonnegative() }),
  /** In `to`, not in `from` (most severe first, at most DIFF_LISTED). */
  new: z.array(diffFindingSchema).max(DIFF_LISTED),
  /** In `from`, gone in `to`. */
  fixed: z.array(diffFindingSchema).max(DIFF_LISTED),
  /** In both. */
  unchanged: z.array(diffFindingSchema).max(DIFF_LISTED),
});
export type ScanDiffResponse = z.infer<typeof scanDiffSchema>;

/** The texts of a diff, shared by every place that says what changed. */
export const SCAN_HISTORY_TEXTS = {
  notFound: 'Scan not found',
  notCompleted: (field: 'from' | 'to') => `${field}: the scan has no results yet (only completed scans can be compared)`,
  noCompleted: 'This project has no completed scan yet',
  sinceTitle: 'Since the previous scan',
} as const;

/** 'N new, N fixed' (a report's 'Since the previous scan'). */
export function changeSummary({ new: added, fixed }: { new: number; fixed: number }): string {
  return `${added.toLocaleString('en-US')} new, ${fixed.toLocaleString('en-US')} fixed`;
}

/**
 * The first line of a re-scan's notice, leading with what is new: '2 new findings since the last scan',
 * 'No new findings since the last scan (1 fixed)'. Null for a first scan (nothing to compare with).
 */
export function changeHeadline(change: { new: number; fixed: number } | null): string | null {
  if (!change) return null;
  const fixed = change.fixed > 0 ? ` (${change.fixed.toLocaleString('en-US')} fixed)` : '';
  if (change.new === 0) return `No new findings since the last scan${fixed}`;
  return `${plural(change.new, 'new finding')} since the last scan${fixed}`;
}
