// The number of checks the engine runs, read from its registry (engine/checks/index.ts, the CHECKS list) when the app
// is built, so the marketing pages say the number the scanner has (electron.vite.config.ts defines it for the
// renderer). Read as text: the build's config does not load the engine and its dependencies to count one array.
// tests/packaging/check-count.test.ts holds this count to the registry's CHECKS.length.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The entries of `export const CHECKS ... = [ ... ];` in engine/checks/index.ts under `root`. */
export function checkCount(root) {
  const source = readFileSync(join(root, 'engine', 'checks', 'index.ts'), 'utf8');
  const start = source.search(/export const CHECKS\b[^=]*=\s*\[/);
  if (start < 0) throw new Error('engine/checks/index.ts has no CHECKS list');
  const body = source.slice(source.indexOf('[', source.indexOf('=', start)) + 1, source.indexOf('];', start));
  const entries = body
    .replace(/\/\/.*$/gm, '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!entries.every((entry) => /^[A-Za-z_$][\w$]*$/.test(entry))) throw new Error('the CHECKS list holds something other than check names');
  return entries.length;
}
