// npm run bench:accuracy [--json] [--only <app id part>] [--concurrency N]: bundles the corpus runner
// (engine/testing/corpus/run.ts, TypeScript) with esbuild and runs it.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// Inside node_modules so the bundle's external packages resolve from the project.
const dir = new URL('../node_modules/.cache/vibeeval-accuracy', import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
const outfile = join(dir, 'accuracy-bench.cjs');
await build({
  stdin: {
    contents: "import { main } from './engine/testing/corpus/run';\nmain(process.argv.slice(2)).then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });\n",
    resolveDir: root,
    loader: 'ts',
    sourcefile: 'accuracy-bench.ts',
  },
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit' });
rmSync(dir, { recursive: true, force: true });
process.exit(result.status ?? 1);
