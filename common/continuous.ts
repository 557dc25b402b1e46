import { z } from 'zod';

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

/** The answer to a report: a new build when the hash changed, else nothing new. */
export const continuousReportAnswerSchema = z.union([z.object({ build_id: z.string(), changed: z.literal(true) }), z.object({ changed: z.literal(false) })]);

export const CONTINUOUS_BUILD_STATUSES = ['success', 'warning', 'error', 'other'] as const;

/** A continuous build event (spec: id, build_hash, status, url, timestamp), with its project. */
export const continuousBuildSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  build_hash: z.string(),
  status: z.enum(CONTINUOUS_BUILD_STATUSES),
  url: z.string(),
  timestamp: z.string(),
});
export type ContinuousBuild = z.infer<typeof continuousBuildSchema>;

/** POST /project/{id}/site_token: the project's new site token (the old one stops being accepted). */
export const siteTokenSchema = z.object({ site_token: z.string() });

export const CONTINUOUS_BUILDS_PAGE = { fallback: 50, max: 200 } as const;

/** Reports accepted per site token and hour: a busy site's many visitors, not one per visit. */
export const CONTINUOUS_REPORTS_PER_HOUR = 30;
