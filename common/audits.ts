import { z } from 'zod';
import { EVENT_KINDS, eventKindSchema } from './projects';

// Results of the performance, accessibility and analytics reports (the three beyond the security scan).
// The engine produces them, the server stores them as JSON and re-reads them with these schemas, the renderer shows them.

export const AUDIT_KINDS = ['performance', 'accessibility', 'analytics'] as const;
export const auditKindSchema = z.enum(AUDIT_KINDS);
export type AuditKind = z.infer<typeof auditKindSchema>;

/** Progress while an audit runs, in the shape of the report status's `progress`. */
export const auditProgressSchema = z.object({ done: z.number().int(), total: z.number().int(), message: z.string().optional() });
export type AuditProgress = z.infer<typeof auditProgressSchema>;

const ms = z.number().nonnegative();
const count = z.number().int().nonnegative();

// ---------------------------------------------------------------- performance

/** web-vitals' three ratings. */
export const RATINGS = ['good', 'needs-improvement', 'poor'] as const;
export const ratingSchema = z.enum(RATINGS);
export type Rating = z.infer<typeof ratingSchema>;

export const RATED_METRICS = ['lcp', 'fcp', 'cls', 'ttfb'] as const;
export type RatedMetric = (typeof RATED_METRICS)[number];

/** web.dev's thresholds (the 75th-percentile targets of Core Web Vitals): good at or below `good`, poor above `poor`. */
export const METRIC_THRESHOLDS: Record<RatedMetric, { good: number; poor: number; unit: 'ms' | '' }> = {
  lcp: { good: 2_500, poor: 4_000, unit: 'ms' },
  fcp: { good: 1_800, poor: 3_000, unit: 'ms' },
  cls: { good: 0.1, poor: 0.25, unit: '' },
  ttfb: { good: 800, poor: 1_800, unit: 'ms' },
};

export const METRIC_LABELS: Record<RatedMetric, string> = {
  lcp: 'Largest Contentful Paint',
  fcp: 'First Contentful Paint',
  cls: 'Cumulative Layout Shift',
  ttfb: 'Time to First Byte',
};

/** The rating of a value against web.dev's thresholds. */
export function rateMetric(metric: RatedMetric, value: number): Rating {
  const { good, poor } = METRIC_THRESHOLDS[metric];
  return value <= good ? 'good' : value <= poor ? 'needs-improvement' : 'poor';
}

export const perfRequestSchema = z.object({
  url: z.string(),
  resourceType: z.string(),
  status: z.number().int(),
  /** Bytes on the wire (headers + encoded body), as Chrome's Network.loadingFinished encodedDataLength reports them. */
  bytes: count,
});

export const pagePerformanceSchema = z.object({
  url: z.string(),
  /** The URL after redirects. */
  finalUrl: z.string(),
  /** Status of the main document; 0 when it did not load. */
  status: z.number().int(),
  /** Why the page could not be measured (then the metrics are null). */
  error: z.string().optional(),
  /** Navigation start to the first byte of the document (web-vitals' definition: includes redirects, DNS, connection). */
  ttfbMs: ms.nullable(),
  /** requestStart to responseStart: the server's own think time (Lighthouse's 'server response time'). */
  serverMs: ms.nullable(),
  fcpMs: ms.nullable(),
  lcpMs: ms.nullable(),
  /** What the largest contentful paint was (tag, id/class, image URL), for the report. */
  lcpElement: z.string().nullable(),
  /** Largest session window of layout shifts without recent input (web-vitals' CLS since 2021). */
  cls: z.number().nonnegative().nullable(),
  domContentLoadedMs: ms.nullable(),
  loadMs: ms.nullable(),
  transferBytes: count,
  requestCount: count,
  /** The five largest responses, by bytes on the wire. */
  largestRequests: z.array(perfRequestSchema),
  ratings: z.object({ lcp: ratingSchema.nullable(), fcp: ratingSchema.nullable(), cls: ratingSchema.nullable(), ttfb: ratingSchema.nullable() }),
});
export type PagePerformance = z.infer<typeof pagePerformanceSchema>;

export const metricSummarySchema = z.object({ median: z.number().nullable(), rating: ratingSchema.nullable(), poorPages: count });

export const performanceAuditSchema = z.object({
  kind: z.literal('performance'),
  schemaVersion: z.literal(1),
  engineVersion: z.string(),
  target: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: ms,
  browser: z.string(),
  /** How the pages were loaded (viewport, cache, throttling), for the report's method note. */
  profile: z.object({ width: z.number().int(), height: z.number().int(), cache: z.literal('disabled'), throttling: z.literal('none') }),
  pages: z.array(pagePerformanceSchema),
  summary: z.object({
    pagesMeasured: count,
    pagesFailed: count,
    lcp: metricSummarySchema,
    fcp: metricSummarySchema,
    cls: metricSummarySchema,
    ttfb: metricSummarySchema,
    medianTransferBytes: count.nullable(),
    medianRequestCount: count.nullable(),
    /** Number of (page, metric) pairs rated poor. */
    totalIssues: count,
  }),
  warnings: z.array(z.string()),
});
export type PerformanceAuditResult = z.infer<typeof performanceAuditSchema>;

// ---------------------------------------------------------------- accessibility

/** axe-core's impacts, most severe first. */
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
export const impactSchema = z.enum(IMPACTS);
export type Impact = z.infer<typeof impactSchema>;

export const impactCountsSchema = z.object({ critical: count, serious: count, moderate: count, minor: count });
export type ImpactCounts = z.infer<typeof impactCountsSchema>;

export const A11Y_LIMITS = { html: 300, failureSummary: 1_000, nodesPerViolation: 50 } as const;

export const violationNodeSchema = z.object({
  /** CSS selector of the element; frames and shadow roots joined as axe lists them. */
  target: z.string(),
  /** The element's outer HTML, at most 300 characters. */
  html: z.string().max(A11Y_LIMITS.html),
  failureSummary: z.string().max(A11Y_LIMITS.failureSummary),
  impact: impactSchema.nullable(),
});

export const violationSchema = z.object({
  id: z.string(),
  impact: impactSchema,
  help: z.string(),
  helpUrl: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  /** Elements concerned, at most 50 (nodeCount has the real number). */
  nodes: z.array(violationNodeSchema),
  nodeCount: count,
});
export type Violation = z.infer<typeof violationSchema>;

export const pageAccessibilitySchema = z.object({
  url: z.string(),
  finalUrl: z.string(),
  status: z.number().int(),
  error: z.string().optional(),
  violations: z.array(violationSchema),
  /** Violation nodes by impact. */
  counts: impactCountsSchema,
  /** Rules that passed and rules axe could not decide (to review by hand). */
  passes: count,
  incomplete: count,
});
export type PageAccessibility = z.infer<typeof pageAccessibilitySchema>;

export const accessibilityAuditSchema = z.object({
  kind: z.literal('accessibility'),
  schemaVersion: z.literal(1),
  engineVersion: z.string(),
  target: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: ms,
  browser: z.string(),
  axeVersion: z.string(),
  /** The axe-core tags run (WCAG 2.0/2.1 A and AA, best practices). */
  tags: z.array(z.string()),
  pages: z.array(pageAccessibilitySchema),
  summary: z.object({
    pagesAudited: count,
    pagesFailed: count,
    /** Violation nodes by impact, across pages. */
    byImpact: impactCountsSchema,
    /** Rules violated, across pages, most nodes first. */
    rules: z.array(z.object({ id: z.string(), impact: impactSchema, help: z.string(), pages: count, nodes: count })),
    /** Number of violation nodes. */
    totalIssues: count,
  }),
  warnings: z.array(z.string()),
});
export type AccessibilityAuditResult = z.infer<typeof accessibilityAuditSchema>;

// ---------------------------------------------------------------- analytics

export const ANALYTICS_LIMITS = { errors: 20, urls: 10, days: 366 } as const;

export const analyticsSchema = z.object({
  kind: z.literal('analytics'),
  schemaVersion: z.literal(1),
  /** The project's URL, for the cover, when known. */
  target: z.string().nullable(),
  generatedAt: z.string(),
  from: z.string(),
  to: z.string(),
  /** Events in the period. */
  total: count,
  /** Events outside the period or with an unreadable timestamp, left out. */
  ignored: count,
  /** Every kind, zero included; names that are no known kind count as 'other'. */
  byKind: z.record(eventKindSchema, count),
  /** The most recent error events, newest first. */
  errors: z.array(z.object({ id: z.string(), timestamp: z.string(), url: z.string(), description: z.string().nullable(), status: z.number().int().nullable() })),
  topUrls: z.array(z.object({ url: z.string(), count })),
  distinctUrls: count,
  /** One entry per UTC day from `from` to `to`, days without events included. */
  perDay: z.array(z.object({ day: z.string(), count, errors: count })),
  firstEvent: z.string().nullable(),
  lastEvent: z.string().nullable(),
  /** Error events in the period. */
  totalIssues: count,
});
export type AnalyticsResult = z.infer<typeof analyticsSchema>;

export { EVENT_KINDS };
