// The chunk lists frameworks publish: which scripts a build has, including those of routes the crawl cannot open
// (behind a login redirect). Their code is public all the same and names the backends and API routes the app uses.
// Pure over fetched texts; crawl.ts fetches what these functions name.
import type { Page } from '../types';

/** Where a list of chunks came from. */
export type ManifestKind = 'next-build-manifest' | 'next-ssg-manifest' | 'next-app-router' | 'vite-preload' | 'nuxt' | 'sveltekit' | 'remix';

/** A manifest (or chunk list inside a page or script) and the scripts it names. */
export interface ManifestRecord {
  kind: ManifestKind;
  /** The manifest's URL, or the page or script the list was written in. */
  url: string;
  /** Absolute URLs of the scripts it names (same origin or the app's own asset origin), before any cap. */
  chunks: string[];
  /** Routes it names (Next's build and SSG manifests, Remix's): pages that exist even when the crawl could not open them. */
  routes?: string[];
}

/** A manifest to fetch, found in a page. */
export interface ManifestUrl {
  kind: ManifestKind;
  url: string;
}

/** Next's chunk paths as its manifests and flight data write them: "static/chunks/…" relative to /_next/ (not inside another origin's URL). */
const NEXT_CHUNK = /(?<![\w.:/-])(?:\/_next\/)?static\/chunks\/[\w@./%()[\]~+-]{1,300}/g;
const NEXT_BUILD_ID = /"buildId"\s{0,3}:\s{0,3}"([\w-]{1,64})"/;
const NEXT_MANIFEST_SRC = /\/_next\/static\/([\w-]{1,64})\/_(?:build|ssg)Manifest\.js$/;
/** A route key of the build manifest: `"/dashboard":[` (routes are JSON strings, / escaped or not). */
const NEXT_ROUTE = /"((?:\/|\\u002F)[^"\s\\]{0,200}(?:\\u002F[^"\s\\]{0,200}){0,10})"\s{0,3}:\s{0,3}\[/g;
const SSG_ROUTE = /"((?:\/|\\u002F)[^"\s\\]{0,200}(?:\\u002F[^"\s\\]{0,200}){0,10})"/g;
/** Vite's preload list: `m.f||(m.f=["assets/a.js","assets/b.css"])`. */
const VITE_MAP_DEPS = /__vite__mapDeps\s{0,3}=[^[]{0,200}\[([^\]]{0,20000})\]/;
/** Any script path in a string literal (Nuxt, SvelteKit, Remix lists and imports). */
const QUOTED_SCRIPT = /["'`]((?:\.{1,2}\/|\/)?[\w@./%~+-]{1,300}\.m?js)["'`]/g;
const SVELTEKIT = /\/_app\/immutable\//;
const NUXT = /\/_nuxt\//;
const NUXT_BUILD_ID = /buildId\s{0,3}:\s{0,3}"([\w-]{1,64})"/;
const REMIX_MANIFEST = /\/build\/manifest-[\w-]{1,64}\.js$/;

function resolve(spec: string, base: string): string | undefined {
  try {
    return new URL(spec, base).href;
  } catch {
    return undefined;
  }
}

/** Unescapes the JSON-in-JS forms chunk lists arrive in (`\"`, `\/`, `\u002F`). */
function unescapeJs(text: string): string {
  return text.replaceAll('\\u002F', '/').replaceAll('\\/', '/');
}

/** Next chunk paths in a text, resolved against the app's asset origin (Next's assetPrefix). */
export function nextChunks(text: string, assetBase: string): string[] {
  const found = new Set<string>();
  for (const m of unescapeJs(text).matchAll(NEXT_CHUNK)) {
    if (!m[0].endsWith('.js')) continue;
    const path = m[0].startsWith('/_next/') ? m[0] : `/_next/${m[0]}`;
    const url = resolve(path, assetBase);
    if (url) found.add(url);
  }
  return [...found];
}

/** Routes a Next build (or SSG) manifest names, e.g. "/dashboard", "/invoices/[id]". */
export function nextManifestRoutes(text: string, kind: 'next-build-manifest' | 'next-ssg-manifest'): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(kind === 'next-build-manifest' ? NEXT_ROUTE : SSG_ROUTE)) {
    const route = unescapeJs(m[1]!);
    if (!route.startsWith('/_')) found.add(route);
  }
  return [...found].slice(0, 500);
}

/** A route of a Remix manifest: its own path segment (relative to its parent's) and its parent. */
interface RemixRoute {
  path?: unknown;
  parentId?: unknown;
}

/**
 * Page paths a Remix manifest lists (`window.__remixManifest={…,"routes":{"routes/admin":{"parentId":"root",
 * "path":"admin",…}}}`): each route's path joined to its parents' (pathless layouts add nothing).
 */
export function remixManifestRoutes(text: string): string[] {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return [];
  let routes: Record<string, RemixRoute> | undefined;
  try {
    routes = (JSON.parse(text.slice(start, end + 1)) as { routes?: Record<string, RemixRoute> }).routes;
  } catch {
    return [];
  }
  if (!routes || typeof routes !== 'object') return [];
  const full = (id: string): string | undefined => {
    const parts: string[] = [];
    // Bounded walk up the parents: a manifest is the site's text and may loop.
    for (let at: string | undefined = id, hops = 0; at !== undefined && hops < 20; hops++) {
      const route: RemixRoute | undefined = routes[at];
      if (!route) return undefined;
      if (typeof route.path === 'string') parts.unshift(...route.path.split('/').filter(Boolean));
      at = typeof route.parentId === 'string' ? route.parentId : undefined;
    }
    return `/${parts.join('/')}`;
  };
  const found = new Set<string>();
  for (const id of Object.keys(routes).slice(0, 500)) {
    const path = full(id);
    if (path) found.add(path);
  }
  return [...found];
}

/** Dynamic segments as frameworks write them: Next `[id]`, Remix `$id`, React Router `:id`, splats `*`. */
const DYNAMIC_SEGMENT = /[[\]$:*]/;

/**
 * The page paths a manifest names that can be opened as they are: no dynamic segment (`[id]`, `$id`, `:id`, `*`),
 * no error page (`/404`, `/500`), nothing private to the framework (`/_app`).
 */
export function staticRoutes(routes: readonly string[]): string[] {
  return routes.filter((route) => route.startsWith('/') && !route.startsWith('/_') && !DYNAMIC_SEGMENT.test(route) && !/^\/(?:404|500)$/.test(route));
}

/** Scripts in Vite's `__vite__mapDeps` preload list, resolved as Vite does: relative to the site root, or to the chunk for "./x.js". */
export function vitePreloadChunks(code: string, scriptUrl: string): string[] {
  const list = VITE_MAP_DEPS.exec(code)?.[1];
  if (!list) return [];
  const found = new Set<string>();
  for (const m of list.matchAll(QUOTED_SCRIPT)) {
    const spec = m[1]!;
    const url = resolve(spec, spec.startsWith('.') || spec.startsWith('/') ? scriptUrl : new URL('/', scriptUrl).href);
    if (url) found.add(url);
  }
  return [...found];
}

/** Script paths in string literals of a framework's own list (Nuxt, SvelteKit, Remix), resolved against `base`. */
export function quotedScripts(text: string, base: string): string[] {
  const found = new Set<string>();
  for (const m of unescapeJs(text).matchAll(QUOTED_SCRIPT)) {
    const url = resolve(m[1]!, base);
    if (url) found.add(url);
  }
  return [...found];
}

/** The origin a page loads its framework chunks from: its own, or the CDN its script tags name (Next's assetPrefix). */
export function assetOrigins(pages: readonly Page[], origin: string): Set<string> {
  const origins = new Set([origin]);
  for (const page of pages) {
    for (const script of page.html?.scripts ?? []) {
      if (!script.src) continue;
      const url = new URL(script.src);
      if (/^\/(?:_next\/static|_nuxt|_app\/immutable)\//.test(url.pathname)) origins.add(url.origin);
    }
  }
  return origins;
}

/** Next manifests a page points to: by its script tags, or by the build id in __NEXT_DATA__. */
function nextManifestUrls(page: Page, body: string): ManifestUrl[] {
  let base: string | undefined;
  let buildId: string | undefined;
  for (const script of page.html?.scripts ?? []) {
    const id = script.src ? NEXT_MANIFEST_SRC.exec(new URL(script.src).pathname)?.[1] : undefined;
    if (id) {
      buildId = id;
      base = new URL(script.src!).origin;
    } else if (script.src?.includes('/_next/static/')) base ??= new URL(script.src).origin;
  }
  buildId ??= body.includes('__NEXT_DATA__') ? NEXT_BUILD_ID.exec(body)?.[1] : undefined;
  if (!buildId) return [];
  const root = `${base ?? new URL(page.url).origin}/_next/static/${buildId}`;
  return [
    { kind: 'next-build-manifest', url: `${root}/_buildManifest.js` },
    { kind: 'next-ssg-manifest', url: `${root}/_ssgManifest.js` },
  ];
}

/** The manifests a page names, to fetch: Next's build and SSG manifests, Nuxt's build meta. */
export function manifestUrls(page: Page): ManifestUrl[] {
  const body = page.exchange.body;
  if (!page.html || !body) return [];
  const urls = nextManifestUrls(page, body);
  if (NUXT.test(body)) {
    const id = NUXT_BUILD_ID.exec(body)?.[1];
    const base = new URL(page.url).origin;
    if (id) urls.push({ kind: 'nuxt', url: `${base}/_nuxt/builds/meta/${id}.json` });
  }
  for (const script of page.html.scripts) {
    if (script.src && REMIX_MANIFEST.test(new URL(script.src).pathname)) urls.push({ kind: 'remix', url: script.src });
  }
  return urls;
}

/** Chunk lists written into a page itself: the app router's flight data, SvelteKit's start imports, Remix's inline manifest. */
export function pageChunkLists(page: Page, origins: ReadonlySet<string>): ManifestRecord[] {
  const records: ManifestRecord[] = [];
  const inline = (page.html?.scripts ?? []).map((script) => script.inline ?? '').filter(Boolean);
  const add = (kind: ManifestKind, chunks: string[]) => {
    const allowed = chunks.filter((chunk) => origins.has(new URL(chunk).origin));
    if (allowed.length) records.push({ kind, url: page.url, chunks: allowed });
  };
  const flight = inline.filter((text) => text.includes('__next_f'));
  if (flight.length) {
    const base = [...origins].find((o) => o !== new URL(page.url).origin) ?? page.url;
    add(
      'next-app-router',
      flight.flatMap((text) => nextChunks(text, base)),
    );
  }
  const svelte = inline.filter((text) => SVELTEKIT.test(text));
  if (svelte.length)
    add(
      'sveltekit',
      svelte.flatMap((text) => quotedScripts(text, page.url)),
    );
  const remix = inline.filter((text) => text.includes('__remixManifest'));
  if (remix.length)
    add(
      'remix',
      remix.flatMap((text) => quotedScripts(text, page.url)),
    );
  return records;
}

/** What a fetched manifest names, by kind. */
export function manifestChunks(kind: ManifestKind, text: string, url: string): ManifestRecord {
  switch (kind) {
    case 'next-build-manifest':
    case 'next-ssg-manifest':
      return { kind, url, chunks: nextChunks(text, new URL(url).origin), routes: nextManifestRoutes(text, kind) };
    case 'vite-preload':
      return { kind, url, chunks: vitePreloadChunks(text, url) };
    case 'remix':
      return { kind, url, chunks: quotedScripts(text, url), routes: remixManifestRoutes(text) };
    default:
      return { kind, url, chunks: quotedScripts(text, url) };
  }
}
