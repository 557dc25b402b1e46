// npm run bench:scenarios: bundles the benchmark (TypeScript) with esbuild and runs it.
import { runBundled } from './bench/run-bundled.mjs';

await runBundled('scenarios-bench', { entry: 'scripts/bench/scenarios-bench.ts' });
