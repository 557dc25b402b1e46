// Recognises the web framework a site was built with (Next.js, Nuxt, SvelteKit, Remix, Astro, Vite, Create React
// App) from what the crawl already holds: page HTML, inline data scripts, script URLs, headers and generator tags.
// The framework checks read this: which client data blobs to search for server values, and which version to match
// against engine/data/framework-advisories.json. Pure and memoised per site; the few manifest requests it wants are
// planned by frameworkProbes() (GET only, bounded).
import { header } from '../http/headers';
import type { Exchange, ProbeRequest, Site, SiteBeforeProbes } from '../types';

export type FrameworkName = 'Next.js' | 'Nuxt' | 'SvelteKit' | 'Remix' | 'Astro' | 'Vite' | 'Create React App';

export interface DetectedFramework {
  name: FrameworkName;
  /** Key in engine/data/framework-advisories.json. */
  key: string;
  version?: string;
  /** Where the version came from, when known. */
  versionSource?: string;
  /** Short statements of what gave the framework away, e.g. 'script /_next/static/chunks/main.js'. */
  evidence: string[];
  /** Next.js: 'pages' (__NEXT_DATA__) or 'app' (flight data); both when a site mixes them. */
  router?: 'pages' | 'app' | 'pages+app';
  /** Next.js build id, from __NEXT_DATA__ or the /_next/static/<buildId>/ manifest paths. */
  buildId?: string;
  /** Vite: the page loads /@vite/client, i.e. the development server answers. */
  dev?: boolean;
}

/** A block of data the server rendered into a page for the client to hydrate from. */
export interface ClientDataBlob {
  framework: FrameworkName;
  /** The page that carried it. */
  url: string;
  /** What the blob is, e.g. '__NEXT_DATA__', 'React Server Components flight data', 'window.__NUXT__'. */
  label: string;
  text: string;
  /** Offset of the blob in the page body, for evidence excerpts; -1 when it was assembled from several pieces. */
  offset: number;
}

const VERSION = String.raw`(\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z.]+)?)`;
/** Limits: pages and bodies searched, so a huge site costs the same as a small one. */
const MAX_PAGES = 40;
const MAX_BODY = 2_000_000;

const NEXT_DATA = /<script[^<>]*\bid=["']?__NEXT_DATA__["']?[^<>]*>([\s\S]*?)<\/script>/i;
const NUXT_DATA = /<script[^<>]*\bid=["']?__NUXT_DATA__["']?[^<>]*>([\s\S]*?)<\/script>/i;
const SVELTEKIT_FETCHED = /<script[^<>]*\bdata-sveltekit-fetched\b[^<>]*>([\s\S]*?)<\/script>/gi;
const FLIGHT_PUSH = /self\.__next_f\.push\((\[[\s\S]*?\])\)\s*(?:;\s*)?$/;
const NEXT_VERSION: readonly RegExp[] = [
  new RegExp(String.raw`window\.next\s*=\s*\{\s*version:\s*["']${VERSION}["']`),
  new RegExp(String.raw`=\s*"${VERSION}";?[\s\S]{0,1500}?document\.getElementById\("__NEXT_DATA__"\)`),
  new RegExp(String.raw`next/dist/[\w/.-]{0,80}?[@ ]v?${VERSION}`),
  new RegExp(String.raw`/next@${VERSION}/`),
];
const GENERATOR: ReadonlyArray<[FrameworkName, RegExp]> = [
  ['Astro', new RegExp(String.raw`^Astro\s+v?${VERSION}?`, 'i')],
  ['Nuxt', new RegExp(String.raw`^Nuxt(?:\.js)?\s*v?${VERSION}?`, 'i')],
  ['SvelteKit', new RegExp(String.raw`^SvelteKit\s*v?${VERSION}?`, 'i')],
  ['Next.js', new RegExp(String.raw`^Next\.js\s*v?${VERSION}?`, 'i')],
];
const KEYS: Record<FrameworkName, string> = {
  'Next.js': 'nextjs',
  Nuxt: 'nuxt',
  SvelteKit: '@sveltejs/kit',
  Remix: '@remix-run/react',
  Astro: 'astro',
  Vite: 'vite',
  'Create React App': 'react-scripts',
};

const usable = (exchange: Exchange | undefined): exchange is Exchange => !!exchange && !exchange.error && exchange.status >= 200 && exchange.status < 300;

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

class Collector {
  readonly found = new Map<FrameworkName, DetectedFramework>();

  add(name: FrameworkName, evidence: string, extra: Partial<DetectedFramework> = {}): DetectedFramework {
    let entry = this.found.get(name);
    if (!entry) {
      entry = { name, key: KEYS[name], evidence: [] };
      this.found.set(name, entry);
    }
    if (entry.evidence.length < 6 && !entry.evidence.includes(evidence)) entry.evidence.push(evidence);
    if (extra.version && !entry.version) {
      entry.version = extra.version;
      entry.versionSource = extra.versionSource ?? evidence;
    }
    if (extra.buildId && !entry.buildId) entry.buildId = extra.buildId;
    if (extra.dev) entry.dev = true;
    if (extra.router && entry.router !== extra.router) entry.router = entry.router ? 'pages+app' : extra.router;
    return entry;
  }
}

/** Framework markers in script URLs: build output folders and file names each framework uses. */
function fromScriptUrl(url: string, out: Collector): void {
  const path = pathOf(url);
  const build = /\/_next\/static\/([\w-]{6,64})\/_(?:buildManifest|ssgManifest)\.js$/.exec(path);
  if (build) out.add('Next.js', `build manifest ${path}`, { buildId: build[1] });
  else if (path.includes('/_next/static/')) out.add('Next.js', `script ${path}`);
  if (path.includes('/_nuxt/')) out.add('Nuxt', `script ${path}`);
  if (path.includes('/_app/immutable/')) out.add('SvelteKit', `script ${path}`);
  if (/\/build\/(?:entry\.client|manifest|root)-[\w-]+\.js$/.test(path)) out.add('Remix', `script ${path}`);
  if (path.includes('/_astro/')) out.add('Astro', `script ${path}`);
  if (path === '/@vite/client') out.add('Vite', 'the page loads /@vite/client (development server)', { dev: true });
  else if (/\/assets\/index-[\w-]{8,}\.js$/.test(path)) out.add('Vite', `script ${path}`);
  if (/\/static\/js\/main\.[0-9a-f]{8,}(?:\.chunk)?\.js$/.test(path)) out.add('Create React App', `script ${path}`);
  const cdn = new RegExp(String.raw`/next@${VERSION}/`).exec(path);
  if (cdn) out.add('Next.js', `script ${path}`, { version: cdn[1] });
}

function nextVersionIn(text: string): string | undefined {
  for (const pattern of NEXT_VERSION) {
    const m = pattern.exec(text);
    if (m) return m[1];
  }
  return undefined;
}

/** Markers in a page: data scripts, custom elements, generator tags. */
function fromPage(body: string, pageUrl: string, out: Collector): void {
  const data = NEXT_DATA.exec(body);
  if (data) {
    const buildId = /"buildId"\s*:\s*"([\w-]{1,64})"/.exec(data[1]!)?.[1];
    out.add('Next.js', `__NEXT_DATA__ in ${pathOf(pageUrl)}`, { router: 'pages', buildId });
  }
  if (body.includes('self.__next_f')) out.add('Next.js', `React Server Components flight data (self.__next_f) in ${pathOf(pageUrl)}`, { router: 'app' });
  const nextVersion = nextVersionIn(body);
  if (nextVersion) out.add('Next.js', `version string in ${pathOf(pageUrl)}`, { version: nextVersion });
  if (/window\.__NUXT__|__NUXT_DATA__/.test(body)) out.add('Nuxt', `window.__NUXT__ / __NUXT_DATA__ in ${pathOf(pageUrl)}`);
  if (/__sveltekit_[\w$]+/.test(body)) out.add('SvelteKit', `__sveltekit_ bootstrap in ${pathOf(pageUrl)}`);
  if (/window\.__remixContext|__remixManifest/.test(body)) out.add('Remix', `window.__remixContext in ${pathOf(pageUrl)}`);
  if (/<astro-island\b/.test(body)) out.add('Astro', `<astro-island> in ${pathOf(pageUrl)}`);
}

function fromGenerator(content: string, out: Collector): void {
  for (const [name, pattern] of GENERATOR) {
    const m = pattern.exec(content.trim());
    if (m) out.add(name, `<meta name="generator" content="${content.slice(0, 60)}">`, { version: m[1] });
  }
}

function fromHeaders(exchange: Exchange, out: Collector): void {
  const powered = header(exchange.headers, 'x-powered-by') ?? '';
  const next = new RegExp(String.raw`Next\.js(?:\s+v?${VERSION})?`, 'i').exec(powered);
  if (next) out.add('Next.js', `X-Powered-By: ${powered.slice(0, 60)}`, { version: next[1] });
  if (/Nuxt/i.test(powered)) out.add('Nuxt', `X-Powered-By: ${powered.slice(0, 60)}`);
  if (header(exchange.headers, 'x-nextjs-cache') || header(exchange.headers, 'x-nextjs-prerender')) out.add('Next.js', 'x-nextjs-cache header');
}

const MEMO = new WeakMap<object, DetectedFramework[]>();

/** The frameworks the site shows, most certain first (more evidence first). */
export function detectFrameworks(site: SiteBeforeProbes | Site): DetectedFramework[] {
  const cached = MEMO.get(site);
  if (cached) return cached;
  const out = new Collector();
  fromHeaders(site.root, out);
  for (const page of site.pages.slice(0, MAX_PAGES)) {
    fromHeaders(page.exchange, out);
    const body = page.exchange.body.slice(0, MAX_BODY);
    fromPage(body, page.url, out);
    for (const script of page.html?.scripts ?? []) if (script.src) fromScriptUrl(script.src, out);
    for (const meta of page.html?.metaNames ?? []) if (meta.name === 'generator') fromGenerator(meta.content, out);
  }
  for (const asset of site.assets) {
    if (asset.kind !== 'script') continue;
    fromScriptUrl(asset.url, out);
    const found = out.found.get('Next.js');
    if (found && !found.version && usable(asset.exchange)) {
      const version = nextVersionIn(asset.exchange.body.slice(0, MAX_BODY));
      if (version) out.add('Next.js', `version string in ${pathOf(asset.url)}`, { version, versionSource: `script ${pathOf(asset.url)}` });
    }
  }
  for (const request of site.rendering.requests) fromScriptUrl(request.url, out);
  const list = [...out.found.values()];
  // A Nuxt, SvelteKit, Remix or Astro build also uses Vite; report the framework, not its bundler.
  const result = list.length > 1 && list.some((f) => f.name !== 'Vite' && f.name !== 'Create React App') ? list.filter((f) => f.name !== 'Vite' || f.dev) : list;
  result.sort((a, b) => b.evidence.length - a.evidence.length);
  MEMO.set(site, result);
  return result;
}

/** The detected framework of that name, if any. */
export function framework(site: SiteBeforeProbes | Site, name: FrameworkName): DetectedFramework | undefined {
  return detectFrameworks(site).find((f) => f.name === name);
}

/** One line naming the frameworks, for evidence: "Next.js 14.1.0 (app router, build abc123); Vite". */
export function describeFrameworks(list: readonly DetectedFramework[]): string {
  return list
    .map((f) => {
      const extra = [f.router ? `${f.router} router` : undefined, f.buildId ? `build ${f.buildId}` : undefined, f.dev ? 'development server' : undefined].filter(Boolean);
      return `${f.name}${f.version ? ` ${f.version}` : ''}${extra.length ? ` (${extra.join(', ')})` : ''}`;
    })
    .join('; ');
}

// ---------------------------------------------------------------------------------------------------------------
// Client data: what the server serialised into the page for hydration.

function flightText(inline: string): string | undefined {
  const m = FLIGHT_PUSH.exec(inline.trim());
  if (!m) return undefined;
  try {
    const parsed: unknown = JSON.parse(m[1]!);
    return Array.isArray(parsed) && typeof parsed[1] === 'string' ? parsed[1] : undefined;
  } catch {
    return undefined;
  }
}

function inlineBlobs(page: SiteBeforeProbes['pages'][number], body: string): ClientDataBlob[] {
  const out: ClientDataBlob[] = [];
  const flight: string[] = [];
  for (const script of page.html?.scripts ?? []) {
    const inline = script.inline;
    if (!inline) continue;
    const pushed = inline.includes('self.__next_f') ? flightText(inline) : undefined;
    if (pushed) flight.push(pushed);
    else if (/window\.__NUXT__/.test(inline)) out.push({ framework: 'Nuxt', url: page.url, label: 'window.__NUXT__', text: inline, offset: body.indexOf(inline.slice(0, 200)) });
    else if (/__sveltekit_|kit\.start\(|\bdata:\s*\[/.test(inline) && /__sveltekit_|sveltekit/i.test(inline))
      out.push({ framework: 'SvelteKit', url: page.url, label: 'SvelteKit loader data', text: inline, offset: body.indexOf(inline.slice(0, 200)) });
    else if (/window\.__remixContext/.test(inline))
      out.push({ framework: 'Remix', url: page.url, label: 'window.__remixContext (loader data)', text: inline, offset: body.indexOf(inline.slice(0, 200)) });
  }
  if (flight.length) out.push({ framework: 'Next.js', url: page.url, label: 'React Server Components flight data (self.__next_f)', text: flight.join(''), offset: -1 });
  return out;
}

/** Every hydration data blob in the crawled pages (Next.js, Nuxt, SvelteKit, Remix), page by page. */
export function clientDataBlobs(site: SiteBeforeProbes | Site): ClientDataBlob[] {
  const out: ClientDataBlob[] = [];
  for (const page of site.pages.slice(0, MAX_PAGES)) {
    const body = page.exchange.body.slice(0, MAX_BODY);
    if (!body) continue;
    const next = NEXT_DATA.exec(body);
    if (next) out.push({ framework: 'Next.js', url: page.url, label: '__NEXT_DATA__', text: next[1]!, offset: next.index });
    const nuxt = NUXT_DATA.exec(body);
    if (nuxt) out.push({ framework: 'Nuxt', url: page.url, label: '__NUXT_DATA__', text: nuxt[1]!, offset: nuxt.index });
    for (const m of body.matchAll(SVELTEKIT_FETCHED)) out.push({ framework: 'SvelteKit', url: page.url, label: 'SvelteKit fetched data', text: m[1]!, offset: m.index });
    out.push(...inlineBlobs(page, body));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Probes: the manifests and development-server files worth one request each.

export const FRAMEWORK_PROBE = {
  buildManifest: 'frameworks:next-build-manifest',
  viteClient: 'frameworks:vite-client',
} as const;

/** GET requests that confirm what detection suggests: Next.js's build manifest (route list), Vite's dev client. */
export function frameworkProbes(site: SiteBeforeProbes): ProbeRequest[] {
  const out: ProbeRequest[] = [];
  const next = framework(site, 'Next.js');
  if (next?.buildId) out.push({ key: FRAMEWORK_PROBE.buildManifest, method: 'GET', url: new URL(`/_next/static/${next.buildId}/_buildManifest.js`, site.origin).href });
  // Asked on every site: a dev server behind a custom page may not load the client on the crawled pages.
  out.push({ key: FRAMEWORK_PROBE.viteClient, method: 'GET', url: new URL('/@vite/client', site.origin).href });
  return out;
}

/** Page routes named by a Next.js build manifest ("/dashboard", "/admin/[id]" dropped: dynamic routes need values). */
export function buildManifestRoutes(exchange: Exchange | undefined): string[] {
  if (!usable(exchange)) return [];
  const routes = new Set<string>();
  for (const m of exchange.body.matchAll(/["'](\/[\w\-/.]*)["']\s*:\s*\[/g)) if (!m[1]!.startsWith('/_')) routes.add(m[1]!);
  return [...routes].slice(0, 200);
}

/** True when the answer is Vite's development client (HMR code), not a soft 404 page. */
export function isViteClient(exchange: Exchange | undefined): boolean {
  if (!usable(exchange)) return false;
  return /javascript/i.test(exchange.contentType) && /\[vite\]|__HMR_|createHotContext|import\.meta\.hot/.test(exchange.body.slice(0, 200_000));
}
