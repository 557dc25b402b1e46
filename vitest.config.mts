import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import pkg from './package.json' with { type: 'json' };
import { checkCount } from './scripts/check-count.mjs';

const root = import.meta.dirname;
const ROOTS = ['server', 'engine', 'common', 'electron', 'preload', 'renderer', 'tests/packaging'];
const TEST_FILE = /\.test\.tsx?$/;

/**
 * What makes a test file change its process for the files after it: module mocks, spies on shared modules, stubbed
 * globals or environment, fake timers, a changed working directory. Such files run each in a fresh process.
 */
const CHANGES_ITS_PROCESS =
  /vi\.(mock|doMock|spyOn|stubGlobal|stubEnv|useFakeTimers|mocked)\b|process\.env(\.[A-Za-z_]+|\[[^\]]+\]) = |delete process\.env|globalThis\.[A-Za-z]+ = |Object\.defineProperty\(globalThis|process\.chdir/;

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return TEST_FILE.test(entry.name) ? [path] : [];
  });
}

const all = ROOTS.flatMap(testFiles);
/**
 * Files that hold work to a budget of CPU time (engine/testing/cpu-time.ts): in a shared process a major garbage
 * collection of the heap that earlier files filled can land inside the measured work (53 ms alone, 830 ms shared).
 */
const MEASURES_CPU_TIME = /from '[./]*(engine\/)?testing\/cpu-time'/;

const isolated = all
  .filter((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return CHANGES_ITS_PROCESS.test(text) || MEASURES_CPU_TIME.test(text);
  })
  .map((file) => relative(root, join(root, file)));

export default defineConfig({
  resolve: { alias: { '@common': resolve(root, 'common') } },
  define: { __VIBEEVAL_VERSION__: JSON.stringify(pkg.version), __VIBEEVAL_CHECK_COUNT__: JSON.stringify(checkCount(root)) },
  test: {
    // One PostgreSQL for the run; each test server gets a database cloned from a migrated template.
    globalSetup: ['server/testing/global-postgres.ts'],
    // Integration tests start servers: give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time, each file making its own data dirs, ports and databases; a file waits on servers, browsers
    // and PostgreSQL for much of its time. Budgets of synchronous work are held on CPU time
    // (engine/testing/cpu-time.ts), which the file beside it does not stretch.
    fileParallelism: true,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // Most files leave their process as they found it: they share a worker process and its loaded modules (the
        // server's whole module graph takes seconds to load, once per process instead of once per file).
        test: { name: 'shared', include: all, exclude: isolated, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
    ],
  },
});
