// Whether a browser would show a response inside a frame of another page: CSP frame-ancestors (enforced
// header policies only) and, when no enforced policy has frame-ancestors, X-Frame-Options, as the HTML
// standard's "check a navigation response's adherence to X-Frame-Options" and CSP Level 3 describe them.
import { headerAll } from '../http/headers';
import type { HeaderList } from '../types';
import { parseCspPolicy } from './csp';

export interface FramingVerdict {
  allowed: boolean;
  /** Why the page refuses to be framed (absent when allowed). */
  reason?: string;
}

/** Default ports, for sources and URLs that leave the port out. */
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

function effectivePort(url: URL): string {
  return url.port || DEFAULT_PORTS[url.protocol] || '';
}

/** A source's scheme allows the embedder's: `http:` also allows https (CSP3 "scheme-part matches"). */
function schemeMatches(sourceScheme: string, embedderScheme: string): boolean {
  return sourceScheme === embedderScheme || (sourceScheme === 'http:' && embedderScheme === 'https:');
}

/** 'self': the framed page's own origin, or its https upgrade on the same host. */
function matchesSelf(embedder: URL, page: URL): boolean {
  if (embedder.origin === page.origin) return true;
  return page.protocol === 'http:' && embedder.protocol === 'https:' && embedder.hostname === page.hostname && (page.port === '' || page.port === '80') && embedder.port === '';
}

const HOST_SOURCE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|\*\.[^:/]+|[^:/*]+)(?::(\*|\d+))?(\/.*)?$/i;

/** A host-source (`https://*.example.com:8443/path`) against the embedder's URL (CSP3 6.7.2.8, simplified). */
function matchesHostSource(source: string, embedder: URL, page: URL): boolean {
  const match = HOST_SOURCE.exec(source);
  if (!match) return false;
  const [, scheme, host, port, path] = match;
  const lowerHost = host!.toLowerCase();
  // No scheme: the framed page's own scheme (http also allows https).
  if (!schemeMatches(scheme ? `${scheme.toLowerCase()}:` : page.protocol, embedder.protocol)) return false;
  const embedderHost = embedder.hostname.toLowerCase();
  if (lowerHost.startsWith('*.')) {
    if (!embedderHost.endsWith(lowerHost.slice(1))) return false;
  } else if (lowerHost !== '*' && lowerHost !== embedderHost) return false;
  if (port !== '*') {
    const wanted = port ?? DEFAULT_PORTS[scheme ? `${scheme.toLowerCase()}:` : embedder.protocol] ?? '';
    const actual = effectivePort(embedder);
    // A source on http's default port also allows the https upgrade on 443.
    if (wanted !== actual && !(wanted === '80' && actual === '443' && embedder.protocol === 'https:')) return false;
  }
  if (path && path !== '/') {
    const wantedPath = decodeURIComponent(path);
    return wantedPath.endsWith('/') ? embedder.pathname.startsWith(wantedPath) : embedder.pathname === wantedPath;
  }
  return true;
}

/** Whether one frame-ancestors source list lets `embedder` frame `page`. */
export function frameAncestorsAllow(sources: readonly string[], embedder: URL, page: URL): boolean {
  for (const raw of sources) {
    const source = raw.toLowerCase();
    // 'none' matters only alone (an empty list means the same); beside other sources it is ignored.
    if (source === "'none'") continue;
    if (source === "'self'") {
      if (matchesSelf(embedder, page)) return true;
      continue;
    }
    if (source.startsWith("'")) continue; // other keywords, nonces and hashes mean nothing here
    if (source === '*') {
      if (embedder.protocol === 'http:' || embedder.protocol === 'https:') return true;
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:$/.test(source)) {
      if (schemeMatches(source, embedder.protocol)) return true;
      continue;
    }
    if (matchesHostSource(raw, embedder, page)) return true;
  }
  return false;
}

/** X-Frame-Options as the HTML standard reads it: every value of every field, split on commas, lower-cased. */
function xFrameOptionsVerdict(headers: HeaderList, embedder: URL, page: URL, host: string): FramingVerdict {
  const values = new Set(
    headerAll(headers, 'x-frame-options')
      .flatMap((value) => value.split(','))
      .map((value) => value.trim().toLowerCase())
      .filter(Boolean),
  );
  const refused = { allowed: false, reason: `${host} does not allow being shown inside another page (X-Frame-Options).` };
  if (values.size > 1) {
    // Conflicting values block when any of them is a known one; otherwise the header is ignored.
    return ['deny', 'sameorigin', 'allowall'].some((value) => values.has(value)) ? refused : { allowed: true };
  }
  const [value] = values;
  if (value === 'deny') return refused;
  if (value === 'sameorigin' && embedder.origin !== page.origin) return refused;
  // ALLOW-FROM, ALLOWALL and unknown values are ignored by current browsers.
  return { allowed: true };
}

/**
 * Whether `embedder` (the page holding the frame) may show the response of `pageUrl` with `headers` in a frame.
 * Enforced CSP frame-ancestors wins over X-Frame-Options; every enforced policy must allow it; report-only
 * policies and <meta> policies (where browsers ignore frame-ancestors) do not count.
 */
export function framingVerdict(headers: HeaderList, pageUrl: string, embedderUrl: string): FramingVerdict {
  const page = new URL(pageUrl);
  const embedder = new URL(embedderUrl);
  const host = page.host;
  const ancestors = headerAll(headers, 'content-security-policy')
    .flatMap((value) => value.split(','))
    .map((raw) => parseCspPolicy(raw.trim(), 'header').directives.get('frame-ancestors'))
    .filter((sources): sources is string[] => sources !== undefined);
  if (ancestors.length > 0) {
    if (ancestors.every((sources) => frameAncestorsAllow(sources, embedder, page))) return { allowed: true };
    return { allowed: false, reason: `${host} does not allow being shown inside another page (frame-ancestors).` };
  }
  return xFrameOptionsVerdict(headers, embedder, page, host);
}
