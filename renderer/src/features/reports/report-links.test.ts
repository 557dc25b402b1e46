import { describe, expect, it } from 'vitest';
import { absoluteReportUrl, exportUrlFor, isReportFinished, issuesLabel, previewUrlFor, progressMessage, progressFromScan, progressPercent } from './report-links';

const SERVER = 'http://127.0.0.1:8787';
const VIEW = `${SERVER}/reports/0b7c/view?exp=1760000000&sig=a-b_c`;

describe('report links', () => {
  it('builds the preview URL with the signed URL as signed_url', () => {
    const preview = previewUrlFor(`${SERVER}/`, VIEW);
    expect(preview).toBe(`${SERVER}/report-preview?signed_url=${encodeURIComponent(VIEW)}`);
    expect(new URL(preview).searchParams.get('signed_url')).toBe(VIEW);
  });

  it('derives export links from the view link', () => {
    expect(exportUrlFor(VIEW, 'pdf')).toBe(`${SERVER}/reports/0b7c/export/pdf?exp=1760000000&sig=a-b_c`);
    expect(exportUrlFor(VIEW, 'sarif')).toBe(`${SERVER}/reports/0b7c/export/sarif?exp=1760000000&sig=a-b_c`);
    expect(exportUrlFor(`${SERVER}/somewhere/else`, 'csv')).toBeNull();
    expect(exportUrlFor('not a url', 'csv')).toBeNull();
  });

  it('reads report URLs against the server origin and refuses other schemes', () => {
    expect(absoluteReportUrl(SERVER, '/reports/1/view?exp=1&sig=x')).toBe(`${SERVER}/reports/1/view?exp=1&sig=x`);
    expect(absoluteReportUrl(SERVER, VIEW)).toBe(VIEW);
    expect(absoluteReportUrl(SERVER, 'javascript:alert(1)')).toBeNull();
  });
});

describe('report progress', () => {
  it('computes a percentage, or null while the total is unknown', () => {
    expect(progressPercent({ done: 1, total: 4 })).toBe(25);
    expect(progressPercent({ done: 5, total: 4 })).toBe(100);
    expect(progressPercent({ done: 0, total: 0 })).toBeNull();
    expect(progressPercent(null)).toBeNull();
  });

  it('says what is happening', () => {
    expect(progressMessage({ state: 'running', progress: { done: 1, total: 3, message: 'Checking headers' } })).toBe('Checking headers');
    expect(progressMessage({ state: 'queued', progress: null })).toBe('Waiting for a worker...');
    expect(progressMessage({ state: 'running', progress: null })).toBe('Generating the report...');
  });

  it('knows when a report is finished', () => {
    expect(isReportFinished({ state: 'completed' })).toBe(true);
    expect(isReportFinished({ state: 'failed' })).toBe(true);
    expect(isReportFinished({ state: 'running' })).toBe(false);
    expect(isReportFinished(undefined)).toBe(false);
  });

  it('labels issue counts', () => {
    expect(issuesLabel(null)).toBe('—');
    expect(issuesLabel(0)).toBe('No issues');
    expect(issuesLabel(1)).toBe('1 issue');
    expect(issuesLabel(12)).toBe('12 issues');
  });

  it("labels a security report's issues and warnings with the public API's words and split", () => {
    expect(issuesLabel(4, 6)).toBe('4 issues, 6 warnings');
    expect(issuesLabel(1, 1)).toBe('1 issue, 1 warning');
    expect(issuesLabel(0, 2)).toBe('No issues, 2 warnings');
    expect(issuesLabel(3, 0)).toBe('3 issues');
  });
});

describe('progressFromScan', () => {
  const scan = { pagesDone: 2, pagesTotal: 3, checksRun: 10, checksTotal: 40, findings: 1 };
  it('counts pages while crawling and checks afterwards', () => {
    expect(progressFromScan({ ...scan, phase: 'crawl' })).toEqual({ done: 2, total: 3, message: 'Crawling pages' });
    expect(progressFromScan({ ...scan, phase: 'check', message: 'headers' })).toEqual({ done: 10, total: 40, message: 'headers' });
  });
});
