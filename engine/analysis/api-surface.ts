// The site's own API surface: the endpoints its pages and bundles call (fetch, axios, XHR, template literals with a
// constant prefix, API-looking string constants), the routes its framework manifests list, and the GET operations of
// an OpenAPI document it serves. Pure over retrieved texts; the API checks turn this into GET probes.
import { collectTexts, type TextSource } from '../secrets/scan';
import type { Exchange, SiteBeforeProbes } from '../types';

export type EndpointSource = 'call' | 'template' | 'constant' | 'manifest' | 'openapi';

export interface ApiEndpoint {
  /** Absolute URL, without fragment. */
  url: string;
  source: EndpointSource;
  /** Where it was seen (a script URL), for evidence. */
  seenIn: string;
}

/** At most this many endpoints are probed: one GET each, the most specific first. */
export const MAX_ENDPOINTS = 40;

/** Paths where sites serve their OpenAPI/Swagger description. */
export const OPENAPI_PATHS = ['/openapi.json', '/swagger.json', '/api-docs', '/v3/api-docs', '/swagger/v1/swagger.json', '/api/openapi.json', '/docs'] as const;

/**
 * Words that mark a request with side effects. Some apps do these on GET (a logout link, an unsubscribe URL in a
 * mail), so a read-only scan never requests a path that contains one, whatever method the code uses.
 */
const SIDE_EFFECT_WORDS =
  /(?:^|[/_.?&=-])(?:log-?out|sign-?out|delete|destroy|remove|reset|unsubscribe|cancel|revoke|disable|deactivate|purge|clear|truncate|drop|approve|reject|confirm|verify|activate|checkout|charge|refund|capture|webhooks?|cron|send|invite|import|export|sync|migrate|seed|trigger|run|execute|kill|restart|shutdown|ban|impersonate|upload|create|update|toggle|vote|like|follow|subscribe|claim|redeem|callback|oauth|authorize|token|refresh|set)(?:s|ed|ing)?(?=$|[/_.?&=-])/;

/** True when a path or query names an action with side effects (camelCase split: deleteUser counts). */
export function hasSideEffectWord(text: string): boolean {
  return SIDE_EFFECT_WORDS.test(text.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase());
}
const STATIC_FILE = /\.(?:js|mjs|cjs|css|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot|mp4|webm|mp3|wav|pdf|zip|gz|txt|xml|html?|md|wasm)$/i;
/** Path shapes worth asking with GET: API prefixes, versioned APIs, GraphQL, route handlers. */
const API_PATH = /^\/(?:[\w-]+\/){0,2}(?:api|rest|v\d{1,2}|graphql|gql|_api|backend|internal)(?:\/|$)/i;

const FETCH = /\bfetch\(\s{0,3}(["'`])(\/[^"'`\s]{1,200}|https?:\/\/[^"'`\s]{4,200})\1/g;
const AXIOS = /\baxios\.(?:get|head|post|put|patch|request)\(\s{0,3}(["'`])(\/[^"'`\s]{1,200}|https?:\/\/[^"'`\s]{4,200})\1/g;
const XHR = /\.open\(\s{0,3}(["'])(?:GET|POST|HEAD)\1\s{0,3},\s{0,3}(["'`])(\/[^"'`\s]{1,200}|https?:\/\/[^"'`\s]{4,200})\2/gi;
const BASE_URL = /\bbaseURL\s{0,3}:\s{0,3}(["'`])(\/[^"'`\s]{0,120}|https?:\/\/[^"'`\s]{4,200})\1/g;
/** Relative calls on an axios instance (`api.get("/users")`); resolved against each baseURL the bundle declares. */
const INSTANCE_CALL = /\b[\w$]{1,40}\.(?:get|head)\(\s{0,3}(["'`])(\/[^"'`\s${}]{1,200})\1/g;
const TEMPLATE = /`([^`]{1,300})`/g;
const CONSTANT = /(["'`])(\/(?:[\w-]+\/){0,2}(?:api|rest|v\d{1,2}|graphql|_api)(?:\/[\w.-]{1,60}){0,6}\/?)\1/g;
/** `const API_BASE = "https://api.example.com/v1"` (also `||` fallbacks after an env lookup). */
const ASSIGN = /\b([A-Za-z_$][\w$]{0,60})\s{0,3}[=:]\s{0,3}(?:[^;,\n]{0,120}?\|\|\s{0,3})?(["'`])(\/[\w/.-]{0,120}|https?:\/\/[^"'`\s]{4,200})\2/g;

/** An endpoint from a raw string: absolute, fragment and query dropped unless the query is literal. */
function resolve(raw: string, base: string): URL | undefined {
  try {
    const url = new URL(raw, base);
    url.hash = '';
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Domains shared by many owners: a sibling subdomain there is someone else's app. */
const SHARED_PARENT =
  /(?:^|\.)(?:vercel\.app|netlify\.app|lovable\.app|lovableproject\.com|pages\.dev|workers\.dev|github\.io|herokuapp\.com|onrender\.com|fly\.dev|railway\.app|replit\.app|replit\.dev|repl\.co|web\.app|firebaseapp\.com|supabase\.co|supabase\.in|stackblitz\.io|bolt\.new|glitch\.me|azurewebsites\.net|appspot\.com|amplifyapp\.com|cloudfront\.net|ngrok\.io|ngrok-free\.app|surge\.sh|vercel\.sh|deno\.dev|val\.run)$/;

/**
 * Hosts whose endpoints belong to the site: its own, its subdomains, and siblings under its parent domain
 * (api.example.com for app.example.com), except on shared hosting domains and bare IPs.
 */
export function isSiteHost(host: string, siteHost: string): boolean {
  if (host === siteHost) return true;
  const bare = siteHost.replace(/^www\./, '');
  if (!bare.includes('.') || /^[\d.:]+$/.test(bare) || /^\[/.test(bare)) return false;
  if (host === bare || host.endsWith(`.${bare}`)) return true;
  const parent = bare.split('.').slice(1).join('.');
  if (!parent.includes('.') || SHARED_PARENT.test(parent) || /^(?:co|com|org|net|gov|ac|edu|ne|or)\.[a-z]{2}$/.test(parent)) return false;
  return host === parent || host.endsWith(`.${parent}`);
}

/** True for a path the scan may GET: not a static file, no path parameter left, no side-effect word. */
export function isProbeablePath(pathname: string): boolean {
  if (pathname.length > 200 || STATIC_FILE.test(pathname)) return false;
  if (/[{}[\]<>:*$]|%7B|%3C/i.test(pathname)) return false;
  return !hasSideEffectWord(pathname);
}

/** The constant prefix of a template literal: up to the first `${`, kept only when it ends on a path boundary. */
export function templatePrefix(template: string, constants: ReadonlyMap<string, string>): string | undefined {
  let text = template;
  // `${API}/users`: a leading interpolation of a known constant is replaced by its value.
  const lead = /^\$\{\s{0,2}([\w$.]{1,60})\s{0,2}\}/.exec(text);
  if (lead) {
    const value = constants.get(lead[1]!.split('.').pop()!);
    if (value === undefined) return undefined;
    text = value.replace(/(?<!\/)\/+$/, '') + text.slice(lead[0].length);
  }
  const cut = text.indexOf('${');
  const prefix = cut === -1 ? text : text.slice(0, cut);
  const query = prefix.indexOf('?');
  // In the query string any interpolation is fine: the path before it is complete.
  if (cut !== -1 && query === -1 && !prefix.endsWith('/')) return undefined;
  const clean = (query === -1 ? prefix : prefix.slice(0, query)).replace(/(?<!\/)\/+$/, '');
  if (!/^(?:\/|https?:\/\/)/.test(clean) || /\s/.test(clean)) return undefined;
  return clean || undefined;
}

/** String constants a bundle assigns (`const API = "/api"`), by name: what a template's leading `${API}` stands for. */
export function constantsOf(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of text.matchAll(ASSIGN)) if (!map.has(m[1]!)) map.set(m[1]!, m[3]!);
  return map;
}

type Found = Array<{ raw: string; source: EndpointSource }>;

function fromCalls(text: string, out: Found): void {
  for (const m of text.matchAll(FETCH)) out.push({ raw: m[2]!, source: 'call' });
  for (const m of text.matchAll(AXIOS)) out.push({ raw: m[2]!, source: 'call' });
  for (const m of text.matchAll(XHR)) out.push({ raw: m[3]!, source: 'call' });
  const bases = [...text.matchAll(BASE_URL)].map((m) => m[2]!.replace(/(?<!\/)\/+$/, ''));
  if (bases.length > 0) {
    for (const m of text.matchAll(INSTANCE_CALL)) for (const base of bases.slice(0, 3)) out.push({ raw: base + m[2]!, source: 'call' });
  }
}

function fromTemplates(text: string, out: Found): void {
  const constants = constantsOf(text);
  for (const m of text.matchAll(TEMPLATE)) {
    const body = m[1]!;
    if (!body.includes('${') || !/^(?:\/|https?:\/\/|\$\{)/.test(body)) continue;
    const prefix = templatePrefix(body, constants);
    if (prefix) out.push({ raw: prefix, source: 'template' });
  }
  for (const m of text.matchAll(CONSTANT)) out.push({ raw: m[2]!.replace(/(?<!\/)\/+$/, ''), source: 'constant' });
}

/** Route paths from Next.js (build and app-paths manifests), Remix and SvelteKit manifests found in scripts. */
export function manifestRoutes(text: string): string[] {
  const routes: string[] = [];
  if (/__BUILD_MANIFEST|__SSG_MANIFEST/.test(text)) {
    for (const m of text.matchAll(/["'](\/[\w\-/[\]]{0,120})["']\s{0,2}:\s{0,2}\[/g)) routes.push(m[1]!);
  }
  // app-paths-manifest.json: {"/api/users/route": "app/api/users/route.js", "/admin/page": "app/admin/page.js"}
  for (const m of text.matchAll(/["'](\/[\w\-/[\]()@]{0,120})\/(route|page)["']\s{0,2}:\s{0,2}["']app\//g)) {
    routes.push(m[1]!.replace(/\/\([^)]*\)/g, '') || '/');
  }
  if (/__remixManifest|__remixRouteModules|window\.__reactRouterManifest/.test(text)) {
    for (const m of text.matchAll(/["']?path["']?\s{0,2}:\s{0,2}["']([\w\-/:.]{1,120})["']/g)) routes.push(`/${m[1]!.replace(/^\/+/, '')}`);
  }
  // SvelteKit's client app chunk: a dictionary of route ids to node indexes, e.g. "/admin/users": [~3, [1]]
  for (const m of text.matchAll(/["'](\/[\w\-/[\]()]{1,120})["']\s{0,2}:\s{0,2}\[~?\d/g)) routes.push(m[1]!.replace(/\/\([^)]*\)/g, '') || '/');
  return routes;
}

/** GET operations of an OpenAPI (2 or 3) JSON document, with path parameters filled from examples when given. */
export function openApiGetPaths(doc: unknown): string[] {
  const spec = doc as { paths?: Record<string, Record<string, unknown>>; basePath?: string; servers?: Array<{ url?: string }> };
  if (!spec || typeof spec !== 'object' || !spec.paths || typeof spec.paths !== 'object') return [];
  const base = (typeof spec.basePath === 'string' ? spec.basePath : relativeServer(spec.servers)).replace(/(?<!\/)\/+$/, '');
  const out: string[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    const get = item?.get as { parameters?: unknown[] } | undefined;
    if (!get || typeof get !== 'object') continue;
    const params = [...((item.parameters as unknown[]) ?? []), ...(get.parameters ?? [])] as Array<{
      name?: string;
      in?: string;
      example?: unknown;
      schema?: { example?: unknown };
    }>;
    const filled = path.replace(/\{([^{}]+)\}/g, (all, name: string) => {
      const param = params.find((p) => p?.in === 'path' && p.name === name);
      const example = param?.example ?? param?.schema?.example;
      return typeof example === 'string' || typeof example === 'number' ? encodeURIComponent(String(example)) : all;
    });
    if (!filled.includes('{')) out.push(base + filled);
  }
  return out;
}

function relativeServer(servers: Array<{ url?: string }> | undefined): string {
  const url = servers?.[0]?.url;
  if (typeof url !== 'string') return '';
  if (url.startsWith('/')) return url;
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** An OpenAPI/Swagger JSON document, or undefined when the body is something else. */
export function parseOpenApi(exchange: Exchange | undefined): Record<string, unknown> | undefined {
  if (!exchange || exchange.error || exchange.status < 200 || exchange.status > 299) return undefined;
  const body = exchange.body.trimStart();
  if (!body.startsWith('{')) return undefined;
  try {
    const doc = JSON.parse(body) as Record<string, unknown>;
    const versioned = typeof doc.openapi === 'string' || typeof doc.swagger === 'string';
    return versioned && doc.paths && typeof doc.paths === 'object' ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** Per text: planning, the second round and judging all ask, and a 2 MB bundle takes ~150 ms to read. */
const foundMemo = new WeakMap<TextSource, Found>();

function foundIn(text: TextSource): Found {
  const memo = foundMemo.get(text);
  if (memo) return memo;
  const found: Found = [];
  fromCalls(text.text, found);
  fromTemplates(text.text, found);
  for (const route of manifestRoutes(text.text)) found.push({ raw: route, source: 'manifest' });
  foundMemo.set(text, found);
  return found;
}

function specificity(url: URL, source: EndpointSource): number {
  const segments = url.pathname.split('/').filter(Boolean).length;
  const rank: Record<EndpointSource, number> = { call: 3, openapi: 3, template: 2, manifest: 1, constant: 0 };
  return segments * 10 + rank[source] + (url.search ? 5 : 0);
}

/**
 * Same-site API endpoints the site's code calls or documents, deduplicated, without side-effect paths, the most
 * specific first, at most MAX_ENDPOINTS. `docs` are OpenAPI answers, when the scan already has them.
 */
export function collectApiEndpoints(site: SiteBeforeProbes, docs: readonly Exchange[] = []): ApiEndpoint[] {
  const siteHost = new URL(site.origin).host;
  const byUrl = new Map<string, ApiEndpoint & { score: number }>();
  const add = (raw: string, source: EndpointSource, seenIn: string, base: string) => {
    const url = resolve(raw, base);
    if (!url || !isSiteHost(url.host, siteHost) || !isProbeablePath(url.pathname) || hasSideEffectWord(url.search)) return;
    if (url.pathname === '/' || url.pathname === '') return;
    if ((source === 'constant' || source === 'manifest') && !API_PATH.test(url.pathname)) return;
    // App-paths manifest keys ("/api/users/route") are file names, not URLs.
    if (source === 'constant' && /\/(?:route|page)$/.test(url.pathname)) return;
    const key = url.href;
    const score = specificity(url, source);
    const known = byUrl.get(key);
    if (!known || known.score < score) byUrl.set(key, { url: key, source, seenIn, score });
  };
  for (const text of collectTexts(site)) {
    if (text.kind === 'storage' || text.kind === 'request') continue;
    for (const { raw, source } of foundIn(text)) add(raw, source, text.url, site.origin);
  }
  // Calls the page made while rendering: the most direct evidence of an endpoint the front end uses.
  for (const request of site.rendering.requests) {
    if ((request.resourceType === 'fetch' || request.resourceType === 'xhr') && request.method === 'GET') add(request.url, 'call', 'traffic seen while rendering', site.origin);
  }
  for (const doc of docs) {
    const spec = parseOpenApi(doc);
    if (spec) for (const path of openApiGetPaths(spec)) add(path, 'openapi', doc.url, doc.url);
  }
  return [...byUrl.values()]
    .sort((a, b) => b.score - a.score || a.url.localeCompare(b.url))
    .slice(0, MAX_ENDPOINTS)
    .map(({ url, source, seenIn }) => ({ url, source, seenIn }));
}
