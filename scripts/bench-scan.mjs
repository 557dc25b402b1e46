// npm run bench:scan [runs] [spa|generated|signed-in]: bundles the benchmark (TypeScript) with esbuild and runs it.
import { runBundled } from './bench/run-bundled.mjs';

await runBundled('scan-bench', { entry: 'scripts/bench/scan-bench.ts' });
