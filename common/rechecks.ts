import { z } from 'zod';
import { PAGE_SIZES, pageQuerySchema } from './pagination';

/** 'Check again' on a finding: its check re-run against the site (engine/recheck.ts), in seconds. */
export const RECHECK_STATUSES = ['fixed', 'still_there', 'unknown'] as const;
export type RecheckStatus = (typeof RECHECK_STATUSES)[number];

/** A check again runs as a job: queued, running, then completed (with its answer) or failed (with the error). */
export const RECHECK_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type RecheckState = (typeof RECHECK_STATES)[number];

/** Texts kept in a check again's row are cut to these lengths (the database refuses longer). */
export const RECHECK_LIMITS = { title: 300, url: 2048, reason: 500, error: 500 } as const;

/**
 * A check again of one finding of a project: POST /project/{id}/findings/{fingerprint}/recheck answers it (202) at
 * once, queued; GET /project/{id}/rechecks/{recheckId} says how it went; GET /project/{id}/rechecks lists them.
 */
export const recheckSchema = z.object({
  id: z.string(),
  fingerprint: z.string(),
  /** The finding's title and page, as the scan that found it had them. */
  title: z.string(),
  url: z.string(),
  state: z.enum(RECHECK_STATES),
  /** What the check found now, once completed; null before (and when it failed). */
  status: z.enum(RECHECK_STATUSES).nullable(),
  /** Why the answer is 'unknown', in words; null otherwise. */
  reason: z.string().nullable(),
  /** Why a failed check again could not answer; null otherwise. */
  error: z.string().nullable(),
  created_at: z.string(),
  /** When it finished; null while queued or running. */
  checked_at: z.string().nullable(),
  duration_ms: z.number().int().nonnegative().nullable(),
});
export type Recheck = z.infer<typeof recheckSchema>;
// The POST's answer is a check again too: the one queued, or this finding's already queued or running.

/** GET /project/{id}/rechecks: the project's finished checks again, newest first, paginated. */
export const rechecksQuerySchema = pageQuerySchema(PAGE_SIZES.rechecks).strict();

export const isRecheckFinished = (state: RecheckState | undefined) => state === 'completed' || state === 'failed';

/** The longest a check again may take before it is stopped (a full scan is the way for more). */
export const RECHECK_TIMEOUT_MS = 60_000;

export const RECHECK_TEXTS = {
  noScan: 'This project has no completed scan yet: run a test first.',
  findingNotFound: 'Finding not found in the latest scan of this project.',
  notFound: 'Check not found',
  timedOut: 'The check took longer than a minute and was stopped: run a new scan instead.',
  /** The project's activity: one line per check again. */
  event: (title: string, status: RecheckStatus) => `Checked again: ${title}: ${status === 'fixed' ? 'fixed' : status === 'still_there' ? 'still there' : 'could not tell'}`,
} as const;
