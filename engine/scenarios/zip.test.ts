import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZip, writeZip, ZipLimitError } from './zip';

describe('trace zips', () => {
  it('reads back what it writes, names and bytes', () => {
    const entries = [
      { name: 'trace.trace', data: Buffer.from('{"type":"frame-snapshot"}\n'.repeat(200)) },
      { name: 'resources/ä.html', data: Buffer.from([0, 1, 2, 255]) },
      { name: 'empty', data: Buffer.alloc(0) },
    ];
    const read = readZip(writeZip(entries));
    expect(read.map((entry) => entry.name)).toEqual(entries.map((entry) => entry.name));
    read.forEach((entry, i) => expect(entry.data.equals(entries[i]!.data)).toBe(true));
  });

  it('writes the same bytes for the same entries (a fixed date)', () => {
    const entries = [{ name: 'a', data: Buffer.from('same') }];
    expect(writeZip(entries).equals(writeZip(entries))).toBe(true);
  });

  it('stops inflating at the limit, whatever the headers claim', () => {
    const zip = writeZip([{ name: 'bomb', data: Buffer.alloc(2 * 1024 * 1024) }]);
    // The central directory and local header say 2 MiB; claim 1 KiB instead, as a crafted zip would.
    const lying = Buffer.from(zip);
    for (let at = 0; at < lying.length - 4; at++) {
      if (lying.readUInt32LE(at) === 0x04034b50) lying.writeUInt32LE(1024, at + 22);
      if (lying.readUInt32LE(at) === 0x02014b50) lying.writeUInt32LE(1024, at + 24);
    }
    expect(() => readZip(lying, 512 * 1024)).toThrow(ZipLimitError);
    expect(readZip(zip)[0]!.data.length).toBe(2 * 1024 * 1024);
  });

  it('refuses what is not a zip', () => {
    expect(() => readZip(Buffer.from('not a zip at all, just some text that is long enough'))).toThrow(/not a zip/);
    expect(() => readZip(deflateRawSync(Buffer.from('x')))).toThrow();
  });
});
