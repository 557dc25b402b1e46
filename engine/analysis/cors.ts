// CORS probes: which URLs to ask with a foreign Origin, and how to read the answers.
import { header } from '../http/headers';
import type { Exchange, SiteBeforeProbes } from '../types';

/** The foreign origin the probes send: a reserved .example host nobody can own. */
export const PROBE_ORIGIN = 'https://vibeeval-probe.example';

/** Probe key prefixes; the URL follows the prefix. */
export const CORS_GET_PREFIX = 'cors-reflected-origin:get:';
export const CORS_PREFLIGHT_PREFIX = 'cors-reflected-origin:preflight:';
export const CORS_NULL_PREFIX = 'cors-null-origin:get:';

const MAX_URLS = 3;

function sameOrigin(url: string, origin: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.origin !== origin) return undefined;
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** The start URL and up to two same-origin /api/ URLs seen while crawling or rendering. */
export function corsProbeUrls(site: Pick<SiteBeforeProbes, 'finalUrl' | 'origin' | 'pages' | 'rendering'>): string[] {
  const urls = [site.finalUrl];
  const candidates = [
    ...site.rendering.requests.filter((request) => ['GET', 'HEAD'].includes(request.method.toUpperCase())).map((request) => request.url),
    ...site.pages.map((page) => page.url),
    ...site.pages.flatMap((page) => page.html?.links ?? []),
  ];
  for (const candidate of candidates) {
    if (urls.length >= MAX_URLS) break;
    const url = sameOrigin(candidate, site.origin);
    if (url && /^\/api(\/|$)/i.test(new URL(url).pathname) && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

export interface CorsAnswer {
  allowOrigin?: string;
  allowCredentials: boolean;
}

/** The CORS headers of an answer. */
export function corsHeaders(exchange: Exchange): CorsAnswer {
  const allowOrigin = header(exchange.headers, 'access-control-allow-origin')?.trim();
  const credentials = header(exchange.headers, 'access-control-allow-credentials')?.trim().toLowerCase() === 'true';
  return { allowOrigin, allowCredentials: credentials };
}

export const CORS_HEADERS = ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'vary'];
