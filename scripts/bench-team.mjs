// npm run bench:team [--scans N] [--pages N] [--workers 1,2,4]: bundles the team benchmark (TypeScript) with esbuild
// and runs it against the built server (out/) on a Debian PostgreSQL server it starts (scripts/team/postgres.mjs).
import { runBundled } from './bench/run-bundled.mjs';

await runBundled('team-bench', { entry: 'scripts/bench/team-bench.ts' });
