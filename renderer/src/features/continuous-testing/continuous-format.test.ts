import type { BuildChanges } from '@common/continuous';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/http';
import { buildsCallError, changeSummary, chooseProjectId, hourLabel, nextScriptSnippet, scriptTag, usageMeter } from './continuous-format';

const changes = (over: Partial<BuildChanges>): BuildChanges => ({
  previous_scan_id: 's0',
  grade: 'B',
  previous_grade: 'A',
  new_findings: [],
  new_count: 0,
  fixed_count: 0,
  error: null,
  ...over,
});

describe('usageMeter', () => {
  it('shows the share used with the count out of the monthly allowance', () => {
    expect(usageMeter({ used: 250, limit: 1000, month: '2026-11' })).toEqual({ percent: 25, label: '250 of 1,000 events', exhausted: false });
  });
  it('caps the bar at 100 % when the month is over its allowance, and says so', () => {
    expect(usageMeter({ used: 1534, limit: 1000, month: '2026-11' })).toEqual({ percent: 100, label: '1,534 of 1,000 events', exhausted: true });
    expect(usageMeter({ used: 1000, limit: 1000, month: '2026-11' }).exhausted).toBe(true);
  });
  it('keeps one decimal for a small share, so a first event still moves the bar', () => {
    expect(usageMeter({ used: 1, limit: 1000, month: '2026-11' }).percent).toBe(0.1);
    expect(usageMeter({ used: 0, limit: 1000, month: '2026-11' }).percent).toBe(0);
  });
});

describe('scriptTag', () => {
  it('loads /latest.js from the API origin with the site token, async', () => {
    expect(scriptTag('http://127.0.0.1:8787/', 'vst_abcdefgh12')).toBe('<script src="http://127.0.0.1:8787/latest.js" data-site="vst_abcdefgh12" async></script>');
  });
  it('escapes what would break out of the attribute', () => {
    expect(scriptTag('https://a.example', 'x"><img src=y>')).toBe('<script src="https://a.example/latest.js" data-site="x&quot;&gt;&lt;img src=y&gt;" async></script>');
  });
  it('has a next/script form for Next.js layouts', () => {
    expect(nextScriptSnippet('https://api.example//', 'vst_abcdefgh12')).toContain(
      '<Script src="https://api.example/latest.js" data-site="vst_abcdefgh12" strategy="afterInteractive" />',
    );
  });
});

describe('changeSummary', () => {
  it('is pending until the re-scan judges the build', () => {
    expect(changeSummary({ changes: null })).toEqual({ kind: 'pending' });
  });
  it('gives the error when the site broke', () => {
    expect(changeSummary({ changes: changes({ error: 'net::ERR_CONNECTION_REFUSED' }) })).toEqual({ kind: 'broken', reason: 'net::ERR_CONNECTION_REFUSED' });
  });
  it('counts new and fixed findings and lists the named ones, with how many are not listed', () => {
    const listed = [{ fingerprint: 'f1', title: 'Supabase table readable', severity: 'high' as const }];
    expect(changeSummary({ changes: changes({ new_findings: listed, new_count: 3, fixed_count: 2 }) })).toEqual({
      kind: 'changes',
      headline: '3 new findings, 2 fixed',
      findings: listed,
      unlisted: 2,
    });
    expect(changeSummary({ changes: changes({ new_count: 1, new_findings: listed }) })).toMatchObject({ headline: '1 new finding', unlisted: 0 });
  });
  it('says nothing is new when nothing changed', () => {
    expect(changeSummary({ changes: changes({}) })).toMatchObject({ kind: 'changes', headline: 'Nothing new', findings: [] });
  });
});

describe('buildsCallError', () => {
  it("reads 'Failed to fetch continuous builds: {status} - {text}'", () => {
    expect(buildsCallError(new ApiError(500, 'Internal Server Error'))).toBe('Failed to fetch continuous builds: 500 - Internal Server Error');
    expect(buildsCallError(new TypeError('Failed to fetch'))).toBe('Failed to fetch continuous builds: Failed to fetch');
  });
});

describe('chooseProjectId and hourLabel', () => {
  it('takes ?project= when given, else the first project, else none', () => {
    expect(chooseProjectId('p2', ['p1', 'p2'])).toBe('p2');
    expect(chooseProjectId(null, ['p1', 'p2'])).toBe('p1');
    expect(chooseProjectId(null, [])).toBeNull();
  });
  it('names hours on a 12-hour clock', () => {
    expect([0, 1, 11, 12, 13, 23].map(hourLabel)).toEqual(['12 AM', '1 AM', '11 AM', '12 PM', '1 PM', '11 PM']);
  });
});
