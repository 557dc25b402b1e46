import type { ScanResult } from '../../common/scan';
import { findChromium, launchChromium } from '../browser';
import { PRODUCT_NAME, formatDate, targetHost } from './format';
import { html } from '../html-kit';
import { renderHtml } from './html';
import type { ReportChanges } from './changes';

export interface PdfOptions {
  /** Browser executable; undefined = VIBEEVAL_CHROMIUM or auto-detect. */
  chromiumPath?: string;
}

/** Thrown when no Chromium-family browser is available to print the PDF. */
export class PdfBrowserMissingError extends Error {
  constructor(reason: string) {
    super(
      `PDF export needs a Chromium-family browser (Chromium, Google Chrome or Microsoft Edge): ${reason}. ` +
        'Install one, or set VIBEEVAL_CHROMIUM to the path of its executable.',
    );
    this.name = 'PdfBrowserMissingError';
  }
}

function footerTemplate(text: string): string {
  // Header and footer templates are rendered without the page's CSS and need an explicit font size.
  return html`<div style="width:100%;font-size:8px;color:#64748b;padding:0 12mm;display:flex;justify-content:space-between;font-family:Arial,sans-serif;">
<span>${text}</span><span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`.toString();
}

/** The HTML report printed to an A4 PDF by a headless Chromium, with page numbers in the footer. */
export async function renderPdf(result: ScanResult, options: PdfOptions = {}, changes?: ReportChanges): Promise<Buffer> {
  return htmlToPdf(renderHtml(result, changes), `${PRODUCT_NAME} security report · ${targetHost(result)} · ${formatDate(result.startedAt)}`, options);
}

/** Any static report page printed to an A4 PDF, `footer` on every page beside the page numbers. */
export async function htmlToPdf(html: string, footer: string, options: PdfOptions = {}): Promise<Buffer> {
  let executable = options.chromiumPath;
  if (!executable) {
    const lookup = findChromium();
    if (lookup.path === null) throw new PdfBrowserMissingError(lookup.reason);
    executable = lookup.path;
  }
  const browser = await launchChromium(executable);
  try {
    // Scripts off and every request refused: the report is static, and its text comes from scanned sites.
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    const page = await context.newPage();
    await page.route('**/*', (route) => route.abort());
    await page.setContent(html, { waitUntil: 'load' });
    await page.emulateMedia({ media: 'print' });
    const pdf = await page.pdf({
      format: 'A4',
      printBackground: true,
      margin: { top: '14mm', bottom: '16mm', left: '12mm', right: '12mm' },
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: footerTemplate(footer),
    });
    return Buffer.from(pdf);
  } finally {
    await browser.close();
  }
}
