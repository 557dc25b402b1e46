import { z } from 'zod';
import { continuousBuildSchema } from './continuous';
import { PAGE_SIZES, pageQuerySchema } from './pagination';
import { parseScanAccounts } from './scan-accounts';
import { normaliseSiteUrl } from './site-url';
import { findingSchema, gradeSchema, scanProgressSchema, scanResultSchema, severityCountsSchema } from './scan';
import { scenarioRunSchema } from './scenarios';

// The product API's bodies and answers for projects, scans, events and reports (spec sections 3, 5, 7 and 9).
// The server validates with these schemas and the renderer's forms use the same ones.

export const PROJECT_STATUSES = ['active', 'completed', 'archived'] as const;
export const PROJECT_LIMITS = { name: 50, description: 500, instructions: 1000, secretInstructions: 1000, maxPages: 1000 } as const;

/** A URL the product can scan (http or https with a host; `https://` added when none is typed), in its one stored form. */
export const projectUrlSchema = z
  .string()
  .trim()
  .refine((value) => normaliseSiteUrl(value) !== null, 'Please enter a valid URL')
  .transform((value) => normaliseSiteUrl(value)!);

/**
 * The Credentials field: at most 1000 characters holding one or two test accounts, one per line (`email password`,
 * `email / password`, or `Email:` / `Password:` lines). A message names the line, never a password.
 */
export const secretInstructionSchema = z
  .string()
  .max(PROJECT_LIMITS.secretInstructions, 'Secret instructions cannot exceed 1000 characters')
  .superRefine((value, context) => {
    if (!value.trim()) return;
    const parsed = parseScanAccounts(value, 'field');
    if (!parsed.ok) context.addIssue({ code: 'custom', message: `Credentials ${parsed.message}` });
  });

/** The 'Create New Project' dialog (spec section 5). */
export const createProjectFormSchema = z.object({
  name: z.string().trim().min(1, 'Project name is required').max(PROJECT_LIMITS.name, 'Project name cannot exceed 50 characters'),
  description: z.string().max(PROJECT_LIMITS.description, 'Description cannot exceed 500 characters').optional().default(''),
  url: projectUrlSchema,
  instruction_text: z.string().max(PROJECT_LIMITS.instructions, 'Instructions cannot exceed 1000 characters').optional().default(''),
  secret_instruction: secretInstructionSchema.optional().default(''),
});
export type CreateProjectForm = z.input<typeof createProjectFormSchema>;

/** Number of Pages: an integer of at least 1; a non-number becomes 1 (spec section 5). */
export function toPageCount(value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseInt(value, 10) : Number.NaN;
  if (!Number.isFinite(number)) return 1;
  return Math.min(PROJECT_LIMITS.maxPages, Math.max(1, Math.trunc(number)));
}

const pagesSchema = z
  .number()
  .int('Number of pages must be a whole number')
  .min(1, 'Number of pages must be at least 1')
  .max(PROJECT_LIMITS.maxPages, 'Number of pages cannot exceed 1000');
const statusSchema = z.string().trim().min(1, 'Status is required').max(40, 'Status cannot exceed 40 characters');

/** POST /project (the create call sends only these fields). */
export const createProjectBodySchema = z.object({
  url: projectUrlSchema,
  status: statusSchema.default('active'),
  instruction_text: z.string().max(PROJECT_LIMITS.instructions, 'Instructions cannot exceed 1000 characters').nullish(),
  secret_instruction: secretInstructionSchema.nullish(),
  num_pages: pagesSchema.default(1),
});

/** The create call's body from the dialog's values: an empty instruction text takes the name. */
export function createBodyFromForm(form: z.output<typeof createProjectFormSchema>): z.output<typeof createProjectBodySchema> {
  return {
    url: form.url,
    status: 'active',
    instruction_text: form.instruction_text.trim() ? form.instruction_text : form.name,
    secret_instruction: form.secret_instruction || null,
    num_pages: 1,
  };
}

/** PATCH /project/{id}: any of these. */
export const updateProjectBodySchema = z
  .object({
    instruction_text: z.string().max(PROJECT_LIMITS.instructions, 'Instructions cannot exceed 1000 characters').nullable(),
    secret_instruction: secretInstructionSchema.nullable(),
    url: projectUrlSchema,
    status: statusSchema,
    num_pages: pagesSchema,
    // PostgreSQL has no year 0: a time before year 1 (in UTC) could not be stored.
    last_test: z.iso
      .datetime({ offset: true })
      .refine((value) => new Date(value).getUTCFullYear() >= 1, 'last_test: must be in year 1 or later')
      .nullable(),
    /** Active mode: scans may send the few probes that act (on a shared server only on a verified domain). */
    active_mode: z.boolean({ message: 'active_mode: must be true or false' }),
    /** The member confirms having permission to test the site (the terms require it); recorded once, with the time. */
    permission_confirmed: z.literal(true, { message: 'permission_confirmed: can only be true' }),
  })
  .partial()
  .strict();
export type UpdateProjectBody = z.input<typeof updateProjectBodySchema>;

export const SCAN_STATES = ['queued', 'running', 'completed', 'failed'] as const;

/** The project's latest scan, as the dashboard shows it. */
export const scanSummarySchema = z.object({
  id: z.string(),
  state: z.enum(SCAN_STATES),
  queued_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  progress: scanProgressSchema.nullable(),
  score: z.number().int().nullable(),
  grade: gradeSchema.nullable(),
  header_grade: gradeSchema.nullable(),
  counts: severityCountsSchema.nullable(),
  error: z.string().nullable(),
  report_id: z.string().nullable(),
});
export type ScanSummary = z.infer<typeof scanSummarySchema>;

/** A project as the API returns it (spec section 3), plus its latest scan. */
export const projectSchema = z.object({
  id: z.string(),
  url: z.string(),
  status: z.string(),
  instruction_text: z.string().nullable(),
  secret_instruction: z.string().nullable(),
  num_pages: z.number().int(),
  creation_date: z.string(),
  last_test: z.string().nullable(),
  latest_scan: scanSummarySchema.nullable(),
  /** The monitoring script's data-site value; in GET /project/{id} only (rotated by POST /project/{id}/site_token). */
  site_token: z.string().optional(),
  /** In GET /project/{id} only: the project's active mode, and when a member confirmed permission to test the site. */
  active_mode: z.boolean().optional(),
  permission_confirmed_at: z.string().nullable().optional(),
});
export type Project = z.infer<typeof projectSchema>;

/** GET /project/{id}/scan: the latest scan in full, and what changed since the one before. */
export const projectScanResponseSchema = z.object({
  scan: scanSummarySchema.nullable(),
  result: scanResultSchema.nullable(),
  /** Fingerprints of findings the previous completed scan did not have (empty on a first scan). */
  new_fingerprints: z.array(z.string()),
  /** Findings of the previous completed scan that are gone now. */
  fixed: z.array(findingSchema),
  previous_scan_id: z.string().nullable(),
});
export type ProjectScanResponse = z.infer<typeof projectScanResponseSchema>;

/** PATCH /project_test/{id} answer: the message the client toasts. */
export const runTestResponseSchema = z.object({ message: z.string(), scan_id: z.string() });

export const EVENT_KINDS = ['page_view', 'form_submit', 'button_click', 'error', 'api_call', 'other'] as const;
export const eventKindSchema = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof eventKindSchema>;

/**
 * Who made an event happen, read from what each record already holds: `site` is the site and its project's own
 * activity (created, scanned, reported, built), `scan` the requests the scanner itself made while scanning (kept
 * with the scan's attempt), `scenario` what a scenario run's browser did. `all` lists every source.
 */
export const EVENT_SOURCES = ['site', 'scan', 'scenario'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];
/** Sources listed when a query names none: the scanner's own requests stay in the scan's record. */
export const DEFAULT_EVENT_SOURCES: readonly EventSource[] = ['site', 'scenario'];

/** Something that happened, recorded as it happened (spec section 3). */
export const eventSchema = z.object({
  id: z.string(),
  event_name: z.string(),
  url: z.string(),
  timestamp: z.string(),
  extra: z
    .object({
      description: z.string().optional(),
      project_id: z.string().optional(),
      scan_id: z.string().optional(),
      status: z.number().int().optional(),
      severity: z.string().optional(),
    })
    .passthrough()
    .nullable()
    .optional(),
  /** Beyond the spec: who made it happen (see EVENT_SOURCES). */
  source: z.enum(EVENT_SOURCES).optional(),
});
export type ProjectEvent = z.infer<typeof eventSchema>;

// `2026-11-28` or a full ISO timestamp; a bare date `to` covers the whole day (UTC).
const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
function dateBound(field: 'from' | 'to') {
  return z
    .string()
    .regex(DATE_OR_TIME, `${field}: must be a date (YYYY-MM-DD) or an ISO 8601 time`)
    .transform((text, context) => {
      const at = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
      // Engines roll 2026-02-31 over into March: a real date reads back as written.
      if (Number.isNaN(at.getTime()) || (text.length === 10 && at.toISOString().slice(0, 10) !== text)) {
        context.addIssue({ code: 'custom', message: `${field}: is not a real date` });
        return z.NEVER;
      }
      return field === 'to' && text.length === 10 ? new Date(at.getTime() + 24 * 3600 * 1000) : at;
    });
}

/** The Events filters (beyond the spec): type, project, source and a time range, each optional. */
const eventFilterFields = {
  type: z.enum(EVENT_KINDS, { message: `type: must be one of ${EVENT_KINDS.join(', ')}` }).optional(),
  project: z.uuid({ message: 'project: must be a project id' }).optional(),
  source: z.enum([...EVENT_SOURCES, 'all'], { message: `source: must be one of ${[...EVENT_SOURCES, 'all'].join(', ')}` }).optional(),
  /** From this time on (inclusive). */
  from: dateBound('from').optional(),
  /** Before this time (exclusive); a bare date includes that whole day. */
  to: dateBound('to').optional(),
};
const rangeInOrder = (query: { from?: Date; to?: Date }) => !query.from || !query.to || query.from < query.to;
const RANGE_MESSAGE = { message: 'to: must be after from', path: ['to'] };

export const eventFiltersSchema = z.object(eventFilterFields).refine(rangeInOrder, RANGE_MESSAGE);
export type EventFilters = z.output<typeof eventFiltersSchema>;

/**
 * GET /events/recent and GET /events/project/{id}: `?limit=` (default 30, spec: limit=30) and `?cursor=`, and the
 * filters `type`, `project`, `source` (default: all but the scanner's own requests), `from` and `to`.
 */
export const eventsQuerySchema = pageQuerySchema(PAGE_SIZES.events).extend(eventFilterFields).refine(rangeInOrder, RANGE_MESSAGE);

/** GET /report_links/recent items (spec section 3). */
export const reportLinkSchema = z.object({
  id: z.string(),
  url: z.string(),
  created_at: z.string(),
  total_issues: z.number().int().nullable(),
  report_url: z.string(),
  /** Beyond the spec: a security report's warnings beside its issues (the public API's split, `findingTally`); null for the audits. */
  warnings: z.number().int().nullable().default(null),
  /** Beyond the spec: which of the four report types it is, and for which project. */
  type: z.enum(['security', 'performance', 'accessibility', 'analytics']),
  project_id: z.string().nullable(),
});
export type ReportLink = z.infer<typeof reportLinkSchema>;

export const REPORT_TYPES = ['security', 'performance', 'accessibility', 'analytics'] as const;
export const reportTypeSchema = z.enum(REPORT_TYPES);
export type ReportType = z.infer<typeof reportTypeSchema>;

/** POST /reports: generate one of the four report types for a project. */
export const generateReportBodySchema = z.object({ project_id: z.string().uuid('Choose a project'), type: reportTypeSchema });
export type GenerateReportBody = z.infer<typeof generateReportBodySchema>;

export const REPORT_STATES = ['queued', 'running', 'completed', 'failed'] as const;

/** GET /reports/{id}: a report's state, and its links once done. */
export const reportStatusSchema = z.object({
  id: z.string(),
  type: reportTypeSchema,
  project_id: z.string().nullable(),
  url: z.string(),
  state: z.enum(REPORT_STATES),
  progress: z.object({ done: z.number().int(), total: z.number().int(), message: z.string().optional() }).nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  total_issues: z.number().int().nullable(),
  /** A security report's warnings beside its issues; null for the audits and until the scan is done. */
  warnings: z.number().int().nullable().default(null),
  /** Signed, expiring URL of the HTML report (no bearer token needed). */
  report_url: z.string().nullable(),
  /** The viewer page with exports: /report-preview?signed_url=... */
  preview_url: z.string().nullable(),
});
export type ReportStatus = z.infer<typeof reportStatusSchema>;

export { EXPORT_FORMATS } from './plans';

/** Messages of the live stream (GET /live, server-sent events), one per `event:` name. */
export const liveMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('scan.progress'), project_id: z.string(), scan_id: z.string(), progress: scanProgressSchema }),
  z.object({ type: z.literal('scan.state'), project_id: z.string(), scan_id: z.string(), scan: scanSummarySchema }),
  z.object({ type: z.literal('event'), project_id: z.string().nullable(), event: eventSchema }),
  z.object({ type: z.literal('report.state'), report: reportStatusSchema }),
  /** A scenario run changed state (queued, running, passed, failed). */
  z.object({ type: z.literal('scenario.run'), scenario_id: z.string(), run: scenarioRunSchema }),
  /** A continuous build was made (status 'other') or judged by its re-scan (success, warning, error). */
  z.object({ type: z.literal('continuous.build'), build: continuousBuildSchema }),
]);
export type LiveMessage = z.infer<typeof liveMessageSchema>;

/** POST /live/ticket: a short-lived ticket for EventSource, which cannot send an Authorization header. */
export const liveTicketSchema = z.object({ ticket: z.string(), expires_in: z.number().int() });
