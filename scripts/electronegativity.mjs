#!/usr/bin/env node
// The app's own Electron security audit: runs @doyensec/electronegativity over the code the app ships (the inputs
// in electronegativity.json, test files left out) and fails on any high or medium finding that the config does not
// explain. `npm test` runs it; alone: node scripts/electronegativity.mjs
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(projectRoot, 'package.json'));
/** Electronegativity's severity values: medium and above fail the run. */
const MEDIUM = 2;

/** Test files and fixtures are not shipped, so they are not audited. */
function shipped(path) {
  const name = basename(path);
  return !/\.test\.[cm]?[jt]sx?$/.test(name) && !path.split(/[\\/]/).includes('__fixtures__');
}

/** Copies the inputs (folders under `root`) into a fresh folder, so the audit sees only shipped files. */
function stage(root, inputs) {
  const dir = mkdtempSync(join(tmpdir(), 'vibeeval-electronegativity-'));
  for (const input of inputs) cpSync(join(root, input), join(dir, input), { recursive: true, filter: shipped });
  return dir;
}

/** The findings that matter: high or medium, as { check, file, line, column, description }. */
function significant(issues) {
  return issues
    .filter((issue) => issue.severity.value >= MEDIUM)
    .map((issue) => ({
      check: issue.id,
      severity: issue.severity.name,
      file: issue.file === 'N/A' ? 'N/A' : issue.file.split(sep).join('/'),
      line: issue.location?.line ?? 0,
      column: issue.location?.column ?? 0,
      description: issue.description,
    }));
}

/**
 * Splits findings into explained and unexplained ones: each accepted entry explains up to `count` findings of its
 * check in its file. Entries that explain nothing any more are returned as stale.
 */
export function reconcile(findings, accepted) {
  const left = new Map(accepted.map((entry) => [`${entry.check}\u0000${entry.file}`, entry.count]));
  const unexplained = [];
  for (const finding of findings) {
    const key = `${finding.check}\u0000${finding.file}`;
    const remaining = left.get(key) ?? 0;
    if (remaining > 0) left.set(key, remaining - 1);
    else unexplained.push(finding);
  }
  const stale = accepted.filter((entry) => left.get(`${entry.check}\u0000${entry.file}`) === entry.count);
  return { unexplained, stale };
}

/** Reads electronegativity.json (or another config) and checks its shape. */
export function readConfig(file = join(projectRoot, 'electronegativity.json')) {
  const config = JSON.parse(readFileSync(file, 'utf8'));
  const entries = [...(config.excludedChecks ?? []), ...(config.accepted ?? [])];
  const bad = entries.find((entry) => typeof entry.check !== 'string' || typeof entry.reason !== 'string' || entry.reason.length < 20);
  if (bad) throw new Error(`electronegativity.json: every entry needs a check and a reason (${JSON.stringify(bad)})`);
  const badCount = (config.accepted ?? []).find((entry) => typeof entry.file !== 'string' || !Number.isInteger(entry.count) || entry.count < 1);
  if (badCount) throw new Error(`electronegativity.json: accepted entries need a file and a count (${JSON.stringify(badCount)})`);
  if (!Array.isArray(config.inputs) || config.inputs.length === 0) throw new Error('electronegativity.json: inputs is empty');
  return config;
}

/**
 * Electronegativity fetches translations from the network on every run (and waits for the lookup to fail when
 * offline). Its English texts ship with it: answer that one request with a failure at once.
 */
function offline() {
  const gotPath = createRequire(require.resolve('@doyensec/electronegativity')).resolve('got');
  const refuse = () => Promise.reject(new Error('electronegativity runs offline here'));
  require.cache[gotPath] ??= { id: gotPath, filename: gotPath, loaded: true, exports: Object.assign(refuse, { __esModule: true, default: refuse }) };
}

/** Runs the audit over `root` with `config`; resolves with the findings sorted out and the files it could not parse. */
export async function audit(root, config) {
  offline();
  const run = require('@doyensec/electronegativity');
  const { devDependencies } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
  const staged = stage(root, config.inputs);
  try {
    const result = await run({
      input: staged,
      isRelative: true,
      // The version the app is built with, rather than what the tool guesses from a lock file.
      electronVersionOverride: devDependencies.electron,
      excludeFromScan: (config.excludedChecks ?? []).map((entry) => entry.check),
      parserPlugins: [],
    });
    // isRelative: files are named relative to the staged folder, that is, to the project root.
    const findings = significant(result.issues);
    const unreadable = result.errors.filter((error) => !error.tolerable).map((error) => ({ file: relative(staged, error.file), message: error.message }));
    return { ...reconcile(findings, config.accepted ?? []), unreadable, findings };
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

async function main() {
  const config = readConfig();
  const { unexplained, stale, unreadable, findings } = await audit(projectRoot, config);
  for (const entry of stale) console.log(`electronegativity: explained but no longer found, remove it from electronegativity.json: ${entry.check} in ${entry.file}`);
  for (const error of unreadable) console.error(`electronegativity: could not audit ${error.file}: ${error.message}`);
  for (const finding of unexplained) {
    console.error(`electronegativity: ${finding.severity} ${finding.check} at ${finding.file}:${finding.line}:${finding.column}\n  ${finding.description}`);
  }
  if (unexplained.length > 0 || unreadable.length > 0) {
    console.error(
      `electronegativity: ${unexplained.length} unexplained high or medium finding(s), ${unreadable.length} file(s) not audited. Fix them, or explain each in electronegativity.json.`,
    );
    process.exitCode = 1;
    return;
  }
  console.log(`electronegativity: no unexplained high or medium finding (${findings.length} explained in electronegativity.json)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(`electronegativity: ${error.message}`);
    process.exitCode = 1;
  });
}
