import { html, raw, type Html, type HtmlValue } from '../html-kit';
import { isWebUrl } from './format';

// The frame every HTML report shares: one self-contained document, a strict policy, no scripts, no requests.

/** The report's own policy: no scripts, no network, inline styles only (findings carry text from scanned sites). */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** A link for http(s) URLs, plain text for anything else (javascript:, data:, relative paths). */
export function link(url: string, text: string = url): Html {
  return isWebUrl(url) ? html`<a href="${url}" rel="noopener noreferrer nofollow">${text}</a>` : html`${text}`;
}

/** A whole report page: `main` inside <main class="report">, under the report's stylesheet and the strict policy. */
export function reportDocument(options: { title: string; generator: string; style: Html; main: HtmlValue }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${raw(REPORT_CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${options.generator}">
<title>${options.title}</title>
<style>${options.style}</style>
</head>
<body>
<main class="report">
${options.main}
</main>
</body>
</html>
`.toString();
}
