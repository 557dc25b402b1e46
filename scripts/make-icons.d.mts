/** The SHA-256 of resources/icon.svg and icon-small.svg (or of those in `dir`), as make-icons records it. */
export function sourcesDigest(dir?: string): string;

/** An .icns file from (type, PNG) entries. */
export function icnsFile(entries: [string, Buffer][]): Buffer;
