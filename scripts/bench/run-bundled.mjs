// What the bench:* commands share: bundle a TypeScript entry with esbuild (the project's packages stay external)
// into node_modules/.cache, where those packages resolve, run it with the command's arguments, clean up, and exit
// with its status.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * @param {string} name  the cache folder and bundle name, e.g. 'scan-bench'
 * @param {{ entry?: string, contents?: string }} source  a file under the project, or code resolved from its root
 */
export async function runBundled(name, source) {
  const dir = join(ROOT, 'node_modules', '.cache', `vibeeval-${name}`);
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${name}.cjs`);
  const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', logLevel: 'warning' };
  await build({
    ...common,
    ...(source.entry ? { entryPoints: [join(ROOT, source.entry)] } : { stdin: { contents: source.contents ?? '', resolveDir: ROOT, loader: 'ts', sourcefile: `${name}.ts` } }),
    outfile,
  });
  // Scans run their checks in a worker thread, found beside the bundle (engine/isolation/worker-script.ts).
  await build({ ...common, entryPoints: [join(ROOT, 'engine/isolation/check-worker.ts')], outfile: join(dir, 'check-worker.js') });
  const env = { ...process.env, VIBEEVAL_FIXTURES_DIR: join(ROOT, 'tests', 'fixtures') };
  const result = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit', env });
  rmSync(dir, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}
