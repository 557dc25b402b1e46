// Reads and writes the zip files Playwright writes its traces as, to redact a trace in memory (fflate). Reading
// counts the bytes each entry inflates to as they come and stops at a limit, whatever the zip's headers claim.
import { Unzip, UnzipInflate, UnzipPassThrough, zipSync, type Zippable } from 'fflate';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

/** Traces of a scenario run are a few MB; past this, reading stops (an inflation bomb, or a run gone wrong). */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;

/** Entries keep a fixed date (the trace has its own times), so the same trace gives the same bytes. */
const FIXED_DATE = new Date(1980, 0, 1);

export class ZipLimitError extends Error {
  constructor(limit: number) {
    super(`zip contents exceed ${limit} bytes`);
    this.name = 'ZipLimitError';
  }
}

/** The entries of a zip file, inflated; throws ZipLimitError once they pass `limit` bytes together. */
export function readZip(zip: Uint8Array, limit = MAX_UNZIPPED_BYTES): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let total = 0;
  // Set from fflate's callbacks, which run inside push().
  const failed: { error?: Error } = {};
  const unzip = new Unzip((file) => {
    const chunks: Uint8Array[] = [];
    file.ondata = (error, chunk, final) => {
      if (failed.error) return;
      if (error) {
        failed.error = new Error(`zip entry ${file.name}: ${error.message}`);
        return;
      }
      total += chunk.length;
      if (total > limit) {
        failed.error = new ZipLimitError(limit);
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) entries.push({ name: file.name, data: Buffer.concat(chunks) });
    };
    if (file.compression !== 0 && file.compression !== 8) failed.error ??= new Error(`zip entry ${file.name}: unsupported compression ${file.compression}`);
    else file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  unzip.push(zip, true);
  if (failed.error) throw failed.error;
  if (entries.length === 0 && !isZip(zip)) throw new Error('not a zip file');
  return entries;
}

/** A zip file of the entries, each deflated. */
export function writeZip(entries: ZipEntry[]): Buffer {
  const files: Zippable = {};
  for (const entry of entries) files[entry.name] = [entry.data, { level: 6, mtime: FIXED_DATE }];
  return Buffer.from(zipSync(files));
}

/** Whether the bytes end with a zip's end-of-central-directory record (an empty zip is one). */
function isZip(zip: Uint8Array): boolean {
  return zip.length >= 22 && Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength).lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) >= 0;
}
