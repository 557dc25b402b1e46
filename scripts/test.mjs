#!/usr/bin/env node
// `npm test`: makes sure the system packages the tests use are present (installing them with apt when run
// as root), then type-checks, lints, audits the Electron code (electronegativity), runs the unit tests (inside
// a D-Bus session with an unlocked keyring, for the keychain tests) and the Playwright tests in Chromium.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const hasLibsecret = () => spawnSync('sh', ['-c', 'pkg-config --exists libsecret-1 || ldconfig -p | grep -q libsecret-1.so.0'], { stdio: 'ignore' }).status === 0;

// Debian package → how we know it is there.
const needs = [
  ['chromium', () => Boolean(process.env.VIBEEVAL_CHROMIUM && existsSync(process.env.VIBEEVAL_CHROMIUM)) || has('chromium') || has('chromium-browser') || has('google-chrome')],
  // The engine's browser (scans, audits, scenario runs, PDF) and the Playwright tests' browser: Chromium's headless
  // shell, about three times faster than the full browser's headless mode on a 2-core machine (engine/browser.ts).
  ['chromium-headless-shell', () => Boolean(process.env.VIBEEVAL_CHROMIUM && existsSync(process.env.VIBEEVAL_CHROMIUM)) || existsSync('/usr/lib/chromium/chromium-headless-shell')],
  ['libsecret-1-dev', hasLibsecret],
  ['gnome-keyring', () => has('gnome-keyring-daemon')],
  ['dbus', () => has('dbus-daemon')],
  ['dbus-x11', () => has('dbus-run-session') && has('dbus-launch')],
  ['xvfb', () => has('xvfb-run')],
  // The scanner's HTTPS fixture site makes a throwaway CA and certificate with it.
  ['openssl', () => has('openssl')],
  // The team-mode tests start a real PostgreSQL server of their own (scripts/team/postgres.mjs).
  ['postgresql', () => ['15', '16', '17'].some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))],
];

// Each phase's wall time, printed at the end (and when a phase fails) so the next person sees where time goes.
// .ci/run passes the install's time in VIBEEVAL_CI_INSTALL_SECONDS.
const phases = [];
if (process.env.VIBEEVAL_CI_INSTALL_SECONDS) phases.push(['npm install', Number(process.env.VIBEEVAL_CI_INSTALL_SECONDS) * 1000, 'ok']);
const started = performance.now();

function printPhases() {
  const testMs = performance.now() - started;
  const installMs = Number(process.env.VIBEEVAL_CI_INSTALL_SECONDS ?? 0) * 1000;
  const rows = [...phases, ['npm test in all', testMs, 'ok'], ...(installMs ? [['npm install + npm test', installMs + testMs, 'ok']] : [])];
  const width = Math.max(...rows.map(([title]) => title.length));
  console.log('\nPhase times (wall clock):');
  for (const [title, ms, status] of rows) console.log(`  ${title.padEnd(width)}  ${(ms / 1000).toFixed(1).padStart(7)} s${status === 'ok' ? '' : `  ${status}`}`);
}

function step(title, command, args, options = {}) {
  console.log(`\n▶ ${title}`);
  const t0 = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  const failed = result.status !== 0;
  phases.push([title, performance.now() - t0, failed ? 'FAILED' : 'ok']);
  if (failed) {
    console.error(`\n✖ ${title} failed${result.status === null ? ` (${result.signal})` : ` (exit ${result.status})`}`);
    printPhases();
    process.exit(result.status ?? 1);
  }
}

/**
 * Steps that only read the sources (type-checks, lint, audit) run side by side: each alone leaves a core idle for much
 * of its time. Their output is held and printed whole, one step after another, so it never interleaves.
 */
async function sideBySide(steps) {
  const t0 = performance.now();
  const results = await Promise.all(
    steps.map(
      ([title, command, args]) =>
        new Promise((resolve) => {
          const started = performance.now();
          const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('error', (error) => resolve({ title, ms: performance.now() - started, status: 1, signal: null, output: [Buffer.from(String(error))] }));
          child.on('close', (status, signal) => resolve({ title, ms: performance.now() - started, status, signal, output }));
        }),
    ),
  );
  for (const { title, ms, status, output } of results) {
    console.log(`\n▶ ${title} (side by side)`);
    process.stdout.write(Buffer.concat(output));
    phases.push([`${title} (side by side)`, ms, status === 0 ? 'ok' : 'FAILED']);
  }
  phases.push(['  these side by side, wall', performance.now() - t0, 'ok']);
  const failed = results.filter((r) => r.status !== 0);
  if (failed.length > 0) {
    for (const { title, status, signal } of failed) console.error(`\n✖ ${title} failed${status === null ? ` (${signal})` : ` (exit ${status})`}`);
    printPhases();
    process.exit(failed[0].status ?? 1);
  }
}

const BUILD_INPUTS = ['electron', 'preload', 'renderer', 'server', 'engine', 'common', 'resources', 'electron.vite.config.ts', 'package.json', 'package-lock.json'];

/** The newest modification time (ms) under `path`, node_modules and test files aside. */
function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : info.mtimeMs;
  return Math.max(0, ...readdirSync(path).filter((name) => name !== 'node_modules').map((name) => newest(`${path}/${name}`)));
}

function buildIsStale() {
  const outputs = ['out/main/server.js', 'out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html'].map((file) => statSync(`${root}/${file}`, { throwIfNoEntry: false }));
  if (outputs.some((info) => !info)) return true;
  const built = Math.min(...outputs.map((info) => info.mtimeMs));
  return BUILD_INPUTS.some((input) => newest(`${root}/${input}`) > built);
}

let missing = needs.filter(([, present]) => !present()).map(([pkg]) => pkg);
if (missing.length > 0) {
  const canApt = process.platform === 'linux' && process.getuid?.() === 0 && has('apt-get');
  if (!canApt) {
    console.error(
      `The tests need these system packages: ${missing.join(', ')}.\n` +
        `Install them (Debian/Ubuntu: sudo apt-get install -y ${missing.join(' ')}) and run npm test again.`,
    );
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  step('apt-get update', 'apt-get', ['update', '-qq'], { env });
  step(`apt-get install ${missing.join(' ')}`, 'apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
  missing = needs.filter(([, present]) => !present()).map(([pkg]) => pkg);
  if (missing.length > 0) {
    console.error(`Still missing after apt-get install: ${missing.join(', ')}`);
    process.exit(1);
  }
}

// keytar is an optional native dependency: npm install skips it on a machine without libsecret's headers,
// and a copy built for Electron's ABI doesn't load in Node. The keychain tests need it built for this Node.
const keytarLoads = () => spawnSync(process.execPath, ['-e', "require('keytar')"], { cwd: root, stdio: 'ignore' }).status === 0;
if (!keytarLoads()) {
  const { optionalDependencies } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
  if (existsSync(`${root}/node_modules/keytar/package.json`)) step('rebuild keytar for Node', 'npm', ['rebuild', 'keytar']);
  else step('install keytar', 'npm', ['install', '--no-save', `keytar@${optionalDependencies.keytar}`]);
}

// The build `npm install` made (package.json's prepare) is used when no source is newer than it; otherwise rebuilt.
if (buildIsStale()) step('build', 'npx', ['electron-vite', 'build']);

await sideBySide([
  ['lint', 'npx', ['eslint', '--max-warnings', '0', '.']],
  ['type-check (node project)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.node.json']],
  ['type-check (web project)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.web.json']],
  ['Electron security audit (electronegativity)', process.execPath, [`${root}/scripts/electronegativity.mjs`]],
]);
step('unit tests (vitest, in a D-Bus session with a keyring)', 'sh', [`${root}/scripts/with-keyring.sh`, 'npx', 'vitest', 'run']);
step('end-to-end tests (Playwright, Chromium)', 'npx', ['playwright', 'test']);
printPhases();
console.log('\n✔ all tests passed');
