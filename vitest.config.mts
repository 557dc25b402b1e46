import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import pkg from './package.json';

export default defineConfig({
  resolve: { alias: { '@common': resolve(__dirname, 'common') } },
  define: { __VIBEEVAL_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['{server,engine,common,electron,preload,renderer}/**/*.test.{ts,tsx}', 'tests/packaging/**/*.test.ts'],
    // Integration tests start PostgreSQL servers: give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time, each in a process of its own: every file makes its own data dirs, ports and databases, and
    // a file waits on servers, browsers and PostgreSQL for much of its time. Budgets of synchronous work are held on
    // CPU time (engine/testing/cpu-time.ts), which the file beside it does not stretch.
    fileParallelism: true,
    pool: 'forks',
    maxWorkers: 2,
  },
});
