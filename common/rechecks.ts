import { z } from 'zod';

/** 'Check again' on a finding: its check re-run against the site (engine/recheck.ts), in seconds. */
export const RECHECK_STATUSES = ['fixed', 'still_there', 'unknown'] as const;
export type RecheckStatus = (typeof RECHECK_STATUSES)[number];

/** POST /project/{id}/findings/{fingerprint}/recheck: what the check found now. */
export const recheckResponseSchema = z.object({
  fingerprint: z.string(),
  status: z.enum(RECHECK_STATUSES),
  /** Why the answer is 'unknown', in words; null otherwise. */
  reason: z.string().nullable(),
  checked_at: z.string(),
  duration_ms: z.number().int().nonnegative(),
});
export type RecheckResponse = z.infer<typeof recheckResponseSchema>;

/** The longest a check again may take before it is stopped (a full scan is the way for more). */
export const RECHECK_TIMEOUT_MS = 60_000;

export const RECHECK_TEXTS = {
  noScan: 'This project has no completed scan yet: run a test first.',
  findingNotFound: 'Finding not found in the latest scan of this project.',
  busy: 'A check of this project is already running. Try again once it has finished.',
  tooMany: 'Too many checks are running on this server. Try again in a moment.',
  timedOut: 'The check took longer than a minute and was stopped: run a new scan instead.',
  /** The project's activity: one line per check again. */
  event: (title: string, status: RecheckStatus) =>
    `Checked again: ${title}: ${status === 'fixed' ? 'fixed' : status === 'still_there' ? 'still there' : 'could not tell'}`,
} as const;
