import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json';

const common = resolve(__dirname, 'common');

/**
 * Writes a .br and a .gz beside every text asset of the renderer build, which the server sends to browsers that
 * accept them (@fastify/static `preCompressed`): compressed once at build time at the highest levels, instead of
 * on every request.
 */
function precompress() {
  return {
    name: 'vibeeval:precompress',
    apply: 'build' as const,
    writeBundle(options: { dir?: string }) {
      if (!options.dir) return;
      const dir = options.dir;
      const walk = (folder: string): string[] =>
        readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)]));
      for (const file of walk(dir).filter((name) => /\.(js|css|html|svg|json)$/.test(name))) {
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

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
    plugins: [react(), { name: 'vibeeval:absolute-base', enforce: 'post', config: () => ({ base: '/' }) }, precompress()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      sourcemap: process.env.VIBEEVAL_SOURCEMAP === '1',
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
