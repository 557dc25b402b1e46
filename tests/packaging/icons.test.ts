import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { icnsFile, sourcesDigest } from '../../scripts/make-icons.mjs';

const resources = join(__dirname, '..', '..', 'resources');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('app icons (made by scripts/make-icons.mjs from resources/icon.svg)', () => {
  it('were rendered from the SVG sources as they are now (run node scripts/make-icons.mjs after changing them)', () => {
    expect(readFileSync(join(resources, 'icons.sha256'), 'utf8').trim()).toBe(sourcesDigest());
  });

  it('has a 1024 px icon.png', () => {
    expect(pngSize(readFileSync(join(resources, 'icon.png')))).toEqual({ width: 1024, height: 1024 });
  });

  it('has Linux icons named by their real size, 16 to 1024 px', () => {
    const names = readdirSync(join(resources, 'icons')).sort();
    expect(names).toEqual(expect.arrayContaining(['16x16.png', '32x32.png', '48x48.png', '256x256.png', '512x512.png', '1024x1024.png']));
    for (const name of names) {
      const [width, height] = name.replace('.png', '').split('x').map(Number);
      expect(pngSize(readFileSync(join(resources, 'icons', name))), name).toEqual({ width, height });
    }
  });

  it('has a Windows icon.ico with every size from 16 to 256 px', () => {
    const ico = readFileSync(join(resources, 'icon.ico'));
    expect(ico.readUInt16LE(0)).toBe(0); // reserved
    expect(ico.readUInt16LE(2)).toBe(1); // 1 = icon
    const count = ico.readUInt16LE(4);
    // In the directory a width byte of 0 means 256.
    const sizes = Array.from({ length: count }, (_, i) => ico[6 + i * 16] || 256);
    expect(sizes.sort((a, b) => a - b)).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('has a macOS icon.icns whose entries are PNGs of the sizes their types promise', () => {
    const icns = readFileSync(join(resources, 'icon.icns'));
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const expected: Record<string, number> = { icp4: 16, icp5: 32, ic11: 32, ic12: 64, ic07: 128, ic13: 256, ic08: 256, ic14: 512, ic09: 512, ic10: 1024 };
    const seen: string[] = [];
    for (let offset = 8; offset < icns.length;) {
      const type = icns.toString('ascii', offset, offset + 4);
      const length = icns.readUInt32BE(offset + 4);
      const size = expected[type];
      expect(size, `unexpected entry ${type}`).toBeDefined();
      expect(pngSize(icns.subarray(offset + 8, offset + length)), type).toEqual({ width: size, height: size });
      seen.push(type);
      offset += length;
    }
    expect(seen.sort()).toEqual(Object.keys(expected).sort());
  });

  it('writes .icns entries with their lengths (the format the test above reads)', () => {
    const png = readFileSync(join(resources, 'icons', '16x16.png'));
    const file = icnsFile([['icp4', png]]);
    expect(file.toString('ascii', 0, 4)).toBe('icns');
    expect(file.readUInt32BE(4)).toBe(16 + png.length);
    expect(file.toString('ascii', 8, 12)).toBe('icp4');
    expect(file.readUInt32BE(12)).toBe(8 + png.length);
  });
});
