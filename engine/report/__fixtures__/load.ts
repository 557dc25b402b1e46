import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanResultSchema, type Finding, type ScanResult } from '../../../common/scan';

/** The sample scan result, parsed with the schema so a fixture that drifts from it fails loudly. */
export function loadSampleResult(): ScanResult {
  return scanResultSchema.parse(JSON.parse(readFileSync(join(__dirname, 'sample-result.json'), 'utf8')));
}

/** A finding whose every text is hostile, as a scanned site could make it. */
export function hostileFinding(overrides: Partial<Finding> = {}): Finding {
  return {
    fingerprint: 'deadbeefdeadbeef',
    checkId: 'disclosure-html-comment',
    family: 'disclosure',
    title: '<img src=x onerror=alert(1)> title',
    severity: 'high',
    confidence: 'low',
    cwe: 79,
    owasp: 'A05',
    url: 'https://evil.example/"><script>alert(2)</script>',
    detail: '</p><script>alert(3)</script><p>',
    evidence: {
      request: 'GET /<script>alert(4)</script> HTTP/1.1',
      response: '<html><script src="https://evil.example/x.js"></script></html>',
      match: '<script>alert(5)</script>',
    },
    remediation: '\'"><iframe src=javascript:alert(6)>',
    references: ['javascript:alert(7)', 'https://evil.example/ref"onmouseover="alert(8)'],
    ...overrides,
  };
}

/** A coverage with a backend that could not be checked, a page behind a login, a rate limit, and hostile texts. */
export function sampleCoverage(): NonNullable<ScanResult['coverage']> {
  return {
    checksSkipped: [{ checkId: 'secret-in-client', reason: 'stopped after 5 s of CPU time' }],
    fetched: { pages: 4, scripts: 12, scriptsFailed: 1 },
    rendering: { ran: true, pages: 3, singlePageApp: true },
    backends: {
      items: [
        {
          kind: 'supabase',
          target: 'https://abcdefghijklmnopqrst.supabase.co',
          checked: false,
          requests: 6,
          reason: 'every request failed (6 requests): abcdefghijklmnopqrst.supabase.co refused the connection',
        },
        { kind: 'api', target: 'https://api.evil.example/"><script>alert(9)</script>', checked: true, requests: 2 },
      ],
      more: 0,
    },
    loginRequired: { items: [{ url: 'https://example.com/dashboard?<b>x</b>', status: 302, redirectedTo: 'https://example.com/login' }], more: 4 },
    rateLimited: { items: [{ host: 'example.com', answers: 3 }], more: 0 },
  };
}

/** A strict RFC 4180 reader for the CSV tests: throws on a bare CR or LF outside quotes and on a last record without CRLF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      throw new Error(`bare line break at ${i}`);
    } else if (ch === '"') {
      throw new Error(`quote inside an unquoted field at ${i}`);
    } else {
      field += ch;
    }
  }
  if (field !== '' || row.length) throw new Error('last record lacks CRLF');
  return rows;
}
