import { z } from 'zod';
import { cursorSchema } from '../../common/pagination';
import { PAGE_SIZES } from '../../common/pagination';
import { PROJECT_LIMITS, projectUrlSchema } from '../../common/projects';
import { CHECK_FAMILIES, findingSchema, gradeSchema, scanCoverageSchema } from '../../common/scan';
import { scanHistoryItemSchema } from '../../common/scan-history';

// The public API's shapes (/v1), one source for validation, answers and the OpenAPI document (openapi.ts).

/** The deepest scan the API accepts: pages crawled, the same ceiling as a project's number of pages. */
export const MAX_DEPTH = PROJECT_LIMITS.maxPages;

export const v1PageQuerySchema = z
  .object({
    limit: z.coerce
      .number({ message: 'limit: must be a number' })
      .int('limit: must be a whole number')
      .min(1, 'limit: must be at least 1')
      .max(PAGE_SIZES.publicScans.max, `limit: cannot exceed ${PAGE_SIZES.publicScans.max}`)
      .default(PAGE_SIZES.publicScans.fallback)
      .describe('Items per page.'),
    cursor: cursorSchema.optional().describe('The `next_cursor` of the previous page (also sent as the X-Next-Cursor header).'),
  })
  .strict();

export const v1IdParamsSchema = z.object({ id: z.string().max(100).describe('The scan id.') });

/** Body fields that would carry a password: refused, so a password never travels in an API or MCP request. */
export const SECRET_BODY_FIELDS = ['password', 'passwords', 'accounts', 'credentials'] as const;
export const SECRET_BODY_MESSAGE = "Passwords are never sent in a request: store the test accounts in the project's Credentials and send its projectId to scan signed in.";

export const createV1ScanBodySchema = z
  .object({
    url: projectUrlSchema
      .optional()
      .describe('The site to scan (http or https). It must be reachable under the server’s address policy. Required without projectId; with it, it must be the project’s URL.'),
    projectId: z.string().max(100).optional().describe('Scan this project of the key’s workspace, signed in as the test accounts stored in its Credentials (if any).'),
    options: z
      .object({
        depth: z
          .number({ message: 'options.depth: must be a number' })
          .int('options.depth: must be a whole number')
          .min(1, 'options.depth: must be at least 1')
          .max(MAX_DEPTH, `options.depth: cannot exceed ${MAX_DEPTH}`)
          .optional()
          .describe(`Pages to crawl, 1 to ${MAX_DEPTH}; the project’s current setting (1 for a new project) when absent.`),
        include_screenshots: z
          .boolean({ message: 'options.include_screenshots: must be true or false' })
          .optional()
          .describe('Ask for page screenshots in the results. Scans do not capture screenshots yet, so `results.screenshots` is always null.'),
        active: z
          .boolean({ message: 'options.active: must be true or false' })
          .optional()
          .describe(
            'Active mode: also send the few probes that act on the site (a reflected marker, one throwaway sign-up where sign-up is open). On a shared server only for a domain the workspace has verified (400 otherwise); the project’s active mode when absent.',
          ),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((body) => body.url !== undefined || body.projectId !== undefined, { message: 'url or projectId is required' })
  .meta({
    examples: [{ url: 'https://my-app.lovable.app/', options: { depth: 5, include_screenshots: false } }, { projectId: '0b0f8c7e-3c55-4d51-9a34-2f1a4e7d5c10' }],
  });

export const V1_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;

const categorySchema = z.object({
  issues: z.number().int().nonnegative(),
  warnings: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative().describe('Checks of this family that ran and found nothing.'),
});

export const v1ResultsSchema = z
  .object({
    issues: z.number().int().nonnegative().describe('Findings to fix: severity critical, high or medium.'),
    warnings: z.number().int().nonnegative().describe('Findings worth a look: severity low. Informational findings count as neither.'),
    score: z.number().int().min(0).max(100).describe('0 to 100, higher is safer.'),
    grade: gradeSchema,
    categories: z.partialRecord(z.enum(CHECK_FAMILIES), categorySchema).describe('Per check family (headers, secrets, supabase, …): its issues, warnings and passed checks.'),
    findings: z.array(findingSchema).describe('Every finding with its evidence (secrets masked) and remediation.'),
    notes: z.array(z.string()).describe('What went wrong without stopping the scan (an unreachable sitemap, a failed probe).'),
    coverage: scanCoverageSchema
      .nullable()
      .describe(
        'What the scan could and could not check: pages and scripts fetched, pages rendered in a browser, the backends the app talks to and whether each could be checked, pages that need a login, hosts that rate limited the scan, checks skipped and why. ' +
          'No findings with gaps here does not mean a safe site. Null for scans stored before coverage was recorded.',
      ),
    screenshots: z.null().describe('Always null: scans do not capture screenshots yet, whatever include_screenshots says.'),
  })
  .describe('Null until the scan is completed.');

export const v1ScanSchema = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    project_id: z.string().uuid(),
    status: z.enum(V1_STATUSES).describe('pending (queued), in_progress, completed or failed.'),
    created_at: z.string().describe('When the scan was requested (ISO 8601, UTC).'),
    completed_at: z.string().nullable().describe('When it completed or failed.'),
    error: z.string().nullable().describe('Why a failed scan failed.'),
    results: v1ResultsSchema.nullable(),
  })
  .meta({
    examples: [
      {
        id: '5b0e5a4e-2f1c-4c36-9a51-0d5a3f1f7c11',
        url: 'https://my-app.lovable.app/',
        project_id: '0c9f3ad2-8f8e-4a44-a3c5-3b1fd1c2b0de',
        status: 'pending',
        created_at: '2026-11-24T12:00:00.000Z',
        completed_at: null,
        error: null,
        results: null,
      },
    ],
  });
export type V1Scan = z.infer<typeof v1ScanSchema>;

/** A scan in the list: everything but the results' findings. */
export const v1ScanListItemSchema = v1ScanSchema.omit({ results: true }).extend({
  score: z.number().int().nullable(),
  grade: gradeSchema.nullable(),
});

export const v1ScanListSchema = z.object({
  scans: z.array(v1ScanListItemSchema).describe('Newest first.'),
  total: z.number().int().nonnegative().describe('All scans of the account.'),
  next_cursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last page.'),
});

export const v1ProjectSchema = z.object({
  id: z.string().uuid(),
  url: z.string(),
  name: z.string().describe('The project’s name in the dashboard (its instructions’ title), else the site’s host name.'),
  created_at: z.string(),
  last_scan: z
    .object({
      id: z.string().uuid(),
      status: z.enum(V1_STATUSES),
      score: z.number().int().nullable(),
      grade: gradeSchema.nullable(),
      created_at: z.string(),
      completed_at: z.string().nullable(),
    })
    .nullable(),
});

export const v1ProjectListSchema = z.object({
  projects: z.array(v1ProjectSchema).describe('Newest first.'),
  next_cursor: z.string().nullable(),
});

export const detailSchema = z.object({ detail: z.string().describe('What went wrong, in a sentence.') });

/** GET /v1/projects/{id}/scans: a project's scans with what started each, and the next page's cursor (also in X-Next-Cursor). */
export const v1ScanHistorySchema = z.object({
  scans: z.array(scanHistoryItemSchema).describe('Newest first. `trigger`: manual (the dashboard), schedule (monitoring), site_change (continuous testing), api (/v1, MCP).'),
  next_cursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last page.'),
});
