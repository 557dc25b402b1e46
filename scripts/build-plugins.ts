import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Plugin, UserConfig } from 'vite';
import { PRERENDERED_PAGES, prerenderedPageFile } from '../common/prerender';
import { escapeText } from '../engine/html-kit';

/**
 * Writes `file.br` and `file.gz` beside a text file of 1 KB or more, at the highest levels. An HTML page gets the
 * .gz only: measured in headless Chromium on loopback, the same prerendered page with JavaScript off paints its
 * first content 150 to 300 ms later as brotli level 11 than as gzip (brotli level 5 is as quick as gzip; the HTML
 * parser seems to get level 11's output in larger pieces), while for scripts, parsed whole, brotli's smaller size
 * is pure gain.
 */
function compressBeside(file: string): void {
  const content = readFileSync(file);
  if (content.length < 1024) return;
  rmSync(`${file}.br`, { force: true });
  if (!file.endsWith('.html'))
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } }));
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
}

/**
 * Writes a .br and a .gz beside every text asset of the renderer build, which the server sends to browsers that
 * accept them (@fastify/static `preCompressed`): compressed once at build time at the highest levels, instead of
 * on every request.
 */
export function precompress(): Plugin {
  return {
    name: 'vibeeval:precompress',
    apply: 'build',
    writeBundle(options) {
      if (!options.dir) return;
      const walk = (folder: string): string[] =>
        readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)]));
      for (const file of walk(options.dir).filter((name) => /\.(js|css|html|svg|json)$/.test(name))) compressBeside(file);
    },
  };
}

interface PrerenderedPage {
  html: string;
  styles: string;
  title: string;
  /** Markup to put after #root: the parts the start script paints the page's first data with. */
  templates?: string;
}

interface PrerenderModule {
  renderPage(pathname: string): Promise<PrerenderedPage>;
}

/**
 * Where a prerendered page's markup ends. The browser renders nothing before it has parsed that far (`<link
 * rel="expect" blocking="render">`): without it, a page whose content is centred (the sign-in card) was sometimes
 * painted half parsed and then moved as the rest arrived, a layout shift of 0.02 to 0.06.
 */
const PRERENDER_END_ID = 'prerendered-end';

const MODULE_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;

/**
 * The built index.html with a page's markup in #root, its styles in <head> and its title. The app's entry and its
 * preloads are not in <head>: `startScript` (renderer/start-after-paint.js, a classic script first in <head>, so a
 * signed-in page's data is asked for before the page is parsed) adds them once the page has painted, so that the
 * browser paints the HTML before it evaluates the app.
 */
export function pageDocument(template: string, pathname: string, page: PrerenderedPage, startScript: string): string {
  const root = '<div id="root"></div>';
  if (!template.includes(root) || !template.includes('</head>')) throw new Error('index.html has no empty <div id="root"> or no </head>');
  const entries = [...template.matchAll(MODULE_SCRIPT)].map((match) => match[1]!);
  if (entries.length !== 1) throw new Error(`index.html has ${entries.length} module scripts; the prerendered pages start exactly one`);
  const preloads = [...template.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  // On a dashboard page the start script runs at once, before the rest of the page is parsed (the parser takes 30 ms
  // or more for a page and its styles, and runs an async script only once it is done): it asks for a signed-in
  // user's data. Elsewhere it may wait (async), so it never holds the parser.
  const when = pathname.startsWith('/dashboard') ? '' : ' async';
  const start = `<script src="${startScript}" data-main="${entries[0]}" data-preload="${preloads.join(' ')}"${when}></script>`;
  const charset = /<meta charset="[^"]*"\s*\/?>/;
  if (!charset.test(template)) throw new Error('index.html has no <meta charset>');
  return template
    .replace(MODULE_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace(charset, (meta) => `${meta}${start}`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeText(page.title)}</title>`)
    .replace('</head>', `${page.styles}<link rel="expect" href="#${PRERENDER_END_ID}" blocking="render"></head>`)
    .replace(root, `<div id="root" data-prerendered="${pathname}">${page.html}</div>${page.templates ?? ''}<div id="${PRERENDER_END_ID}" hidden></div>`);
}

/**
 * Loads renderer/before-app.js (written into assets/ under its content hash, at `src`) from the page's <head>,
 * first thing: it keeps the visitor's clicks and typing for the app, which runs only later. Async so the HTML is
 * parsed meanwhile, render-blocking so nothing can be clicked before it listens.
 */
export function withBeforeAppScript(document: string, src: string): string {
  const charset = /<meta charset="[^"]*"\s*\/?>/;
  if (!charset.test(document)) throw new Error('index.html has no <meta charset>');
  return document.replace(charset, (meta) => `${meta}<script src="${src}" async blocking="render"></script>`);
}

/**
 * renderer/src/first-paint.ts bundled on its own as a classic script (an IIFE, minified): the painter of a page's
 * first data, which runs before the app's modules and must not carry them.
 */
async function bundleFirstPaint(entry: string, config: Pick<UserConfig, 'root' | 'resolve' | 'define' | 'plugins'>): Promise<string> {
  const { build } = await import('vite');
  const result = await build({
    ...config,
    configFile: false,
    logLevel: 'warn',
    build: { write: false, minify: true, lib: { entry, formats: ['iife'], name: 'vibeevalFirstPaint' } },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((item) => ('output' in item ? item.output : []));
  const chunks = outputs.filter((output) => output.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`the first-paint bundle came out as ${chunks.length} chunks; expected one`);
  return chunks[0]!.code;
}

/** Writes renderer/start-after-paint.js into assets/ under its content hash; its path on the server. */
function writeStartScript(outDir: string, source: string): string {
  const name = `assets/start-after-paint-${createHash('sha256').update(source).digest('hex').slice(0, 10)}.js`;
  writeFileSync(join(outDir, name), source);
  compressBeside(join(outDir, name));
  return `/${name}`;
}

/** Writes a classic script into assets/ as `<name>-<content hash>.js`, compressed; its path on the server. */
function writeHashedScript(outDir: string, name: string, source: string): string {
  const file = `assets/${name}-${createHash('sha256').update(source).digest('hex').slice(0, 10)}.js`;
  writeFileSync(join(outDir, file), source);
  compressBeside(join(outDir, file));
  return `/${file}`;
}

/**
 * Prerenders the routes of common/prerender.ts once the renderer bundle is written: builds
 * renderer/src/prerender.tsx for Node with the renderer's own settings, renders each route with it, and writes
 * out/renderer/pages/<route>.html (the built index.html with the page in it), compressed like the assets.
 * The page's scripts are the app's, started after the first paint: the browser paints the HTML, then React hydrates it.
 */
export function prerenderPages(options: {
  entry: string;
  startScript: string;
  /** renderer/src/first-paint.ts: bundled ahead of the start script. */
  firstPaint: string;
  beforeAppScript: string;
  ssrOutDir: string;
  config: () => Pick<UserConfig, 'root' | 'resolve' | 'define' | 'plugins'>;
}): Plugin {
  let outDir = '';
  return {
    name: 'vibeeval:prerender',
    apply: 'build',
    writeBundle(output) {
      outDir = output.dir ?? '';
    },
    async closeBundle() {
      if (!outDir) return;
      const { build } = await import('vite');
      rmSync(options.ssrOutDir, { recursive: true, force: true });
      await build({
        ...options.config(),
        configFile: false,
        logLevel: 'warn',
        build: {
          ssr: options.entry,
          outDir: options.ssrOutDir,
          emptyOutDir: true,
          minify: false,
          rollupOptions: { output: { format: 'esm', entryFileNames: 'prerender.mjs', chunkFileNames: '[name]-[hash].mjs' } },
        },
      });
      const renderer = (await import(pathToFileURL(join(options.ssrOutDir, 'prerender.mjs')).href)) as PrerenderModule;
      const template = readFileSync(join(outDir, 'index.html'), 'utf8');
      const firstPaint = await bundleFirstPaint(options.firstPaint, options.config());
      const startScript = writeStartScript(outDir, `${firstPaint}\n${readFileSync(options.startScript, 'utf8')}`);
      const beforeAppScript = writeHashedScript(outDir, 'before-app', readFileSync(options.beforeAppScript, 'utf8'));
      for (const { route, renderAt } of PRERENDERED_PAGES) {
        const file = join(outDir, prerenderedPageFile(renderAt)!);
        mkdirSync(dirname(file), { recursive: true });
        const page = pageDocument(template, route, await renderer.renderPage(renderAt), startScript);
        writeFileSync(file, withBeforeAppScript(page, beforeAppScript));
        compressBeside(file);
      }
      // The pages that are not prerendered (a project's page) get index.html: the start script runs there first
      // and only asks for the page's data, while the entry and its preloads load as the HTML names them.
      const index = join(outDir, 'index.html');
      writeFileSync(index, withDataScript(template, startScript));
      compressBeside(index);
      rmSync(options.ssrOutDir, { recursive: true, force: true });
    },
  };
}

/**
 * index.html with `startScript` before the app's entry: without data-main it starts nothing, it asks for a
 * signed-in dashboard page's first data, as on the prerendered pages. A classic script in <head>, so it has run
 * before the entry module (deferred) asks for anything.
 */
export function withDataScript(template: string, startScript: string): string {
  const entries = [...template.matchAll(MODULE_SCRIPT)];
  if (entries.length !== 1) throw new Error(`index.html has ${entries.length} module scripts; expected one`);
  return template.replace(MODULE_SCRIPT, (entry) => `<script src="${startScript}"></script>\n    ${entry}`);
}
