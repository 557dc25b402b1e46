import { afterEach, describe, expect, it, vi } from 'vitest';
import { findChromium } from '../browser';
import { PdfBrowserMissingError, renderPdf } from './pdf';
import { loadSampleResult } from './__fixtures__/load';

const lookup = findChromium();
if (lookup.path === null) console.log(`Skipping PDF rendering tests: ${lookup.reason}`);

/** Page objects in the file: '/Type /Page' not followed by 's' (that would be the /Pages tree). */
function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g)?.length ?? 0;
}

describe('renderPdf', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.skipIf(lookup.path === null)('prints the report to a multi-page A4 PDF', async () => {
    const pdf = await renderPdf(loadSampleResult());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-8).toString('latin1')).toContain('%%EOF');
    // Ten findings with evidence do not fit on one page.
    expect(pageCount(pdf)).toBeGreaterThan(2);
    // A4 is 595 x 842 points.
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox\s*\[\s*0 0 595(\.\d+)? 841\.\d+|\/MediaBox\s*\[\s*0 0 595(\.\d+)? 842/);
  });

  it('says a Chromium-family browser is needed, and how to point to one, when none is found', async () => {
    vi.stubEnv('VIBEEVAL_CHROMIUM', '/nonexistent/chromium');
    const error = await renderPdf(loadSampleResult()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfBrowserMissingError);
    expect((error as Error).message).toMatch(/Chromium-family browser/);
    expect((error as Error).message).toMatch(/VIBEEVAL_CHROMIUM/);
  });
});
