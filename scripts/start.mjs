#!/usr/bin/env node
// `npm start`: the desktop app when an Electron runtime and a display exist; otherwise web mode (the same
// server, serving the app in the browser), after saying why desktop mode isn't used.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));

/** The Electron executable, or why there is none. electron/index.js throws when its download never happened. */
function findElectron() {
  let path;
  try {
    path = require('electron');
  } catch {
    return { reason: 'the Electron runtime is not installed: npm install could not download it' };
  }
  if (typeof path !== 'string' || !existsSync(path)) return { reason: `the Electron runtime is missing (${path})` };
  return { path };
}

/** Why the desktop app can't open a window here, or null. */
function displayProblem() {
  if (process.platform !== 'linux') return null;
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return 'no display: DISPLAY and WAYLAND_DISPLAY are unset';
  // Chromium refuses to run as root with its sandbox on, and the app keeps the sandbox on.
  if (process.getuid?.() === 0) return "Electron's sandbox does not run as root";
  return null;
}

/**
 * Runs `command` and mirrors its exit. On POSIX the child gets its own process group, so a Ctrl+C reaches
 * it once (forwarded from here) rather than twice (from the terminal and again from here or npm): the
 * server treats a second SIGINT as "stop now".
 */
function run(command, args) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would turn Electron into plain Node
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env, detached: process.platform !== 'win32' });

  let lastForward = 0;
  const forward = (signal) => {
    // Duplicates of one Ctrl+C arrive within milliseconds; a later one is the user insisting.
    if (Date.now() - lastForward < 1000) return;
    lastForward = Date.now();
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('SIGINT', () => forward('SIGINT'));
  process.on('SIGTERM', () => forward('SIGTERM'));
  process.on('SIGHUP', () => forward('SIGTERM'));

  child.on('error', (error) => {
    console.error(`vibeeval: could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
}

const electron = findElectron();
const reason = electron.reason ?? displayProblem();

if (!reason) {
  if (!existsSync(join(root, 'out', 'main', 'index.js'))) {
    console.error('vibeeval is not built yet: run `npm install` (or `npm run build`) first.');
    process.exit(1);
  }
  run(electron.path, [root]);
} else {
  console.log(`vibeeval: desktop mode is not used (${reason}); starting web mode.`);
  run(process.execPath, [join(root, 'bin', 'vibeeval.cjs'), 'serve']);
}
