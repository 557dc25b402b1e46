import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json';
import { precompress, prerenderPages } from './scripts/build-plugins';
import { checkCount } from './scripts/check-count.mjs';

const common = resolve(__dirname, 'common');
const rendererRoot = resolve(__dirname, 'renderer');
const rendererAlias = { '@common': common };
// The year the footer shows until the visitor's clock is read after hydration (see use-current-year.ts).
// The number of checks the marketing pages promise: the engine registry's, counted at build time.
const rendererDefine = { __VIBEEVAL_BUILD_YEAR__: JSON.stringify(new Date().getFullYear()), __VIBEEVAL_CHECK_COUNT__: JSON.stringify(checkCount(__dirname)) };

export default defineConfig({
  main: {
    resolve: { alias: { '@common': common } },
    define: { __VIBEEVAL_VERSION__: JSON.stringify(pkg.version) },
    build: {
      outDir: 'out/main',
      // esbuild bundles the check worker only when the engine runs from its TypeScript sources (tests); the built
      // app runs out/main/check-worker.js and must not carry esbuild in its bundle.
      externalizeDeps: { include: ['esbuild'] },
      rollupOptions: {
        // The server and CLI are built beside the Electron main process: the main process starts
        // `server.js` as a utility process, and web mode runs the same file with plain Node. Scans run their
        // checks in a worker thread started from `check-worker.js` (engine/isolation/worker-script.ts finds it).
        input: {
          index: resolve(__dirname, 'electron/main.ts'),
          server: resolve(__dirname, 'server/entry.ts'),
          cli: resolve(__dirname, 'server/cli.ts'),
          'check-worker': resolve(__dirname, 'engine/isolation/check-worker.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias: { '@common': common } },
    build: {
      // A sandboxed preload can require only 'electron': bundle zod and the contract into it.
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'preload/index.ts') } },
    },
  },
  renderer: {
    root: rendererRoot,
    resolve: { alias: rendererAlias },
    define: rendererDefine,
    // Absolute asset URLs: a page opened at a deep path (/dashboard/projects) must still find /assets/.
    // electron-vite forces base './' for the renderer; this plugin runs after it and sets '/'.
    plugins: [
      react(),
      { name: 'vibeeval:absolute-base', enforce: 'post', config: () => ({ base: '/' }) },
      precompress(),
      // The public pages and the dashboard shell as HTML, painted before any script runs.
      prerenderPages({
        entry: resolve(rendererRoot, 'src/prerender.tsx'),
        startScript: resolve(rendererRoot, 'start-after-paint.js'),
        firstPaint: resolve(rendererRoot, 'src/first-paint.ts'),
        beforeAppScript: resolve(rendererRoot, 'before-app.js'),
        ssrOutDir: resolve(__dirname, 'out/prerender'),
        config: () => ({ root: rendererRoot, resolve: { alias: rendererAlias }, define: rendererDefine, plugins: [react()] }),
      }),
    ],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      sourcemap: process.env.VIBEEVAL_SOURCEMAP === '1',
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
