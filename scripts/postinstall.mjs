#!/usr/bin/env node
// `npm install`'s postinstall: installs Electron's runtime when it can be downloaded (electron's own install
// script, which npm does not run by itself here: package.json's allowScripts), then rebuilds keytar for it.
// Desktop mode is optional: nothing here ever fails the install; where the runtime can't be had it says so
// in one line, and web mode (`npm start` falls back to it, `npm run serve`) works regardless.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const INSTALL_TIMEOUT_MS = 120_000;
const REBUILD_TIMEOUT_MS = 300_000;

const say = (line) => console.log(`vibeeval: ${line}`);

/** node_modules/electron, or null when the package itself is not installed (e.g. --omit=dev). */
function electronPackageDir() {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** The Electron executable the electron package points at, when it exists (as electron/index.js finds it). */
function electronBinary(dir) {
  try {
    const relative = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
    const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist');
    const binary = join(dist, relative);
    return relative && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** The most telling line of a failed command's output, kept short. */
function lastLine(text) {
  const lines = String(text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at '));
  const line = lines.find((l) => /error/i.test(l)) ?? lines.at(-1) ?? 'no output';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function unavailable(reason) {
  say(`desktop mode is unavailable (Electron runtime could not be installed: ${reason}); web mode works with \`npm start\` / \`npm run serve\`.`);
}

/** Runs electron's install.js (download + unzip of the runtime); returns why it failed, or null. */
function installElectron(dir) {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set';
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], {
    cwd: dir,
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.error?.code === 'ETIMEDOUT') return `download timed out after ${INSTALL_TIMEOUT_MS / 1000} s`;
  if (result.error) return result.error.message;
  if (result.status !== 0) {
    const output = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim();
    return output ? lastLine(output) : `electron's install.js exited with code ${result.status ?? result.signal}`;
  }
  return null;
}

/** @electron/rebuild 4 requires Node >= 22.12. */
function nodeCanRunRebuild() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

/** Rebuilds keytar (the keychain module) against Electron's headers. */
function rebuildKeytar(electronVersion) {
  try {
    require.resolve('keytar/package.json');
  } catch {
    return; // keytar is optional (it needs libsecret on Linux); the app says so when the keychain is used
  }
  // keytar is a Node-API module: the build npm made for Node also loads in Electron. The rebuild against
  // Electron's headers is belt and braces, so a failure here is reported but changes nothing else.
  if (!nodeCanRunRebuild()) {
    say(`keytar not rebuilt for Electron: @electron/rebuild needs Node >= 22.12 (this is ${process.version}); its Node-API build is used as is.`);
    return;
  }
  let cli;
  try {
    cli = join(dirname(require.resolve('@electron/rebuild/package.json')), 'lib', 'cli.js');
  } catch {
    say('keytar not rebuilt for Electron: @electron/rebuild is not installed; its Node-API build is used as is.');
    return;
  }
  const result = spawnSync(process.execPath, [cli, '--version', electronVersion, '--module-dir', root, '--only', 'keytar', '--force'], {
    cwd: root,
    encoding: 'utf8',
    timeout: REBUILD_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status === 0) return;
  const reason = result.error?.code === 'ETIMEDOUT' ? 'timed out' : lastLine(result.stderr || result.stdout || result.error?.message);
  say(`keytar not rebuilt for Electron (${reason}); its Node-API build is used as is.`);
}

function main() {
  const dir = electronPackageDir();
  if (!dir) return unavailable('the electron package is not installed');
  if (!electronBinary(dir)) {
    const failure = installElectron(dir);
    if (!electronBinary(dir)) return unavailable(failure ?? 'no runtime after install');
  }
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  rebuildKeytar(version);
  say(`desktop mode ready (Electron ${version}): \`npm start\` opens the app.`);
}

try {
  main();
} catch (error) {
  unavailable(lastLine(error?.message));
}
// Whatever happened above, the install goes on.
process.exitCode = 0;
