import { OWASP_2025, SEVERITIES, SEVERITY_RANK, type Finding, type OwaspCategory, type ScanResult, type Severity } from '../../common/scan';

/** Product name as it appears in every report. */
export const PRODUCT_NAME = 'vibeeval';
export const PRODUCT_URL = 'https://vibe-eval.com';

/** Report labels per severity; 'Critical' and 'Medium Risk' are the spec's words. */
export const SEVERITY_LABELS: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High Risk',
  medium: 'Medium Risk',
  low: 'Low Risk',
  info: 'Info',
};

/** The heading of the section of decided findings in every report. */
export const suppressedHeading = (count: number) => `Suppressed: ${count}, with reasons`;

/** The spec's words for the passed-checks row. */
export const PASSED_LABEL = 'Passed';
export const SECURE_ROW_TITLE = 'Application Configuration Secure';

/** Findings, most severe first; then by check and URL so every export lists them in the same order. */
export function sortFindings<T extends Finding>(findings: readonly T[]): T[] {
  return [...findings].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.checkId.localeCompare(b.checkId) || a.url.localeCompare(b.url));
}

/** Findings grouped by severity, in SEVERITIES order, empty groups left out. */
export function groupBySeverity(findings: readonly Finding[]): Array<{ severity: Severity; findings: Finding[] }> {
  const sorted = sortFindings(findings);
  return SEVERITIES.map((severity) => ({ severity, findings: sorted.filter((f) => f.severity === severity) })).filter((group) => group.findings.length > 0);
}

export function owaspLabel(category: OwaspCategory): string {
  return OWASP_2025[category];
}

export function cweLabel(cwe: number | null): string {
  return cwe === null ? '' : `CWE-${cwe}`;
}

export function cweUrl(cwe: number): string {
  return `https://cwe.mitre.org/data/definitions/${cwe}.html`;
}

/** True for absolute http(s) URLs: the only ones a report turns into links. */
export function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '20 Nov 2025, 14:02 UTC': fixed format in UTC so a report reads the same on every machine. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** '850 ms', '43.4 s', '2 min 05 s'. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Counts recomputed from the findings: exports never disagree with the list they show. */
export function countBySeverity(result: ScanResult): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const finding of result.findings) counts[finding.severity]++;
  return counts;
}

/** Host of the scanned site, for titles and file names. */
export function targetHost(result: ScanResult): string {
  for (const candidate of [result.target.finalUrl, result.target.url]) {
    try {
      return new URL(candidate).host;
    } catch {
      // not a URL: try the next one, then fall back to the raw text
    }
  }
  return result.target.url;
}
