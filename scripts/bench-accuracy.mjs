// npm run bench:accuracy [--json] [--only <app id part>] [--concurrency N]: bundles the corpus runner
// (engine/testing/corpus/run.ts, TypeScript) with esbuild and runs it.
import { runBundled } from './bench/run-bundled.mjs';

await runBundled('accuracy-bench', {
  contents:
    "import { main } from './engine/testing/corpus/run';\nmain(process.argv.slice(2)).then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });\n",
});
