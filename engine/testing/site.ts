// Builders for check table tests: a Site assembled from literal responses, parsed by the real HTML parser.
import { scanOptionsSchema } from '../../common/scan';
import { parseHtml } from '../retrieval/html';
import type { Asset, Exchange, HeaderList, Page, ProbeRequest, RenderResult, Site, SiteBeforeProbes } from '../types';

export interface ExchangeInit {
  url: string;
  method?: string;
  status?: number;
  headers?: Record<string, string | string[]> | HeaderList;
  body?: string;
  contentType?: string;
  finalUrl?: string;
  redirects?: Exchange['redirects'];
  requestHeaders?: Record<string, string>;
  tls?: Exchange['tls'];
  error?: string;
}

function toHeaderList(headers: ExchangeInit['headers']): HeaderList {
  if (!headers) return [];
  if (Array.isArray(headers)) return headers as HeaderList;
  const list: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers as Record<string, string | string[]>)) {
    for (const one of Array.isArray(value) ? value : [value]) list.push([name.toLowerCase(), one]);
  }
  return list;
}

/** An exchange as retrieval would record it. */
export function makeExchange(init: ExchangeInit): Exchange {
  const headers = toHeaderList(init.headers);
  const contentType = init.contentType ?? headers.find(([name]) => name === 'content-type')?.[1] ?? (init.body !== undefined ? 'text/html; charset=utf-8' : '');
  const list = headers.some(([name]) => name === 'content-type') || !contentType ? headers : [...headers, ['content-type', contentType] as const];
  const body = init.body ?? '';
  return {
    method: init.method ?? 'GET',
    url: init.url,
    requestHeaders: init.requestHeaders ?? {},
    finalUrl: init.finalUrl ?? init.url,
    redirects: init.redirects ?? [],
    status: init.error ? 0 : (init.status ?? 200),
    headers: list,
    contentType,
    body,
    bodyBytes: Buffer.byteLength(body),
    truncated: false,
    timingMs: 1,
    tls: init.tls,
    error: init.error,
  };
}

/** A crawled page; HTML bodies are parsed. */
export function makePage(init: ExchangeInit & { depth?: number; source?: Page['source'] }): Page {
  const exchange = makeExchange(init);
  const page: Page = { url: exchange.finalUrl, depth: init.depth ?? 0, source: init.source ?? 'start', exchange };
  if (/html/i.test(exchange.contentType)) page.html = parseHtml(exchange.body, exchange.finalUrl);
  return page;
}

export function makeAsset(init: ExchangeInit & { kind?: Asset['kind']; referrer?: string }): Asset {
  const exchange = makeExchange({ contentType: 'application/javascript', ...init });
  return { url: init.url, kind: init.kind ?? 'script', referrer: init.referrer ?? init.url, exchange };
}

export const NO_RENDERING: RenderResult = {
  status: 'skipped',
  reason: 'not rendered in this test',
  routes: [],
  requests: [],
  cookies: [],
  storage: [],
  consoleErrors: [],
};

export interface SiteInit {
  /** The start page; further pages go in `pages`. */
  root: ExchangeInit;
  pages?: Array<ExchangeInit & { depth?: number; source?: Page['source'] }>;
  assets?: Array<ExchangeInit & { kind?: Asset['kind']; referrer?: string }>;
  robots?: ExchangeInit;
  sitemap?: ExchangeInit;
  notFound?: ExchangeInit;
  rendering?: Partial<RenderResult>;
  options?: Partial<Site['options']>;
  /** Probe answers by key. */
  probes?: Record<string, ExchangeInit>;
}

/** A whole site for a check's run(). */
export function makeSite(init: SiteInit): Site {
  const rootPage = makePage({ ...init.root, depth: 0, source: 'start' });
  const finalUrl = rootPage.exchange.finalUrl;
  const probes = new Map<string, Exchange>();
  for (const [key, value] of Object.entries(init.probes ?? {})) probes.set(key, makeExchange(value));
  return {
    target: init.root.url,
    finalUrl,
    origin: new URL(finalUrl).origin,
    options: scanOptionsSchema.parse(init.options ?? {}),
    root: rootPage.exchange,
    pages: [rootPage, ...(init.pages ?? []).map((page) => makePage({ depth: 1, source: 'link', ...page }))],
    assets: (init.assets ?? []).map(makeAsset),
    robots: init.robots && makeExchange(init.robots),
    sitemap: init.sitemap && makeExchange(init.sitemap),
    notFound: init.notFound && makeExchange(init.notFound),
    rendering: { ...NO_RENDERING, ...init.rendering },
    probes,
  };
}

/** The probes a check plans for a site (before probes run). */
export function plannedProbes(check: { probes?: (site: SiteBeforeProbes) => ProbeRequest[] }, site: Site): ProbeRequest[] {
  return check.probes?.(site) ?? [];
}
