import { describe, expect, it } from 'vitest';
import { findChromium } from '../browser';
import { formatFromFileName, isReportFormat, renderReport, REPORT_FORMATS, REPORT_MEDIA, reportFileName } from './index';
import { loadSampleResult } from './__fixtures__/load';

describe('renderReport', () => {
  const sample = loadSampleResult();

  it.each(['json', 'html', 'csv', 'sarif'] as const)('renders %s as text', async (format) => {
    const output = await renderReport(sample, format);
    expect(typeof output).toBe('string');
    expect((output as string).length).toBeGreaterThan(1000);
  });

  const chromium = findChromium();
  if (chromium.path === null) console.warn(`PDF rendering test skipped: ${chromium.reason}`);
  it.skipIf(chromium.path === null)('renders pdf as a Buffer', async () => {
    const output = await renderReport(sample, 'pdf');
    expect(Buffer.isBuffer(output)).toBe(true);
    expect((output as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('knows the content type and extension of every format', () => {
    expect(REPORT_FORMATS).toEqual(['html', 'pdf', 'csv', 'json', 'sarif']);
    for (const format of REPORT_FORMATS) {
      expect(REPORT_MEDIA[format].extension).toBe(`.${format}`);
      expect(REPORT_MEDIA[format].contentType).toMatch(/^[a-z]+\/[a-z+.-]+/);
    }
    expect(REPORT_MEDIA.sarif.contentType).toMatch(/^application\/sarif\+json/);
    expect(REPORT_MEDIA.pdf.contentType).toBe('application/pdf');
  });

  it('tells the format from a file name', () => {
    expect(formatFromFileName('out/report.HTML')).toBe('html');
    expect(formatFromFileName('report.htm')).toBe('html');
    expect(formatFromFileName('results.sarif')).toBe('sarif');
    expect(formatFromFileName('results.sarif.json')).toBe('sarif');
    expect(formatFromFileName('results.json')).toBe('json');
    expect(formatFromFileName('a.csv')).toBe('csv');
    expect(formatFromFileName('a.pdf')).toBe('pdf');
    expect(formatFromFileName('report.txt')).toBeNull();
    expect(isReportFormat('sarif')).toBe(true);
    expect(isReportFormat('xml')).toBe(false);
  });

  it('names downloads after the site and the day', () => {
    expect(reportFileName(sample, 'pdf')).toBe('vibeeval-vibeshop.example.com-2025-11-20.pdf');
  });
});
