import { z } from 'zod';

// Triage: a person's decision about one finding of a project, kept by the finding's fingerprint (stable across scans:
// check id, URL and the thing found), so it carries over to every later scan until it expires or the finding changes
// (a changed finding has another fingerprint). Decided findings leave the score, the grade and the counts, and show
// in reports in their own section. The baseline is the same decisions as a file, for `vibeeval scan --baseline`.

export const DECISIONS = ['false_positive', 'accepted_risk'] as const;
export const decisionKindSchema = z.enum(DECISIONS);
export type DecisionKind = z.infer<typeof decisionKindSchema>;

/** Words for each decision, as reports and screens show them. */
export const DECISION_LABELS: Record<DecisionKind, string> = { false_positive: 'False positive', accepted_risk: 'Accepted risk' };

export const MAX_REASON_CHARS = 1000;
/** Decisions one project may hold: a bound on storage and on the baseline, far above any real triage. */
export const MAX_DECISIONS_PER_PROJECT = 1000;

export const TRIAGE_TEXTS = {
  decisionInvalid: 'decision: must be false_positive or accepted_risk',
  reasonRequired: 'reason is required',
  reasonTooLong: `reason cannot exceed ${MAX_REASON_CHARS} characters`,
  expiryInvalid: 'expires_at: must be a date such as 2027-01-31',
  expiryPast: 'expires_at: must be in the future',
  expiryOnlyForRisk: 'expires_at: only an accepted risk expires',
  fingerprintInvalid: 'fingerprint: must be a finding fingerprint (16 to 64 hexadecimal characters)',
  notFound: 'Decision not found',
  tooMany: `A project can hold at most ${MAX_DECISIONS_PER_PROJECT} decisions; reopen some to add more.`,
} as const;

export const fingerprintSchema = z.string({ message: 'fingerprint is required' }).regex(/^[0-9a-f]{16,64}$/, TRIAGE_TEXTS.fingerprintInvalid);

/** A date (`2027-01-31`, the end of that day in UTC) or a date and time with a zone; the instant, as ISO text. */
export function parseExpiry(value: string): string | null {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (!dateOnly && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const at = new Date(dateOnly ? `${value}T23:59:59.999Z` : value);
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 2000 || at.getUTCFullYear() > 9999) return null;
  // Date parsing rolls 2027-02-30 over to March: such a date is refused, not moved.
  if (dateOnly && at.toISOString().slice(0, 10) !== value) return null;
  return at.toISOString();
}

const reasonSchema = z.string({ message: TRIAGE_TEXTS.reasonRequired }).trim().min(1, TRIAGE_TEXTS.reasonRequired).max(MAX_REASON_CHARS, TRIAGE_TEXTS.reasonTooLong);

const expirySchema = z
  .string({ message: TRIAGE_TEXTS.expiryInvalid })
  .max(40, TRIAGE_TEXTS.expiryInvalid)
  .refine((value) => parseExpiry(value) !== null, TRIAGE_TEXTS.expiryInvalid)
  .transform((value) => parseExpiry(value)!);

/** The fields of a decision, as a request body and as a baseline entry (without the past check, which is the server's). */
const decisionFields = {
  decision: z.enum(DECISIONS, { message: TRIAGE_TEXTS.decisionInvalid }),
  reason: reasonSchema,
  expires_at: expirySchema.nullish(),
};

const onlyRiskExpires = (body: { decision: DecisionKind; expires_at?: string | null }) => body.decision === 'accepted_risk' || !body.expires_at;

/** PUT .../decisions/{fingerprint}: mark a finding as a false positive or an accepted risk. */
export const decisionBodySchema = z
  .object(decisionFields)
  .strict()
  .refine(onlyRiskExpires, { message: TRIAGE_TEXTS.expiryOnlyForRisk, path: ['expires_at'] })
  .refine((body) => !body.expires_at || Date.parse(body.expires_at) > Date.now(), { message: TRIAGE_TEXTS.expiryPast, path: ['expires_at'] });
export type DecisionBody = z.input<typeof decisionBodySchema>;

/** A decision as the API returns it. */
export const decisionSchema = z.object({
  fingerprint: z.string(),
  decision: decisionKindSchema,
  reason: z.string(),
  /** Accepted risk only: when the decision stops applying (the finding counts again). */
  expires_at: z.string().nullable(),
  /** The member who decided, and their address where this server knows it. */
  decided_by: z.object({ id: z.string(), email: z.string().nullable() }),
  decided_at: z.string(),
  /** False once expires_at has passed: kept for the record, no longer applied. */
  active: z.boolean(),
});
export type Decision = z.infer<typeof decisionSchema>;

/** One entry of a baseline file (GET .../baseline, `vibeeval scan --baseline`). */
export const baselineEntrySchema = z
  .object({ fingerprint: fingerprintSchema, ...decisionFields })
  .strict()
  .refine(onlyRiskExpires, { message: TRIAGE_TEXTS.expiryOnlyForRisk, path: ['expires_at'] });
/** A baseline entry as the API exports it. */
export const baselineEntryOutputSchema = z.object({ fingerprint: z.string(), decision: decisionKindSchema, reason: z.string(), expires_at: z.string().nullable() });
export type BaselineEntry = z.infer<typeof baselineEntryOutputSchema>;

/**
 * Reads a baseline file's text; a fault names the entry (counted from 1) and what is wrong with it, as in
 * 'baseline entry 3: reason is required'.
 */
export function parseBaseline(text: string): { ok: true; entries: BaselineEntry[] } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `the baseline is not JSON (${(error as Error).message})` };
  }
  if (!Array.isArray(json)) return { ok: false, message: 'the baseline must be a JSON array of decisions, as GET /v1/projects/{id}/baseline exports it' };
  if (json.length > MAX_DECISIONS_PER_PROJECT) return { ok: false, message: `the baseline holds ${json.length} entries; at most ${MAX_DECISIONS_PER_PROJECT} are read` };
  const entries: BaselineEntry[] = [];
  const seen = new Map<string, number>();
  for (const [index, raw] of json.entries()) {
    const parsed = baselineEntrySchema.safeParse(raw);
    if (!parsed.success) return { ok: false, message: `baseline entry ${index + 1}: ${entryProblem(parsed.error.issues[0]!)}` };
    const { fingerprint, decision, reason, expires_at } = parsed.data;
    const earlier = seen.get(fingerprint);
    if (earlier !== undefined) return { ok: false, message: `baseline entry ${index + 1}: fingerprint ${fingerprint} is already decided in entry ${earlier}` };
    seen.set(fingerprint, index + 1);
    entries.push({ fingerprint, decision, reason, expires_at: expires_at ?? null });
  }
  return { ok: true, entries };
}

function entryProblem(issue: z.core.$ZodIssue): string {
  if (issue.path.length === 0) {
    if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
    if (issue.code === 'invalid_type') return 'must be an object with fingerprint, decision and reason';
  }
  return issue.message;
}

/** What the engine needs of a decision: which finding, what was decided and why. */
export interface Suppression {
  fingerprint: string;
  decision: DecisionKind;
  reason: string;
  expires_at?: string | null;
}

/** The decisions still in force at `now` (an accepted risk past its expiry counts again). */
export function activeSuppressions<T extends Suppression>(decisions: readonly T[], now = Date.now()): T[] {
  return decisions.filter((decision) => !decision.expires_at || Date.parse(decision.expires_at) > now);
}
