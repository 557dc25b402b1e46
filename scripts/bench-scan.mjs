// npm run bench:scan [runs]: bundles the benchmark (TypeScript) with esbuild and runs it.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'vibeeval-bench-'));
const outfile = join(dir, 'scan-bench.cjs');
await build({
  entryPoints: [new URL('./bench/scan-bench.ts', import.meta.url).pathname],
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
