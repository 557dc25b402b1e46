// What the browser benches (bench:paint, bench:dashboard, bench:early-input) share: their options, the Chromium they
// drive, and the built server of a checkout started on a fresh data dir on a free loopback port, then stopped and
// its files removed.
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `--runs <n>`, `--root <checkout>` (to measure another commit's build with this script) and `--browser shell|full`.
 * Exits with a message when the checkout has no build.
 */
export function benchOptions(command, { runs: defaultRuns }) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
  };
  const root = resolve(option('root', new URL('../..', import.meta.url).pathname));
  if (!existsSync(join(root, 'out/main/cli.js')) || !existsSync(join(root, 'out/renderer/index.html'))) {
    console.error(`${command} needs the built app in ${root}: run \`npm run build\` first.`);
    process.exit(2);
  }
  return { root, runs: Number(option('runs', String(defaultRuns))), browser: option('browser', 'shell') };
}

/**
 * Chromium's headless shell, as the engine and the tests use (engine/browser.ts); `full` the full browser's headless
 * mode (closer to a desktop window's process model); VIBEEVAL_CHROMIUM any other.
 */
export function chromiumPath(browser) {
  return [
    process.env.VIBEEVAL_CHROMIUM,
    ...(browser === 'full' ? [] : ['/usr/lib/chromium/chromium-headless-shell']),
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ].find((path) => path && existsSync(path));
}

const freePort = () =>
  new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/**
 * Starts `root`'s built server in web mode on a fresh data dir (no queue worker: the benches run no scan) and waits
 * for /health, then launches Chromium. With `ownRenderer`, the server serves a copy of the built renderer
 * (`rendererDir`), where a bench writes its static reference pages before `start()`: the server serves only the
 * files it finds when it starts.
 */
export async function servedApp({ root, name, browser: browserKind, ownRenderer = false }) {
  const work = mkdtempSync(join(tmpdir(), `vibeeval-${name}-`));
  const rendererDir = ownRenderer ? join(work, 'renderer') : undefined;
  if (rendererDir) cpSync(join(root, 'out/renderer'), rendererDir, { recursive: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const executablePath = chromiumPath(browserKind);
  let server;
  let browser;
  const stop = async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      server.kill('SIGINT');
      await new Promise((done) => server.once('exit', done));
    }
    rmSync(work, { recursive: true, force: true });
  };
  const start = async () => {
    server = spawn(process.execPath, [join(root, 'bin/vibeeval.cjs'), 'serve'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        VIBEEVAL_DATA_DIR: join(work, 'data'),
        ...(rendererDir ? { VIBEEVAL_RENDERER_DIR: rendererDir } : {}),
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        SMTP_URL: '',
        VIBEEVAL_SCAN_CONCURRENCY: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; ; i++) {
      if (
        await fetch(`${origin}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before it answered /health`);
      if (i > 600) throw new Error('the server did not start');
      await new Promise((done) => setTimeout(done, 100));
    }
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
    return browser;
  };
  return { origin, rendererDir, chromiumPath: executablePath, start, stop };
}

/** The lower median of the finite values (NaN when there is none): a missed measurement does not count. */
export const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
};
