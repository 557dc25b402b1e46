import { z } from 'zod';
import { plural } from './plural';
import { MAX_SCAN_ACCOUNTS, SIGN_IN_METHODS } from './scan-accounts';
import { decisionKindSchema } from './triage';

/** Finding severities, most severe first. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;

/** How sure a check is that a finding is real (ZAP's confidence levels). */
export const confidenceSchema = z.enum(['high', 'medium', 'low']);
export type Confidence = z.infer<typeof confidenceSchema>;

/** OWASP Top 10 2025 categories. */
export const OWASP_2025 = {
  A01: 'A01:2025 Broken Access Control',
  A02: 'A02:2025 Security Misconfiguration',
  A03: 'A03:2025 Software Supply Chain Failures',
  A04: 'A04:2025 Cryptographic Failures',
  A05: 'A05:2025 Injection',
  A06: 'A06:2025 Insecure Design',
  A07: 'A07:2025 Authentication Failures',
  A08: 'A08:2025 Software or Data Integrity Failures',
  A09: 'A09:2025 Security Logging and Alerting Failures',
  A10: 'A10:2025 Mishandling of Exceptional Conditions',
} as const;
export const owaspSchema = z.enum(Object.keys(OWASP_2025) as [keyof typeof OWASP_2025, ...(keyof typeof OWASP_2025)[]]);
export type OwaspCategory = z.infer<typeof owaspSchema>;

/** Families group checks in reports and the registry. */
export const CHECK_FAMILIES = [
  'transport',
  'headers',
  'cookies',
  'cors',
  'disclosure',
  'exposed-files',
  'secrets',
  'supabase',
  'firebase',
  'api',
  'tokens',
  'frameworks',
  'libraries',
  'forms',
  'active',
] as const;
export const checkFamilySchema = z.enum(CHECK_FAMILIES);
export type CheckFamily = z.infer<typeof checkFamilySchema>;

/** Grades of the Mozilla HTTP Observatory chart, best first. */
export const GRADES = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'F'] as const;
export const gradeSchema = z.enum(GRADES);
export type Grade = z.infer<typeof gradeSchema>;

/** Proof of a finding: what was asked, what came back, and the part that matters (secrets masked). */
export const evidenceSchema = z.object({
  request: z.string().max(4_000).optional(),
  response: z.string().max(8_000).optional(),
  match: z.string().max(2_000).optional(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const findingSchema = z.object({
  /** Stable across scans of the same site: check id + location + the thing found. */
  fingerprint: z.string().regex(/^[0-9a-f]{16,64}$/),
  checkId: z.string(),
  family: checkFamilySchema,
  title: z.string(),
  severity: severitySchema,
  confidence: confidenceSchema,
  cwe: z.number().int().positive().nullable(),
  owasp: owaspSchema,
  url: z.string(),
  /** What was found on this site, in a sentence or two. */
  detail: z.string(),
  evidence: evidenceSchema,
  remediation: z.string(),
  references: z.array(z.string()),
});
export type Finding = z.infer<typeof findingSchema>;

/** A finding a person decided about (common/triage.ts): out of the score and counts, listed with the reason. */
export const suppressedFindingSchema = findingSchema.extend({
  suppression: z.object({ decision: decisionKindSchema, reason: z.string(), expires_at: z.string().nullable().optional() }),
});
export type SuppressedFinding = z.infer<typeof suppressedFindingSchema>;

/** A check that ran and found nothing: the spec's 'secure components'. */
export const passedCheckSchema = z.object({
  checkId: z.string(),
  family: checkFamilySchema,
  title: z.string(),
});
export type PassedCheck = z.infer<typeof passedCheckSchema>;

/** One of the ten tests of the HTTP Observatory, as scored for this site. */
export const observatoryTestSchema = z.object({
  test: z.string(),
  pass: z.boolean(),
  result: z.string(),
  scoreModifier: z.number().int(),
  description: z.string(),
});
export type ObservatoryTest = z.infer<typeof observatoryTestSchema>;

export const severityCountsSchema = z.object({
  critical: z.number().int().nonnegative(),
  high: z.number().int().nonnegative(),
  medium: z.number().int().nonnegative(),
  low: z.number().int().nonnegative(),
  info: z.number().int().nonnegative(),
});
export type SeverityCounts = z.infer<typeof severityCountsSchema>;

export const scannedPageSchema = z.object({
  url: z.string(),
  status: z.number().int(),
  title: z.string().optional(),
  contentType: z.string().optional(),
  depth: z.number().int().nonnegative(),
  /** Where the crawler learnt of the page. */
  source: z.enum(['start', 'link', 'sitemap', 'robots', 'render']),
});

export const scanOptionsSchema = z.object({
  maxPages: z.number().int().min(1).max(10_000).default(10),
  render: z.boolean().default(true),
  active: z.boolean().default(false),
  /**
   * Unset (the default): adaptive pacing, at most 4 requests in flight per host, fewer when the host answers 429/503,
   * Retry-After or slows down, no fixed rate. N > 0: the same with a hard ceiling of N requests per second per host.
   * 0: no limit (as many in flight as the scanner allows; still backs off on 429), for one's own local servers.
   */
  rateLimit: z.number().min(0).optional(),
  timeoutMs: z.number().int().min(100).default(15_000),
});
export type ScanOptions = z.infer<typeof scanOptionsSchema>;

/** Every free-form list in a scan's coverage keeps at most this many entries; `more` counts the rest. */
export const COVERAGE_LIST_LIMIT = 50;

/** A list cut at COVERAGE_LIST_LIMIT entries, with the number left out. */
function cappedList<T extends z.ZodTypeAny>(item: T) {
  return z.object({ items: z.array(item).max(COVERAGE_LIST_LIMIT), more: z.number().int().nonnegative() });
}

export const coverageBackendSchema = z.object({
  kind: z.enum(['supabase', 'firebase', 'api']),
  /** The project URL, the Firebase project id or database URL, or the API origin. */
  target: z.string(),
  /** True when at least one request the scan sent to it was answered. */
  checked: z.boolean(),
  /** Requests the scan sent to it (probes), answered or not. */
  requests: z.number().int().nonnegative(),
  /** Why it could not be checked (a DNS or connection error, no key found), or what limited the check. */
  reason: z.string().optional(),
});
export type CoverageBackend = z.infer<typeof coverageBackendSchema>;

export const scanCoverageSchema = z.object({
  /** Checks stopped over their time budget, or whose worker died, and so neither passed nor failed. */
  checksSkipped: z.array(z.object({ checkId: z.string(), reason: z.string() })),
  // The fields below were added later: optional so earlier results still parse.
  /** Pages fetched over HTTP, and scripts fetched (and how many of those got no answer). */
  fetched: z.object({ pages: z.number().int().nonnegative(), scripts: z.number().int().nonnegative(), scriptsFailed: z.number().int().nonnegative() }).optional(),
  /** Whether a browser rendered the pages, how many, why not, and whether the site looks like a single-page app. */
  rendering: z.object({ ran: z.boolean(), pages: z.number().int().nonnegative(), reason: z.string().optional(), singlePageApp: z.boolean() }).optional(),
  /** Backends the app talks to (Supabase, Firebase, API origins) and whether each could be checked. */
  backends: cappedList(coverageBackendSchema).optional(),
  /** Pages that answered 401/403 or redirected to a login page, and so were not checked signed in. */
  loginRequired: cappedList(z.object({ url: z.string(), status: z.number().int(), redirectedTo: z.string().optional() })).optional(),
  /** Hosts that asked the scan to slow down (429, 503, Retry-After), with how many answers did. */
  rateLimited: cappedList(z.object({ host: z.string(), answers: z.number().int().nonnegative() })).optional(),
  /** Signed-in scans: how each test account's sign-in went (the account's login only, never its password). */
  signIns: z
    .array(
      z.object({
        account: z.string().max(320),
        signedIn: z.boolean(),
        method: z.enum(SIGN_IN_METHODS).optional(),
        /** Why the sign-in failed, or what limited it, in one sentence. */
        reason: z.string().max(500).optional(),
        /** Active scans: the account the scan created itself by signing up (named so the owner can delete it). */
        throwaway: z.boolean().optional(),
      }),
    )
    // The given accounts, and an active scan's throwaway account.
    .max(MAX_SCAN_ACCOUNTS + 1)
    .optional(),
});
export type ScanCoverage = z.infer<typeof scanCoverageSchema>;

export const scanResultSchema = z.object({
  schemaVersion: z.literal(1),
  engineVersion: z.string(),
  target: z.object({ url: z.string(), finalUrl: z.string() }),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().int().nonnegative(),
  options: scanOptionsSchema,
  pages: z.array(scannedPageSchema),
  rendering: z.object({
    status: z.enum(['done', 'skipped', 'failed']),
    reason: z.string().optional(),
    browser: z.string().optional(),
  }),
  /** Overall score 0-100 and grade, from the findings (see engine/score). */
  score: z.number().int().min(0).max(100),
  grade: gradeSchema,
  /** The HTTP Observatory-compatible header score of the start page. */
  headers: z.object({
    score: z.number().int(),
    grade: gradeSchema,
    tests: z.array(observatoryTestSchema),
  }),
  counts: severityCountsSchema,
  passed: z.array(passedCheckSchema),
  findings: z.array(findingSchema),
  /**
   * Findings marked as false positive or accepted risk (engine/triage.ts): left out of findings, score, grade and
   * counts, and listed here with the decision. Absent when the scan had no decisions to apply.
   */
  suppressed: z.array(suppressedFindingSchema).optional(),
  /** Things that went wrong without stopping the scan (an unreachable sitemap, a failed probe). */
  warnings: z.array(z.string()),
  /** What was and was not checked, and why (optional: results stored before it was recorded have none). */
  coverage: scanCoverageSchema.optional(),
  stats: z.object({ requests: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() }),
});
export type ScanResult = z.infer<typeof scanResultSchema>;

/** Progress reported while a scan runs (the CLI's display, the server's live stream). */
export const scanProgressSchema = z.object({
  phase: z.enum(['crawl', 'render', 'probe', 'check', 'done']),
  pagesDone: z.number().int().nonnegative(),
  pagesTotal: z.number().int().nonnegative(),
  checksRun: z.number().int().nonnegative(),
  checksTotal: z.number().int().nonnegative(),
  findings: z.number().int().nonnegative(),
  message: z.string().optional(),
});
export type ScanProgress = z.infer<typeof scanProgressSchema>;

export const SEVERITY_RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/**
 * The one vocabulary for a scan's findings, the public API's (GET /v1/scans/{id}) and every screen's: an issue is a
 * finding to fix (critical, high or medium), a warning one worth a look (low); informational findings are neither.
 */
export function findingKind(severity: Severity): 'issue' | 'warning' | null {
  const rank = SEVERITY_RANK[severity];
  return rank >= SEVERITY_RANK.medium ? 'issue' : rank === SEVERITY_RANK.low ? 'warning' : null;
}

export interface FindingTally {
  issues: number;
  warnings: number;
}

/** A scan's issues and warnings from its counts by severity. */
export function findingTally(counts: Partial<SeverityCounts>): FindingTally {
  const tally = { issues: 0, warnings: 0 };
  for (const severity of SEVERITIES) {
    const kind = findingKind(severity);
    if (kind) tally[kind === 'issue' ? 'issues' : 'warnings'] += counts[severity] ?? 0;
  }
  return tally;
}

/** The tally in words: 'No issues', '4 issues, 6 warnings', 'No issues, 1 warning'. */
export function tallyText({ issues, warnings }: FindingTally): string {
  const head = issues === 0 ? 'No issues' : plural(issues, 'issue');
  return warnings === 0 ? head : `${head}, ${plural(warnings, 'warning')}`;
}
