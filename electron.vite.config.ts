import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json';

const common = resolve(__dirname, 'common');

export default defineConfig({
  main: {
    resolve: { alias: { '@common': common } },
    define: { __VIBEEVAL_VERSION__: JSON.stringify(pkg.version) },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // The server and CLI are built beside the Electron main process: the main process starts
        // `server.js` as a utility process, and web mode runs the same file with plain Node.
        input: {
          index: resolve(__dirname, 'electron/main.ts'),
          server: resolve(__dirname, 'server/entry.ts'),
          cli: resolve(__dirname, 'server/cli.ts'),
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
    root: resolve(__dirname, 'renderer'),
    resolve: { alias: { '@common': common } },
    // Absolute asset URLs: a page opened at a deep path (/dashboard/projects) must still find /assets/.
    // electron-vite forces base './' for the renderer; this plugin runs after it and sets '/'.
    plugins: [react(), { name: 'vibeeval:absolute-base', enforce: 'post', config: () => ({ base: '/' }) }],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      sourcemap: process.env.VIBEEVAL_SOURCEMAP === '1',
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
