#!/usr/bin/env node
// Renders resources/icon.svg (and icon-small.svg for small Windows and Linux sizes) into every icon the packaged app needs (electron-builder.yml):
//   resources/icon.png     1024 px (the source electron-builder falls back to)
//   resources/icon.icns    macOS (PNG entries, as `iconutil` writes them)
//   resources/icon.ico     Windows, 16 to 256 px
//   resources/icons/NxN.png  Linux (AppImage, deb), 16 to 1024 px
// The outputs are committed, so packaging never needs these tools. Run it again after changing the SVG:
//   node scripts/make-icons.mjs
// Needs rsvg-convert (Debian: librsvg2-bin) and ImageMagick (imagemagick) for the .ico; RSVG_CONVERT and
// IMAGEMAGICK_CONVERT name other executables. The same SVG and tools give byte-identical files.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resources = fileURLToPath(new URL('../resources/', import.meta.url));
const SOURCE = join(resources, 'icon.svg');
// Windows and Linux at 48 px and below: the tile fills the square so the mark still reads at 16 px.
const SMALL_SOURCE = join(resources, 'icon-small.svg');
const SMALL_MAX = 48;
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const WINDOWS_SIZES = [16, 24, 32, 48, 64, 128, 256];
// ICNS entry types with PNG payloads and the pixel size each holds (Apple's iconutil writes these).
const ICNS_ENTRIES = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic14', 512],
  ['ic09', 512],
  ['ic10', 1024],
];

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

/** The first of the candidates that is really ImageMagick (a stand-in named `convert` may come first in PATH). */
function findImageMagick() {
  const candidates = [process.env.IMAGEMAGICK_CONVERT, 'magick', '/usr/bin/convert', 'convert'].filter(Boolean);
  for (const candidate of candidates) {
    const result = spawnSync(candidate, ['-version'], { encoding: 'utf8' });
    if (result.status === 0 && /ImageMagick/.test(result.stdout)) return candidate;
  }
  throw new Error('ImageMagick is needed for icon.ico (Debian: apt-get install imagemagick)');
}

/** Renders `source` at size × size into a PNG file. */
function renderPng(rsvg, source, size, file) {
  run(rsvg, ['--width', String(size), '--height', String(size), '--format', 'png', '--output', file, source]);
  return file;
}

/** The SHA-256 of the SVG sources, recorded beside the icons so a test notices a drawing changed without them. */
export function sourcesDigest(dir = resources) {
  const hash = createHash('sha256');
  // Line endings normalised: a Windows checkout (core.autocrlf) holds the same drawing.
  for (const name of ['icon.svg', 'icon-small.svg'])
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(join(dir, name), 'utf8').replace(/\r\n/g, '\n'));
  return hash.digest('hex');
}

/** An .icns file: the 'icns' header, then one (type, length, PNG) entry per size. */
export function icnsFile(entries) {
  const chunks = entries.map(([type, png]) => {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([header, png]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(8 + chunks.reduce((sum, chunk) => sum + chunk.length, 0), 4);
  return Buffer.concat([header, ...chunks]);
}

function main() {
  const rsvg = process.env.RSVG_CONVERT || 'rsvg-convert';
  const convert = findImageMagick();
  const work = mkdtempSync(join(tmpdir(), 'vibeeval-icons-'));
  try {
    // macOS: icon.svg at every size; Windows and Linux: icon-small.svg up to SMALL_MAX.
    const mac = (size) => renderPng(rsvg, SOURCE, size, join(work, `mac-${size}.png`));
    const other = (size) => renderPng(rsvg, size <= SMALL_MAX ? SMALL_SOURCE : SOURCE, size, join(work, `${size}.png`));
    mkdirSync(join(resources, 'icons'), { recursive: true });
    for (const size of LINUX_SIZES) writeFileSync(join(resources, 'icons', `${size}x${size}.png`), readFileSync(other(size)));
    writeFileSync(join(resources, 'icon.png'), readFileSync(other(1024)));
    writeFileSync(join(resources, 'icon.icns'), icnsFile(ICNS_ENTRIES.map(([type, size]) => [type, readFileSync(mac(size))])));
    // ImageMagick stores the small sizes as 32-bit bitmaps and 256 as PNG, which every Windows version and NSIS read;
    // no date chunks, so the file only changes when the drawing does.
    const inputs = WINDOWS_SIZES.map((size) => other(size));
    run(convert, [...inputs, '-define', 'png:exclude-chunks=date,time', join(resources, 'icon.ico')]);
    writeFileSync(join(resources, 'icons.sha256'), `${sourcesDigest()}\n`);
    console.log(`icons written to ${resources}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
