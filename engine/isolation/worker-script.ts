import { existsSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKER_FILE = 'check-worker.js';

/**
 * The built worker beside the running bundle: electron-vite writes it to out/main/check-worker.js, and this code
 * runs from out/main/*.js or out/main/chunks/*.js. (Electron starts worker threads from inside app.asar since 18.)
 */
function builtWorker(): string | undefined {
  let dir = here();
  for (let i = 0; i < 3; i++, dir = dirname(dir)) {
    const candidate = join(dir, WORKER_FILE);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** This module's folder: a CommonJS bundle (electron-vite's, the benchmarks' esbuild one) has __filename; ESM has import.meta. */
function here(): string {
  return dirname(typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url));
}

const fromSource = new Map<string, Promise<string>>();
let tempDir: Promise<string> | undefined;

/**
 * Run from the TypeScript sources (vitest, tsx), a plain Worker cannot load the .ts entry: it is bundled once per
 * process with esbuild (a devDependency, imported only here) into a temporary .mjs file, removed at exit.
 * Production runs the built file and never reaches this.
 */
async function bundleFromSource(entry: string, index: number): Promise<string> {
  tempDir ??= mkdtemp(join(tmpdir(), 'vibeeval-check-worker-')).then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  const dir = await tempDir;
  const outfile = join(dir, `${index}-${entry.replace(/^.*[\\/]/, '').replace(/\.[cm]?ts$/, '')}.mjs`);
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    // Bundled CommonJS dependencies call require(): give the ES module one.
    banner: { js: "import { createRequire as __vibeevalRequire } from 'node:module'; const require = __vibeevalRequire(import.meta.url);" },
  });
  return outfile;
}

/** A loadable file for a module given as TypeScript source (bundled once per process) or as JavaScript (as is). */
export function loadable(path: string): Promise<string> {
  if (!/\.[cm]?ts$/.test(path)) return Promise.resolve(path);
  let built = fromSource.get(path);
  if (!built) {
    built = bundleFromSource(path, fromSource.size);
    fromSource.set(path, built);
  }
  return built;
}

/** The check worker's script: the built one beside the bundle, or the source bundled for this process. */
export function checkWorkerScript(): Promise<string> {
  const built = builtWorker();
  if (built) return Promise.resolve(built);
  return loadable(join(here(), 'check-worker.ts'));
}
