import { z } from 'zod';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const lapseSchema = z
  .object({
    VIBEEVAL_JOB_HEARTBEAT_MS: positiveInt(10_000),
    VIBEEVAL_JOB_STALE_AFTER_SECONDS: positiveInt(45),
    VIBEEVAL_JOB_REAP_EVERY_MS: positiveInt(15_000),
  })
  // A live job must never look orphaned: several heartbeats fit in the lapse.
  .refine((env) => env.VIBEEVAL_JOB_STALE_AFTER_SECONDS * 1_000 >= 3 * env.VIBEEVAL_JOB_HEARTBEAT_MS, {
    message: 'VIBEEVAL_JOB_STALE_AFTER_SECONDS must be at least three heartbeats (VIBEEVAL_JOB_HEARTBEAT_MS)',
  });

export interface JobLapse {
  /** How often a running scan, public scan or scenario run says it is alive. */
  heartbeatMs: number;
  /** A running job whose heartbeat is older than this is taken to be orphaned (its worker died) and is taken over. */
  staleAfterSeconds: number;
  /** How often each working process looks for orphaned or forgotten jobs. */
  reapEveryMs: number;
}

/** Reads the lapse from the environment (defaults: 10 s heartbeats, 45 s lapse, a look every 15 s). */
export function readJobLapse(env: NodeJS.ProcessEnv): JobLapse {
  const parsed = lapseSchema.safeParse(env);
  if (!parsed.success) throw new Error(`${parsed.error.issues[0]?.path.join('.') || 'job lapse'}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const values = parsed.data;
  return { heartbeatMs: values.VIBEEVAL_JOB_HEARTBEAT_MS, staleAfterSeconds: values.VIBEEVAL_JOB_STALE_AFTER_SECONDS, reapEveryMs: values.VIBEEVAL_JOB_REAP_EVERY_MS };
}

/**
 * This process's lapse. Read once at start from the environment rather than from the config object: the jobs'
 * modules use it as constants (tests of worker loss shorten it; a deployment has no reason to).
 */
export const JOB_LAPSE: JobLapse = readJobLapse(process.env);
