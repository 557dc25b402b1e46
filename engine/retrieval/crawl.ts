import { randomBytes } from 'node:crypto';
import robotsParser from 'robots-parser';
import { Parser } from 'htmlparser2';
import type { Asset, Exchange, Page } from '../types';
import type { Fetcher } from './fetcher';
import { parseHtml } from './html';
import { assetOrigins, manifestChunks, manifestUrls, pageChunkLists, staticRoutes, type ManifestKind, type ManifestRecord } from './manifests';

/** Paths that are never HTML pages; links to them are not crawled as pages. */
const NOT_A_PAGE =
  /\.(png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|woff2?|ttf|otf|eot|css|m?js|map|json|xml|txt|pdf|zip|gz|tgz|rar|7z|tar|mp[34]|webm|ogg|wav|mov|avi|docx?|xlsx?|pptx?|csv|exe|dmg|apk|wasm)$/i;

const MAX_SITEMAP_URLS = 5_000;
const MAX_SITEMAPS = 5;
const MAX_SCRIPTS = 150;
const MAX_STYLESHEETS = 40;
const MAX_SOURCEMAPS = 40;
const MAX_CHUNK_DEPTH = 2;

export interface CrawlResult {
  root: Exchange;
  pages: Page[];
  assets: Asset[];
  robots?: Exchange;
  sitemap?: Exchange;
  notFound?: Exchange;
  warnings: string[];
  /** The framework manifests and chunk lists read, and the scripts each named (fetched up to a per-scan cap). */
  manifests: ManifestRecord[];
}

export interface CrawlOptions {
  maxPages: number;
  onPage?: (done: number, total: number) => void;
  /** Called as soon as the start page has answered, before the rest is crawled (rendering can start there). */
  onRoot?: (root: Exchange) => void;
  signal?: AbortSignal;
}

/** A crawl key: the URL without its fragment, with a trailing-slash-insensitive path. */
export function normalizePageUrl(raw: string): string {
  const url = new URL(raw);
  url.hash = '';
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.slice(0, -1);
  return url.href;
}

function isHtml(exchange: Exchange): boolean {
  return /html/i.test(exchange.contentType) || (!exchange.contentType && /^\s*<(!doctype html|html)/i.test(exchange.body));
}

/** Locations listed in a sitemap (<loc>), and whether it is a sitemap index. */
export function parseSitemap(xml: string): { urls: string[]; sitemaps: string[] } {
  const urls: string[] = [];
  const sitemaps: string[] = [];
  let inLoc = false;
  let inIndex = false;
  let text = '';
  const parser = new Parser(
    {
      onopentag(name) {
        const local = name.split(':').pop();
        if (local === 'sitemapindex') inIndex = true;
        if (local === 'loc') {
          inLoc = true;
          text = '';
        }
      },
      ontext(chunk) {
        if (inLoc) text += chunk;
      },
      onclosetag(name) {
        if (name.split(':').pop() === 'loc') {
          inLoc = false;
          const loc = text.trim();
          if (loc) (inIndex ? sitemaps : urls).push(loc);
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return { urls, sitemaps };
}

/** Script URLs a bundle loads lazily (Vite and webpack chunks), resolved against the script. */
export function findChunkUrls(code: string, scriptUrl: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /import\(\s*["'`]([^"'`\s]+?\.m?js)["'`]\s*\)/g,
    /\bfrom\s*["']([^"'\s]+?\.m?js)["']/g,
    /["'`]((?:\.{0,2}\/)?(?:assets|static\/chunks|_next\/static\/chunks|js|chunks|_nuxt|_app\/immutable|build)\/[\w@./-]+?\.m?js)["'`]/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) {
      const spec = match[1]!;
      if (/^[a-z]+:/i.test(spec) && !/^https?:/i.test(spec)) continue;
      try {
        // Vite's preload list holds paths relative to the site root ("assets/x.js"); relative imports resolve against the script.
        // Next writes its chunks relative to /_next/ ("static/chunks/x.js").
        const next = spec.startsWith('static/chunks/') && new URL(scriptUrl).pathname.startsWith('/_next/');
        const base = next ? new URL('/_next/', scriptUrl).href : /^(assets|static|_next|js|chunks|_nuxt|_app|build)\//.test(spec) ? new URL('/', scriptUrl).href : scriptUrl;
        found.add(new URL(spec, base).href);
      } catch {
        // not a URL
      }
    }
  }
  return [...found];
}

/** The source map a script or stylesheet points to, by header or trailing comment. */
export function findSourceMapUrl(exchange: Exchange): string | undefined {
  const header = exchange.headers.find(([name]) => name === 'sourcemap' || name === 'x-sourcemap')?.[1];
  const tail = exchange.body.slice(-2_000);
  const comment = /[#@]\s*sourceMappingURL=([^\s'"*]+)\s*(?:\*\/\s*)?$/.exec(tail)?.[1];
  const ref = header ?? comment;
  if (!ref || ref.startsWith('data:')) return undefined;
  try {
    return new URL(ref, exchange.finalUrl).href;
  } catch {
    return undefined;
  }
}

/**
 * Crawls same-origin pages breadth-first from the start URL, through links, the sitemap and robots.txt,
 * then fetches the scripts, stylesheets and source maps they reference.
 */
interface QueuedPage {
  url: string;
  depth: number;
  source: Page['source'];
}

/** `work` over `items`, at most `limit` at a time; the answers in the items' order. */
async function inOrder<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) answers[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return answers;
}

/** The sitemaps robots.txt names on this origin (else /sitemap.xml) and nested ones, within the caps: the first that answered and the page URLs they list. */
async function readSitemaps(fetcher: Fetcher, origin: string, named: readonly string[]): Promise<{ sitemap?: Exchange; urls: string[] }> {
  const sitemapUrls = named.filter((url) => url.startsWith(origin));
  if (sitemapUrls.length === 0) sitemapUrls.push(`${origin}/sitemap.xml`);
  let sitemap: Exchange | undefined;
  const fromSitemaps: string[] = [];
  for (let i = 0; i < sitemapUrls.length && i < MAX_SITEMAPS && fromSitemaps.length < MAX_SITEMAP_URLS; i++) {
    const answer = await fetcher.fetch({ url: sitemapUrls[i]!, headers: { accept: 'application/xml,text/xml,*/*' } });
    if (answer.status !== 200 || !/<(urlset|sitemapindex)\b/i.test(answer.body.slice(0, 2_000))) continue;
    sitemap ??= answer;
    const parsed = parseSitemap(answer.body);
    fromSitemaps.push(...parsed.urls);
    for (const nested of parsed.sitemaps) if (nested.startsWith(origin) && !sitemapUrls.includes(nested)) sitemapUrls.push(nested);
  }
  return { sitemap, urls: fromSitemaps };
}

export async function crawl(fetcher: Fetcher, startUrl: string, options: CrawlOptions): Promise<CrawlResult> {
  const warnings: string[] = [];
  const root = await fetcher.fetch({ url: startUrl });
  if (root.status !== 0) options.onRoot?.(root);
  const origin = new URL(root.error ? startUrl : root.finalUrl).origin;
  const pages: Page[] = [];
  const seen = new Set<string>();
  const queue: QueuedPage[] = [];

  const enqueue = (url: string, depth: number, source: Page['source']) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return;
    }
    if (parsed.origin !== origin || NOT_A_PAGE.test(parsed.pathname)) return;
    const key = normalizePageUrl(parsed.href);
    if (seen.has(key)) return;
    seen.add(key);
    queue.push({ url: parsed.href, depth, source });
  };

  const addPage = (exchange: Exchange, depth: number, source: Page['source']) => {
    const page: Page = { url: exchange.finalUrl, depth, source, exchange };
    if (isHtml(exchange) && exchange.body) page.html = parseHtml(exchange.body, exchange.finalUrl);
    pages.push(page);
    options.onPage?.(pages.length, Math.min(options.maxPages, pages.length + queue.length));
    if (page.html && new URL(exchange.finalUrl).origin === origin) {
      for (const link of page.html.links) enqueue(link, depth + 1, 'link');
    }
  };

  seen.add(normalizePageUrl(startUrl));
  if (!root.error) seen.add(normalizePageUrl(root.finalUrl));
  addPage(root, 0, 'start');

  // robots.txt, the sitemap(s) and a soft-404 baseline, fetched while the root's links are queued.
  const randomPath = `/vibeeval-${randomBytes(6).toString('hex')}-not-found.html`;
  const [robots, notFound] = await Promise.all([
    fetcher.fetch({ url: `${origin}/robots.txt`, headers: { accept: 'text/plain,*/*' } }),
    fetcher.fetch({ url: `${origin}${randomPath}` }),
  ]);
  const robotsOk = robots.status === 200 && !/html/i.test(robots.contentType) && robots.body.length > 0;
  const robotsRules = robotsOk ? robotsParser(`${origin}/robots.txt`, robots.body) : undefined;
  if (robots.error) warnings.push(`robots.txt: ${robots.error}`);
  const { sitemap, urls: fromSitemaps } = await readSitemaps(fetcher, origin, robotsRules?.getSitemaps() ?? []);
  for (const url of fromSitemaps.slice(0, MAX_SITEMAP_URLS)) enqueue(url, 1, 'sitemap');

  // Paths named in robots.txt (Allow and Disallow alike) are often the interesting ones.
  if (robotsOk) {
    for (const line of robots.body.split(/\r?\n/)) {
      const path = /^\s*(?:dis)?allow\s*:\s*(\/[^\s*$#?]*)/i.exec(line)?.[1];
      if (path && path !== '/') enqueue(`${origin}${path}`, 1, 'robots');
    }
  }

  // Page routes framework manifests list (an admin screen no page links to), after what the start page links to.
  const manifestAnswers = new Map<string, Exchange>();
  const readRoutes = async (from: readonly Page[]) => {
    for (const { route, depth } of await manifestRoutes(fetcher, from, origin, manifestAnswers)) enqueue(`${origin}${route}`, depth, 'link');
  };
  await readRoutes(pages);
  let routesRead = pages.length;

  // Breadth-first, level by level, a few pages at a time. Each level's answers are taken in the order its links were
  // found, not the order they arrived, so a site with more pages than the budget gives the same pages every scan.
  const workers = Math.min(8, Math.max(1, options.maxPages));
  const visit = (item: QueuedPage, exchange: Exchange) => {
    if (exchange.error && exchange.status === 0) {
      warnings.push(`${item.url}: ${exchange.error}`);
      return;
    }
    const finalKey = normalizePageUrl(exchange.finalUrl);
    if (finalKey !== normalizePageUrl(item.url)) {
      if (new URL(exchange.finalUrl).origin !== origin || seen.has(finalKey)) return;
      seen.add(finalKey);
    }
    addPage(exchange, item.depth, item.source);
  };
  while (queue.length > 0 && pages.length < options.maxPages && !options.signal?.aborted) {
    const level = queue.splice(0);
    for (let taken = 0; taken < level.length && pages.length < options.maxPages && !options.signal?.aborted;) {
      // As many as the budget has room for; pages that fail leave room for the next ones of the level.
      const batch = level.slice(taken, taken + options.maxPages - pages.length);
      taken += batch.length;
      const answers = await inOrder(batch, workers, (item) => fetcher.fetch({ url: item.url }));
      batch.forEach((item, i) => visit(item, answers[i]!));
    }
    // The level's pages may name a manifest the earlier ones did not (another build, a Remix route's own).
    if (pages.length < options.maxPages && !options.signal?.aborted) await readRoutes(pages.slice(routesRead));
    routesRead = pages.length;
  }

  const { assets, manifests } = await fetchAssetsAndManifests(fetcher, pages, origin, options.signal, { fetched: manifestAnswers, notFound });
  return { root, pages, assets, robots: robotsOk || robots.status === 200 ? robots : undefined, sitemap, notFound, warnings, manifests };
}

/** Manifests whose routes are pages: Next's build and SSG manifests, Remix's. */
const ROUTE_MANIFESTS: ReadonlySet<ManifestKind> = new Set(['next-build-manifest', 'next-ssg-manifest', 'remix']);

/**
 * The static page routes the manifests these pages name list (no `[id]`, `$id`, `:id`), each at the depth below the
 * page that named it, in the order the pages and manifests were found. Each manifest is fetched once (kept in
 * `answers` for the asset phase), within the per-scan manifest cap.
 */
async function manifestRoutes(fetcher: Fetcher, from: readonly Page[], origin: string, answers: Map<string, Exchange>): Promise<Array<{ route: string; depth: number }>> {
  const wanted: Array<{ kind: ManifestKind; url: string; depth: number }> = [];
  for (const page of from) {
    const origins = assetOrigins([page], origin);
    for (const { kind, url } of manifestUrls(page)) {
      if (!ROUTE_MANIFESTS.has(kind) || answers.has(url) || wanted.some((w) => w.url === url) || !origins.has(new URL(url).origin)) continue;
      if (answers.size + wanted.length < MAX_MANIFESTS) wanted.push({ kind, url, depth: page.depth + 1 });
    }
  }
  const fetched = await Promise.all(wanted.map(({ url }) => fetcher.fetch({ url, headers: { accept: '*/*' } })));
  const routes: Array<{ route: string; depth: number }> = [];
  wanted.forEach(({ kind, url, depth }, i) => {
    const answer = fetched[i]!;
    answers.set(url, answer);
    if (answer.status !== 200) return;
    for (const route of staticRoutes(manifestChunks(kind, answer.body, answer.finalUrl).routes ?? [])) routes.push({ route, depth });
  });
  return routes;
}

/**
 * Chunks fetched because a framework manifest or preload list named them, per scan. A Next build lists every route's
 * chunks (a large app: a few hundred); past this many, the rest of a huge build is left out rather than slowing
 * every scan of it.
 */
const MAX_MANIFEST_CHUNKS = 200;
/** Manifests fetched per scan (a build has one or two; a site mixing builds a few more). */
const MAX_MANIFESTS = 6;

/** Assets and the manifests that named some of them. */
export interface AssetsResult {
  assets: Asset[];
  manifests: ManifestRecord[];
}

/** Fetches scripts (any origin), same-origin stylesheets, lazily loaded chunks and source maps. */
export async function fetchAssets(fetcher: Fetcher, pages: Page[], origin: string, signal?: AbortSignal): Promise<Asset[]> {
  return (await fetchAssetsAndManifests(fetcher, pages, origin, signal)).assets;
}

interface ScriptItem {
  url: string;
  referrer: string;
  depth: number;
  /** Set for a manifest fetched for its chunk list. */
  manifest?: ManifestKind;
}

/**
 * Scripts named by the pages' tags, by framework manifests and by the chunk lists in pages, then the chunks those
 * scripts load, in waves; manifest chunks come from the site's own origin or the asset origin its tags name.
 */
/** What the crawl already has that the asset phase can use. */
export interface CrawlExtras {
  /** Answers already fetched (the manifests the crawl read for their routes). */
  fetched?: ReadonlyMap<string, Exchange>;
  /** The answer to a path that cannot exist: a SvelteKit app's error page names its client entry. */
  notFound?: Exchange;
}

export async function fetchAssetsAndManifests(fetcher: Fetcher, pages: Page[], origin: string, signal?: AbortSignal, extras: CrawlExtras = {}): Promise<AssetsResult> {
  const fetched = extras.fetched ?? new Map<string, Exchange>();
  const assets: Asset[] = [];
  const manifests: ManifestRecord[] = [];
  const seen = new Set<string>();
  const origins = assetOrigins(pages, origin);
  const scripts: ScriptItem[] = [];
  const stylesheets: Array<{ url: string; referrer: string }> = [];
  let chunksTaken = 0;
  let manifestCount = 0;
  /** Queues a manifest's chunks (at depth 1: they may load further chunks) within the cap; returns those queued. */
  const takeManifestChunks = (record: ManifestRecord, queue: ScriptItem[]) => {
    const chunks = record.chunks.filter((chunk) => origins.has(new URL(chunk).origin));
    manifests.push({ ...record, chunks });
    for (const chunk of chunks) {
      if (seen.has(chunk) || chunksTaken >= MAX_MANIFEST_CHUNKS) continue;
      seen.add(chunk);
      chunksTaken++;
      queue.push({ url: chunk, referrer: record.url, depth: 1 });
    }
  };
  for (const page of pages) {
    for (const script of page.html?.scripts ?? []) {
      if (script.src && !seen.has(script.src) && scripts.length < MAX_SCRIPTS) {
        seen.add(script.src);
        scripts.push({ url: script.src, referrer: page.url, depth: 0 });
      }
    }
    for (const sheet of page.html?.stylesheets ?? []) {
      if (sheet.href.startsWith(origin) && !seen.has(sheet.href) && stylesheets.length < MAX_STYLESHEETS) {
        seen.add(sheet.href);
        stylesheets.push({ url: sheet.href, referrer: page.url });
      }
    }
  }
  for (const page of pages) {
    for (const record of pageChunkLists(page, origins)) takeManifestChunks(record, scripts);
    for (const { kind, url } of manifestUrls(page)) {
      const known = scripts.find((item) => item.url === url);
      if (known) known.manifest = kind;
      else if (!seen.has(url) && manifestCount < MAX_MANIFESTS && origins.has(new URL(url).origin)) {
        seen.add(url);
        manifestCount++;
        scripts.push({ url, referrer: page.url, depth: 0, manifest: kind });
      }
    }
  }

  const kit = await svelteKitFallback(fetcher, pages, origin, origins, extras.notFound);
  for (const record of kit.lists) takeManifestChunks(record, scripts);
  if (kit.version) manifests.push(kit.version);

  const maps: Array<{ url: string; referrer: string }> = [];
  const noteSourceMap = sourceMapNoter(seen, maps);
  await fetchScriptWaves(fetcher, scripts, { assets, seen, origins, noteSourceMap, takeManifestChunks, signal, fetched });

  const sheetResults = await Promise.all(stylesheets.map((item) => fetcher.fetch({ url: item.url, headers: { accept: 'text/css,*/*' } }).then((exchange) => ({ item, exchange }))));
  for (const { item, exchange } of sheetResults) {
    if (exchange.status === 0) continue;
    assets.push({ url: item.url, kind: 'stylesheet', referrer: item.referrer, exchange });
    if (exchange.status === 200) noteSourceMap(exchange);
  }

  const mapResults = await Promise.all(maps.map((item) => fetcher.fetch({ url: item.url, headers: { accept: 'application/json,*/*' } }).then((exchange) => ({ item, exchange }))));
  for (const { item, exchange } of mapResults) {
    if (exchange.status === 0) continue;
    assets.push({ url: item.url, kind: 'sourcemap', referrer: item.referrer, exchange });
  }
  return { assets, manifests };
}

/** A page of a SvelteKit app: its bootstrap, its data attributes or its immutable assets. */
const SVELTEKIT_HINT = /__sveltekit_|data-sveltekit-|\/_app\/immutable\//;

/**
 * For a SvelteKit app whose pages name no client entry (prerendered with csr off, pages behind a login redirect):
 * the entry its error page imports (the crawl's not-found answer, no extra request) and `/_app/version.json`, which
 * every SvelteKit build serves, recorded as the build's manifest. Nothing for other sites, or when a page names it.
 */
async function svelteKitFallback(
  fetcher: Fetcher,
  pages: Page[],
  origin: string,
  origins: ReadonlySet<string>,
  notFound: Exchange | undefined,
): Promise<{ lists: ManifestRecord[]; version?: ManifestRecord }> {
  const bodies = pages.map((page) => page.exchange.body.slice(0, 200_000));
  if (!bodies.some((body) => SVELTEKIT_HINT.test(body)) || bodies.some((body) => body.includes('/_app/immutable/entry/'))) return { lists: [] };
  const lists: ManifestRecord[] = [];
  if (notFound?.body && /html/i.test(notFound.contentType) && notFound.body.includes('/_app/immutable/entry/')) {
    const page: Page = { url: notFound.finalUrl, depth: 1, source: 'link', exchange: notFound, html: parseHtml(notFound.body, notFound.finalUrl) };
    lists.push(...pageChunkLists(page, origins).filter((record) => record.kind === 'sveltekit'));
    const tags = (page.html?.scripts ?? []).flatMap((script) => (script.src?.includes('/_app/immutable/') ? [script.src] : []));
    if (tags.length) lists.push({ kind: 'sveltekit', url: page.url, chunks: tags.filter((src) => origins.has(new URL(src).origin)) });
  }
  const url = `${origin}/_app/version.json`;
  const answer = await fetcher.fetch({ url, headers: { accept: 'application/json' } });
  let version: ManifestRecord | undefined;
  try {
    const body = answer.status === 200 ? (JSON.parse(answer.body) as { version?: unknown }) : undefined;
    if (typeof body?.version === 'string') version = { kind: 'sveltekit', url, chunks: [] };
  } catch {
    // not SvelteKit's version file
  }
  return { lists, version };
}

/** Records the source map an answer points to (same origin as the answer, within the cap). */
function sourceMapNoter(seen: Set<string>, maps: Array<{ url: string; referrer: string }>): (exchange: Exchange) => void {
  return (exchange) => {
    const map = findSourceMapUrl(exchange);
    if (map && !seen.has(map) && maps.length < MAX_SOURCEMAPS && new URL(map).origin === new URL(exchange.finalUrl).origin) {
      seen.add(map);
      maps.push({ url: map, referrer: exchange.finalUrl });
    }
  };
}

interface WaveContext {
  assets: Asset[];
  seen: Set<string>;
  origins: ReadonlySet<string>;
  noteSourceMap: (exchange: Exchange) => void;
  takeManifestChunks: (record: ManifestRecord, queue: ScriptItem[]) => void;
  signal?: AbortSignal;
  /** Answers already fetched (the manifests the crawl read for their routes). */
  fetched: ReadonlyMap<string, Exchange>;
}

/** Scripts in waves: each wave's bundles (on the site's or its asset origin) may name further chunks. */
async function fetchScriptWaves(fetcher: Fetcher, first: ScriptItem[], ctx: WaveContext): Promise<void> {
  const { assets, seen, origins } = ctx;
  let wave = first.splice(0);
  while (wave.length && !ctx.signal?.aborted) {
    const fetch = (item: ScriptItem) => Promise.resolve(ctx.fetched.get(item.url) ?? fetcher.fetch({ url: item.url, headers: { accept: '*/*' } }));
    const results = await Promise.all(wave.map((item) => fetch(item).then((exchange) => ({ item, exchange }))));
    const nextWave: ScriptItem[] = [];
    for (const { item, exchange } of results) {
      if (exchange.status === 0) continue;
      assets.push({ url: item.url, kind: 'script', referrer: item.referrer, exchange });
      if (exchange.status !== 200 || !origins.has(new URL(exchange.finalUrl).origin)) continue;
      ctx.noteSourceMap(exchange);
      if (item.manifest) {
        // A manifest's chunks are read by its own reader, under the manifest cap.
        ctx.takeManifestChunks(manifestChunks(item.manifest, exchange.body, exchange.finalUrl), nextWave);
        continue;
      }
      if (exchange.body.includes('__vite__mapDeps')) ctx.takeManifestChunks(manifestChunks('vite-preload', exchange.body, exchange.finalUrl), nextWave);
      if (item.depth >= MAX_CHUNK_DEPTH) continue;
      for (const chunk of findChunkUrls(exchange.body, exchange.finalUrl)) {
        if (seen.has(chunk) || !origins.has(new URL(chunk).origin) || seen.size >= MAX_SCRIPTS * 2) continue;
        seen.add(chunk);
        nextWave.push({ url: chunk, referrer: item.url, depth: item.depth + 1 });
      }
    }
    wave = nextWave;
  }
}
