// npm run bench:scenarios: bundles the benchmark (TypeScript) with esbuild and runs it.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// Inside node_modules so the bundle's external packages resolve from the project.
const dir = new URL('../node_modules/.cache/vibeeval-bench-scenarios', import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
const outfile = join(dir, 'scenarios-bench.cjs');
await build({
  entryPoints: [new URL('./bench/scenarios-bench.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const env = { ...process.env, VIBEEVAL_FIXTURES_DIR: new URL('../tests/fixtures', import.meta.url).pathname };
const result = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit', env });
rmSync(dir, { recursive: true, force: true });
process.exit(result.status ?? 1);
