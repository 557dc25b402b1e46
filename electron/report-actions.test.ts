import { describe, expect, it, vi } from 'vitest';
import { ensurePdfExtension, pdfFileName, reportMenuItems, saveReportAsPdf } from './report-actions';

describe('pdfFileName', () => {
  it('turns the report title into a safe .pdf name', () => {
    expect(pdfFileName('Security report: shop.example/checkout')).toBe('Security report shop.example checkout.pdf');
    expect(pdfFileName('..\u0000hidden')).toBe('hidden.pdf');
    expect(pdfFileName('  ')).toBe('vibeeval report.pdf');
    expect(pdfFileName('Report.PDF')).toBe('Report.PDF');
  });
});

describe('ensurePdfExtension', () => {
  it('adds .pdf only when missing', () => {
    expect(ensurePdfExtension('/tmp/report')).toBe('/tmp/report.pdf');
    expect(ensurePdfExtension('/tmp/report.txt')).toBe('/tmp/report.txt.pdf');
    expect(ensurePdfExtension('/tmp/report.pdf')).toBe('/tmp/report.pdf');
  });
});

describe('saveReportAsPdf', () => {
  const pdf = new Uint8Array([37, 80, 68, 70]);
  it('prints to the chosen path, enforcing .pdf', async () => {
    const choosePath = vi.fn(async () => '/home/me/report');
    const writeFile = vi.fn(async () => undefined);
    const saved = await saveReportAsPdf({ title: () => 'Weekly: site', choosePath, printToPdf: async () => pdf, writeFile });
    expect(choosePath).toHaveBeenCalledWith('Weekly site.pdf');
    expect(writeFile).toHaveBeenCalledWith('/home/me/report.pdf', pdf);
    expect(saved).toBe('/home/me/report.pdf');
  });

  it('writes and prints nothing when the dialog is cancelled', async () => {
    const printToPdf = vi.fn(async () => pdf);
    const writeFile = vi.fn(async () => undefined);
    expect(await saveReportAsPdf({ title: () => 'x', choosePath: async () => undefined, printToPdf, writeFile })).toBeNull();
    expect(printToPdf).not.toHaveBeenCalled();
    expect(writeFile).not.toHaveBeenCalled();
  });
});

describe('reportMenuItems', () => {
  it('offers Save as PDF and Open in Browser, each calling its action', () => {
    const saveAsPdf = vi.fn();
    const openInBrowser = vi.fn();
    const items = reportMenuItems({ saveAsPdf, openInBrowser });
    expect(items.map((item) => item.label)).toEqual(['Save as PDF…', 'Open in Browser']);
    items[1]?.click();
    expect(openInBrowser).toHaveBeenCalledTimes(1);
    expect(saveAsPdf).not.toHaveBeenCalled();
  });
});
