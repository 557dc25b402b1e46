import { z } from 'zod';
import { MONITOR_FREQUENCIES } from './plans';
import { severitySchema } from './scan';

/** The monitoring script's report (POST /continuous-testing), sent from any site that embeds /latest.js. */
export const continuousReportBodySchema = z.object({
  site_token: z
    .string()
    .max(64, 'site_token is too long')
    .regex(/^vst_[A-Za-z0-9_-]{8,60}$/, 'site_token must look like vst_...'),
  hash: z.string().regex(/^[0-9a-f]{8}$/, 'hash must be 8 lowercase hex digits'),
  hostname: z.string().min(1, 'hostname is required').max(253, 'hostname is too long'),
});
export type ContinuousReportBody = z.infer<typeof continuousReportBodySchema>;

export const CONTINUOUS_BUILD_STATUSES = ['success', 'warning', 'error', 'other'] as const;

/** What made a build: the monitoring script saw new content, or the project's schedule came round. */
export const CONTINUOUS_BUILD_TRIGGERS = ['script', 'schedule'] as const;

/** Most new findings a build lists by name; the counts say how many there were in all. */
export const BUILD_CHANGES_LISTED = 20;

/**
 * What a build's re-scan found compared with the project's scan before it (by finding fingerprint). The status
 * follows from it: error when a high or critical finding is new or the site broke (the scan failed), warning when a
 * medium one is new, success otherwise.
 */
export const buildChangesSchema = z.object({
  /** The completed scan compared with; null for a project's first scan (then every finding counts as new). */
  previous_scan_id: z.string().nullable(),
  grade: z.string().nullable(),
  previous_grade: z.string().nullable(),
  new_findings: z.array(z.object({ fingerprint: z.string(), title: z.string().max(300), severity: severitySchema })).max(BUILD_CHANGES_LISTED),
  new_count: z.number().int().nonnegative(),
  fixed_count: z.number().int().nonnegative(),
  /** Why the site is taken to be broken (the scan's error), else null. */
  error: z.string().max(500).nullable(),
});
export type BuildChanges = z.infer<typeof buildChangesSchema>;

/**
 * A continuous build event (spec: id, build_hash, status, url, timestamp), with its project, what made it, the
 * re-scan that judges it and what that re-scan found new. Until the re-scan ends the status is 'other' and
 * finished_at and changes are null.
 */
export const continuousBuildSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  build_hash: z.string(),
  status: z.enum(CONTINUOUS_BUILD_STATUSES),
  url: z.string(),
  timestamp: z.string(),
  trigger: z.enum(CONTINUOUS_BUILD_TRIGGERS),
  scan_id: z.string().nullable(),
  changes: buildChangesSchema.nullable(),
  finished_at: z.string().nullable(),
});
export type ContinuousBuild = z.infer<typeof continuousBuildSchema>;

export { MONITOR_FREQUENCIES } from './plans';

/**
 * A project's scheduled re-scans: at `hour` (0–23) in `timezone` (IANA); weekly on `weekday` (0 = Sunday), monthly
 * on the first `weekday` of each month (the first Monday: a day that exists in every month, unlike the 31st).
 */
export const monitorScheduleSchema = z.object({
  frequency: z.enum(MONITOR_FREQUENCIES),
  hour: z.number().int('hour must be a whole number').min(0, 'hour must be between 0 and 23').max(23, 'hour must be between 0 and 23'),
  weekday: z.number().int('weekday must be a whole number').min(0, 'weekday must be between 0 (Sunday) and 6').max(6, 'weekday must be between 0 (Sunday) and 6'),
  timezone: z
    .string()
    .min(1, 'timezone is required')
    .max(64, 'timezone is too long')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'timezone must be an IANA time zone such as Europe/Berlin'),
});
export type MonitorSchedule = z.infer<typeof monitorScheduleSchema>;

/** Monitoring reports counted per user and calendar month (UTC) by the usage meter (spec: out of 1,000 per month). */
export const MONITORING_EVENTS_PER_MONTH = 1000;

/**
 * GET /project/{id}/monitoring: what the Overview tab shows for a project. PUT /project/{id}/monitoring takes a
 * monitorScheduleSchema body and answers this again.
 */
export const monitoringOverviewSchema = z.object({
  project_id: z.string(),
  url: z.string(),
  site_token: z.string(),
  /** The newest build, whose hash is the current one; null before the first. */
  current_build: continuousBuildSchema.nullable(),
  /** The project's newest completed scan. */
  last_scan: z.object({ id: z.string(), grade: z.string().nullable(), score: z.number().nullable(), finished_at: z.string().nullable() }).nullable(),
  schedule: monitorScheduleSchema,
  /** When the schedule makes its next build (ISO), null when off. */
  next_run_at: z.string().nullable(),
  /** The user's monitoring reports this calendar month (UTC), all projects together. */
  usage: z.object({ used: z.number().int().nonnegative(), limit: z.number().int().positive(), month: z.string() }),
});
export type MonitoringOverview = z.infer<typeof monitoringOverviewSchema>;

/** Texts of the continuous testing screen and its calls (spec sections 8 and 4). */
export const CONTINUOUS_TEXTS = {
  loadFailed: 'Failed to load continuous testing data. Please try again.',
  buildsFailed: 'Failed to load continuous builds',
} as const;

/** POST /project/{id}/site_token: the project's new site token (the old one stops being accepted). */
export const siteTokenSchema = z.object({ site_token: z.string() });

/** GET /continuous_builds is paginated; `project_id` narrows it to one of the user's projects. */
export const CONTINUOUS_BUILDS_PAGE = { fallback: 50, max: 200 } as const;

/** Reports accepted per site token and hour: a busy site's many visitors, not one per visit. */
export const CONTINUOUS_REPORTS_PER_HOUR = 30;
