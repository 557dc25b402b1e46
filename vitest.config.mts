import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import pkg from './package.json';

export default defineConfig({
  resolve: { alias: { '@common': resolve(__dirname, 'common') } },
  define: { __VIBEEVAL_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['{server,engine,common,electron,preload,renderer}/**/*.test.{ts,tsx}', 'tests/packaging/**/*.test.ts'],
    // One PostgreSQL for the run; each test server gets a database cloned from a migrated template.
    globalSetup: ['server/testing/global-postgres.ts'],
    // Integration tests start servers: give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
