/* eslint-disable no-restricted-imports -- this test reads the app's source and Chakra's files; tests never reach the bundle */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { defaultSystem } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { system } from './theme';

// The theme carries only the recipes the app's components use (theme.ts): a component added later whose recipe is
// missing would render unstyled, without any error. This finds each component's recipe keys in Chakra's own files.

/** The names the app's source imports from '@chakra-ui/react'. */
function chakraImports(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const source = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    for (const [, list = ''] of source.matchAll(/import\s*\{([^}]*)\}\s*from '@chakra-ui\/react'/g)) {
      for (const name of list.split(',').map((part) => part.trim())) if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0] ?? name);
    }
  }
  return names;
}

/** Chakra's ESM entry: which file each exported name comes from (named re-exports and namespaces). */
function chakraExportFiles(entry: string): Map<string, string> {
  const source = readFileSync(entry, 'utf8');
  const files = new Map<string, string>();
  const namespaces = new Map([...source.matchAll(/import \* as (\S+) from '(\.[^']+)'/g)].map(([, alias = '', path = '']) => [alias, path]));
  for (const [, list = '', from] of source.matchAll(/export \{([^}]*)\}(?: from '(\.[^']+)')?/g)) {
    for (const part of list.split(',')) {
      const [local = '', exported = local] = part.trim().split(/\s+as\s+/);
      const path = from ?? namespaces.get(local);
      if (path) files.set(exported, resolve(dirname(entry), path));
    }
  }
  return files;
}

/** The recipe keys a component file looks up, following its relative imports (CloseButton renders IconButton...). */
function recipeKeys(file: string, seen = new Set<string>()): Set<string> {
  const keys = new Set<string>();
  if (seen.has(file)) return keys;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const [, key = ''] of source.matchAll(/key: "([a-zA-Z]+)"/g)) keys.add(key);
  for (const [, path = ''] of source.matchAll(/from '(\.[^']+\.js)'/g)) {
    const target = resolve(dirname(file), path);
    if (target.includes('/components/')) for (const key of recipeKeys(target, seen)) keys.add(key);
  }
  return keys;
}

describe('theme recipes', () => {
  it('has the recipe of every Chakra component the app imports', () => {
    const entry = createRequire(import.meta.url)
      .resolve('@chakra-ui/react')
      .replace(/cjs\/index\.cjs$/, 'esm/index.js');
    const files = chakraExportFiles(entry);
    const missing: string[] = [];
    for (const name of chakraImports(resolve(import.meta.dirname, '..'))) {
      const file = files.get(name);
      if (!file) continue;
      for (const key of recipeKeys(file)) {
        const chakraHasIt = defaultSystem.isRecipe(key) || defaultSystem.isSlotRecipe(key);
        if (chakraHasIt && !system.isRecipe(key) && !system.isSlotRecipe(key)) missing.push(`${name}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
