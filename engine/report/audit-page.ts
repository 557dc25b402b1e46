import { html, join, type Html, type HtmlValue } from '../html-kit';
import { reportDocument } from './document';
import { PRODUCT_NAME } from './format';
import { AUDIT_REPORT_STYLE } from './styles';

// What the performance, accessibility and analytics reports share: the page with its cover, the warnings, and the
// small helpers their rows and charts use. Same rules as the security report: every text from a site escaped.

export function hostOf(url: string | null): string {
  if (!url) return '';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Path and query of a page, for compact rows; the whole URL when it is not one. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** A bar's width in percent of the largest value, at least a sliver when the value is not zero. */
export function percent(value: number, max: number): string {
  if (max <= 0 || value <= 0) return '0';
  return Math.max(0.8, Math.min(100, (value / max) * 100)).toFixed(1);
}

/** An audit report page: the cover (report name, host, target, facts), the sections one per line, the footer. */
export function auditPage(options: {
  title: string;
  reportName: string;
  heading: string;
  target: string | null;
  facts: Array<[string, HtmlValue]>;
  body: HtmlValue[];
  footer: Html;
  engineVersion?: string;
}): string {
  return reportDocument({
    title: options.title,
    generator: `${PRODUCT_NAME}${options.engineVersion ? ` ${options.engineVersion}` : ''}`,
    style: AUDIT_REPORT_STYLE,
    main: html`<header class="cover">
  <div class="brand"><strong>${PRODUCT_NAME}</strong><span>${options.reportName}</span></div>
  <h1>${options.heading}</h1>
  ${options.target ? html`<p class="target">${options.target}</p>` : ''}
  <dl class="meta">${options.facts.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>
</header>
${join(options.body.filter(Boolean), '\n')}
<footer class="foot">${options.footer}</footer>`,
  });
}

export function warningsSection(warnings: readonly string[]): HtmlValue {
  if (warnings.length === 0) return '';
  return html`<section><h2>Warnings</h2><p class="note">Pages that could not be measured and other problems that did not stop the audit.</p><ul class="warnings">${warnings.map((w) => html`<li>${w}</li>`)}</ul></section>`;
}
