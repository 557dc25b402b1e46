import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, coverageLines, csvField, defuseFormula, renderCsv } from './csv';
import { hostileFinding, loadSampleResult, parseCsv, sampleCoverage } from './__fixtures__/load';

describe('renderCsv', () => {
  const sample = loadSampleResult();

  it('writes a header and one row per finding, most severe first, with CRLF line ends', () => {
    const csv = renderCsv(sample);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(sample.findings.length + 1);
    expect(rows.every((r) => r.length === CSV_COLUMNS.length)).toBe(true);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['critical', 'critical', 'high', 'high', 'medium', 'medium', 'medium', 'low', 'low', 'info']);
    // parseCsv throws on a bare CR or LF outside quotes and on a last record without CRLF.
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('keeps each field intact: commas, quotes and line breaks survive a round trip', () => {
    const rows = parseCsv(renderCsv(sample));
    const env = sample.findings.find((f) => f.checkId === 'exposed-env-file')!;
    const row = rows.find((r) => r[2] === 'exposed-env-file')!;
    expect(row).toEqual([
      'critical',
      env.title,
      'exposed-env-file',
      env.url,
      env.detail,
      env.evidence.match,
      'CWE-538',
      'A02:2025 Security Misconfiguration',
      env.remediation,
      env.fingerprint,
      '',
      '',
      '',
    ]);
    const comment = rows.find((r) => r[2] === 'disclosure-html-comment')!;
    expect(comment[5]).toContain('"Sp••••••"');
  });

  it('quotes only fields that need it', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it.each([
    ['=HYPERLINK("https://evil.example","click")', `'=HYPERLINK("https://evil.example","click")`],
    ['+1+cmd|" /C calc"!A0', `'+1+cmd|" /C calc"!A0`],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\r=1+1"],
    ['safe = text', 'safe = text'],
  ])('defuses spreadsheet formulas: %j', (input, expected) => {
    expect(defuseFormula(input)).toBe(expected);
  });

  it('defuses formulas coming from a scanned site in every column', () => {
    const result = {
      ...sample,
      findings: [hostileFinding({ title: '=cmd|"/C calc"!A0', url: '+https://x', detail: '-1', evidence: { match: '@import' }, remediation: '=1' })],
    };
    const row = parseCsv(renderCsv(result))[1]!;
    expect(row[1]).toBe(`'=cmd|"/C calc"!A0`);
    expect(row[3]).toBe("'+https://x");
    expect(row[4]).toBe("'-1");
    expect(row[5]).toBe("'@import");
    expect(row[8]).toBe("'=1");
    for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('puts the coverage in comment lines before the header, each one field starting with #', () => {
    const csv = renderCsv({ ...sample, coverage: sampleCoverage() });
    const rows = parseCsv(csv);
    const lines = coverageLines({ ...sample, coverage: sampleCoverage() });
    expect(lines[0]).toBe('# Coverage: 4 pages and 12 scripts (1 without an answer) fetched; 3 pages rendered in a browser; 2 backends found  1 checked; 1 check skipped');
    expect(lines.some((line) => line.startsWith('# Not checked: The Supabase project https://abcdefghijklmnopqrst.supabase.co could not be checked'))).toBe(true);
    expect(lines).toContain(
      '# Backend: Supabase project https://abcdefghijklmnopqrst.supabase.co: not checked (every request failed (6 requests): abcdefghijklmnopqrst.supabase.co refused the connection)',
    );
    expect(rows.slice(0, lines.length)).toEqual(lines.map((line) => [line]));
    expect(rows[lines.length]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(lines.length + 1 + sample.findings.length);
    // A hostile backend origin cannot add a field or a row.
    for (const line of lines) expect(line).not.toMatch(/[",\r\n]/);
  });

  it('writes only the header when there are no findings', () => {
    expect(renderCsv({ ...sample, findings: [] })).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
  });
});
