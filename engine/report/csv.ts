import type { ScanResult } from '../../common/scan';
import { cweLabel, owaspLabel, sortFindings } from './format';

export const CSV_COLUMNS = ['severity', 'title', 'check id', 'url', 'detail', 'match', 'cwe', 'owasp', 'remediation', 'fingerprint'] as const;

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

/** One row per finding (most severe first), with a header row; CRLF line ends (RFC 4180). */
export function renderCsv(result: ScanResult): string {
  const rows: string[][] = [[...CSV_COLUMNS]];
  for (const f of sortFindings(result.findings)) {
    rows.push([
      f.severity,
      f.title,
      f.checkId,
      f.url,
      f.detail,
      f.evidence.match ?? '',
      cweLabel(f.cwe),
      owaspLabel(f.owasp),
      f.remediation,
      f.fingerprint,
    ]);
  }
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
