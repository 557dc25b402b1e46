import type { ScanResult } from '../../common/scan';
import { backendLabel, coverageFacts, coverageGaps } from '../../common/scan-coverage';
import { DECISION_LABELS } from '../../common/triage';
import type { Finding, SuppressedFinding } from '../../common/scan';
import { baselineState, changesLine, type ReportChanges } from './changes';
import { cweLabel, owaspLabel, sortFindings, suppressedHeading } from './format';

/**
 * `decision` and `reason` are empty for an open finding; a suppressed one has its decision and the reason given.
 * `change`: against the project's previous scan, 'new' or 'unchanged', and 'fixed' on the rows of the findings gone
 * since (after the others); empty when there is no previous scan to compare with.
 */
export const CSV_COLUMNS = ['severity', 'title', 'check id', 'url', 'detail', 'match', 'cwe', 'owasp', 'remediation', 'fingerprint', 'decision', 'reason', 'change'] as const;

/**
 * Neutralises spreadsheet formulas: a cell starting with = + - @ tab or CR is prefixed with a quote, as OWASP's
 * "CSV Injection" page advises, because scanned sites control titles, URLs and evidence.
 */
export function defuseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
export function csvField(value: string): string {
  const safe = defuseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The coverage as lines before the column header, each one field starting with '#' (comment lines for readers that
 * skip them, a one-cell row for those that do not): what was checked, then each thing that could not be.
 */
export function coverageLines(result: ScanResult): string[] {
  const coverage = result.coverage;
  if (!coverage) return [];
  // Commas, quotes and line breaks would split or quote the line; site-controlled text must keep it one field.
  const line = (text: string) => `# ${text}`.replace(/[",\r\n]+/g, ' ');
  const lines = [line(`Coverage: ${coverageFacts(coverage) || 'nothing recorded'}`)];
  for (const gap of coverageGaps(coverage)) lines.push(line(`Not checked: ${gap}`));
  for (const backend of coverage.backends?.items ?? []) {
    lines.push(line(`Backend: ${backendLabel(backend)}: ${backend.checked ? 'checked' : 'not checked'}${backend.reason ? ` (${backend.reason})` : ''}`));
  }
  for (const signIn of coverage.signIns ?? []) {
    lines.push(
      line(
        `Sign-in: ${signIn.account}: ${signIn.signedIn ? `signed in${signIn.method ? ` (${signIn.method})` : ''}` : 'not signed in'}${signIn.reason ? ` (${signIn.reason})` : ''}`,
      ),
    );
  }
  return lines;
}

function findingRow(f: Finding, change: string, decision = '', reason = ''): string[] {
  return [f.severity, f.title, f.checkId, f.url, f.detail, f.evidence.match ?? '', cweLabel(f.cwe), owaspLabel(f.owasp), f.remediation, f.fingerprint, decision, reason, change];
}

/**
 * Coverage lines, then one row per finding (most severe first) under a header row, then the suppressed findings
 * (announced by a comment line above the header) with their decision and reason; CRLF line ends (RFC 4180).
 * `changes`: what changed since the project's previous scan, a comment line above the header and each row's
 * `change`, then a row per finding fixed since (as the previous scan found it).
 */
export function renderCsv(result: ScanResult, changes?: ReportChanges): string {
  const suppressed: SuppressedFinding[] = result.suppressed ?? [];
  const notes = [...coverageLines(result), ...(changes ? [`# ${changesLine(changes)}`] : []), ...(suppressed.length ? [`# ${suppressedHeading(suppressed.length)}`] : [])];
  const change = (f: Finding) => (changes ? baselineState(f, changes) : '');
  const rows: string[][] = [...notes.map((line) => [line]), [...CSV_COLUMNS]];
  for (const f of sortFindings(result.findings)) rows.push(findingRow(f, change(f)));
  for (const f of sortFindings(suppressed)) rows.push(findingRow(f, change(f), DECISION_LABELS[f.suppression.decision], f.suppression.reason));
  for (const f of sortFindings(changes?.fixed ?? [])) rows.push(findingRow(f, 'fixed'));
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
