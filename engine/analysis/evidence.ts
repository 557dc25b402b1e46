// Evidence and page selection shared by the header, cookie and CORS checks.
import type { Evidence, Exchange, FindingDraft, Page, Site } from '../types';
import { formatHeaders } from '../http/headers';

const MAX_EXCERPT = 1_000;

/** The request line as evidence shows it, with the request headers that matter (e.g. Origin). */
export function requestLine(exchange: Exchange, headerNames: readonly string[] = []): string {
  const wanted = new Set(headerNames.map((name) => name.toLowerCase()));
  const extra = Object.entries(exchange.requestHeaders)
    .filter(([name]) => wanted.has(name.toLowerCase()))
    .map(([name, value]) => `${name}: ${value}`);
  return [`${exchange.method} ${exchange.url}`, ...extra].join('\n');
}

/** Status line plus only the named response headers (all their values), optionally a body excerpt. */
export function responseExcerpt(exchange: Exchange, headerNames: readonly string[], body = false): string {
  const wanted = new Set(headerNames.map((name) => name.toLowerCase()));
  const lines = [`HTTP ${exchange.status}`];
  const headers = formatHeaders(exchange.headers.filter(([name]) => wanted.has(name)));
  if (headers) lines.push(headers);
  if (body && exchange.body) lines.push('', exchange.body.slice(0, MAX_EXCERPT));
  return lines.join('\n');
}

/** Evidence from one exchange: the request, the relevant response headers, and the proof. */
export function headerEvidence(exchange: Exchange, headerNames: readonly string[], match?: string, options: { requestHeaders?: readonly string[]; body?: boolean } = {}): Evidence {
  const evidence: Evidence = {
    request: requestLine(exchange, options.requestHeaders),
    response: responseExcerpt(exchange, headerNames, options.body),
  };
  if (match !== undefined) evidence.match = match.slice(0, 2_000);
  return evidence;
}

/** True when the exchange got an answer (no network error). */
export function answered(exchange: Exchange | undefined): exchange is Exchange {
  return !!exchange && !exchange.error && exchange.status > 0;
}

/** True for HTML documents: the responses whose security headers a browser applies to a page. */
export function isHtml(exchange: Exchange): boolean {
  return /\b(text\/html|application\/xhtml\+xml)\b/i.test(exchange.contentType);
}

/** The start page as crawled (falls back to a page built from site.root). */
export function startPage(site: Pick<Site, 'pages' | 'root' | 'finalUrl'>): Page {
  return site.pages.find((page) => page.source === 'start') ?? { url: site.finalUrl, depth: 0, source: 'start', exchange: site.root };
}

/** Answered HTML pages, start page first, each URL once. */
export function htmlPages(site: Pick<Site, 'pages' | 'root' | 'finalUrl'>): Page[] {
  const start = startPage(site);
  const seen = new Set<string>();
  const out: Page[] = [];
  for (const page of [start, ...site.pages]) {
    if (seen.has(page.url) || !answered(page.exchange) || !isHtml(page.exchange)) continue;
    seen.add(page.url);
    out.push(page);
  }
  return out;
}

/**
 * Reports a site-wide header problem once: findings with the same signature (what is wrong and the
 * header value that shows it) collapse into the first page that has them, so a missing header on every
 * page is one finding on the start page, while a page that differs gets its own; capped per check.
 */
export function dedupeFindings(drafts: Array<FindingDraft & { signature: string }>, cap = 5): FindingDraft[] {
  const seen = new Set<string>();
  const out: FindingDraft[] = [];
  for (const { signature, ...draft } of drafts) {
    if (seen.has(signature)) continue;
    seen.add(signature);
    out.push(draft);
    if (out.length >= cap) break;
  }
  return out;
}

/** True when the URL is https. */
export function isHttps(url: string): boolean {
  return /^https:/i.test(url);
}
