#!/usr/bin/env node
// `npm test`: makes sure the system packages the tests use are present (installing them with apt when run
// as root), then runs the unit tests (inside a D-Bus session with an unlocked keyring, for the keychain tests) with
// the type-checks, lint and the Electron code's audit (electronegativity) beside them at low CPU priority, then the
// Playwright tests in Chromium.
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
  finishStep(title, t0, result.status, result.signal);
}

/** As step(), without blocking: the static checks beside it keep reading their children's output. */
function stepAsync(title, command, args) {
  console.log(`\n▶ ${title}`);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: root });
    child.on('error', (error) => {
      console.error(String(error));
      resolve(finishStep(title, t0, 1, null));
    });
    child.on('close', (status, signal) => resolve(finishStep(title, t0, status, signal)));
  });
}

function finishStep(title, t0, status, signal) {
  const failed = status !== 0;
  phases.push([title, performance.now() - t0, failed ? 'FAILED' : 'ok']);
  if (failed) {
    console.error(`\n✖ ${title} failed${status === null ? ` (${signal})` : ` (exit ${status})`}`);
    printPhases();
    stopBackground();
    process.exit(status ?? 1);
  }
}

/** Process groups started in the background (the static checks), stopped if the run ends before them. */
const background = new Set();
function stopBackground() {
  for (const pid of background) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/**
 * Steps that only read the sources (type-checks, lint, audit) run side by side, and beside the unit tests at the
 * lowest CPU priority: the unit tests wait on servers, browsers and PostgreSQL for about a third of their time
 * (measured on a 2-core machine: 69 % of the CPU busy on average), and the checks take that idle time instead of
 * 2.5 minutes of their own before the tests; when both want the CPU, the tests have it. Their output is held and
 * printed whole, one step after another, so it never interleaves with the tests'.
 */
function sideBySide(steps) {
  const t0 = performance.now();
  const lowPriority = process.platform !== 'win32' && has('nice');
  const running = steps.map(
    ([title, command, args]) =>
      new Promise((resolve) => {
        const started = performance.now();
        const [file, argv] = lowPriority ? ['nice', ['-n', '19', command, ...args]] : [command, args];
        const child = spawn(file, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
        if (child.pid) background.add(child.pid);
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        const done = (status, signal) => {
          background.delete(child.pid);
          resolve({ title, ms: performance.now() - started, ended: performance.now(), status, signal, output });
        };
        child.on('error', (error) => {
          output.push(Buffer.from(String(error)));
          done(1, null);
        });
        child.on('close', done);
      }),
  );
  /** Waits for the checks, prints their output and times, and ends the run if one failed. */
  return async function report(label) {
    const results = await Promise.all(running);
    for (const { title, ms, status, output } of results) {
      console.log(`\n▶ ${title} (${label})`);
      process.stdout.write(Buffer.concat(output));
      phases.push([`${title} (${label})`, ms, status === 0 ? 'ok' : 'FAILED']);
    }
    // From their start to the last one's end (not to this report, which waits for the tests beside them).
    phases.push([`  these ${label}, wall`, Math.max(...results.map((r) => r.ended)) - t0, 'ok']);
    const failed = results.filter((r) => r.status !== 0);
    if (failed.length > 0) {
      for (const { title, status, signal } of failed) console.error(`\n✖ ${title} failed${status === null ? ` (${signal})` : ` (exit ${status})`}`);
      printPhases();
      process.exit(failed[0].status ?? 1);
    }
  };
}

const BUILD_INPUTS = ['electron', 'preload', 'renderer', 'server', 'engine', 'common', 'resources', 'electron.vite.config.ts', 'package.json', 'package-lock.json'];

/** The newest modification time (ms) under `path`, node_modules and test files aside. */
function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : info.mtimeMs;
  return Math.max(
    0,
    ...readdirSync(path)
      .filter((name) => name !== 'node_modules')
      .map((name) => newest(`${path}/${name}`)),
  );
}

function buildIsStale() {
  const outputs = ['out/main/server.js', 'out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html'].map((file) =>
    statSync(`${root}/${file}`, { throwIfNoEntry: false }),
  );
  if (outputs.some((info) => !info)) return true;
  const built = Math.min(...outputs.map((info) => info.mtimeMs));
  return BUILD_INPUTS.some((input) => newest(`${root}/${input}`) > built);
}

let missing = needs.filter(([, present]) => !present()).map(([pkg]) => pkg);
if (missing.length > 0) {
  const canApt = process.platform === 'linux' && process.getuid?.() === 0 && has('apt-get');
  if (!canApt) {
    console.error(
      `The tests need these system packages: ${missing.join(', ')}.\n` + `Install them (Debian/Ubuntu: sudo apt-get install -y ${missing.join(' ')}) and run npm test again.`,
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

// The static checks run in process groups of their own: an interrupted run stops them too.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, () => {
    stopBackground();
    process.exit(code);
  });
}
const staticChecks = sideBySide([
  ['lint', 'npx', ['eslint', '--max-warnings', '0', '.']],
  ['import rules (dependency-cruiser: no circles, boundaries)', 'npm', ['run', '-s', 'lint:imports']],
  ['unused files, exports and dependencies (knip)', 'npm', ['run', '-s', 'lint:unused']],
  ['formatting (Prettier)', 'npm', ['run', '-s', 'format:check']],
  ['type-check (node project)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.node.json']],
  ['type-check (web project)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.web.json']],
  ['Electron security audit (electronegativity)', process.execPath, [`${root}/scripts/electronegativity.mjs`]],
]);
await stepAsync('unit tests (vitest, in a D-Bus session with a keyring)', 'sh', [`${root}/scripts/with-keyring.sh`, 'npx', 'vitest', 'run']);
await staticChecks('side by side, beside the unit tests');
await stepAsync('end-to-end tests (Playwright, Chromium)', 'npx', ['playwright', 'test']);
printPhases();
console.log('\n✔ all tests passed');
