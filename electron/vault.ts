/** The part of keytar the vault uses. */
export interface KeychainBackend {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** The OS keychain is not usable: keytar's native module is missing or did not load. */
export class VaultUnavailableError extends Error {
  override name = 'VaultUnavailableError';
}

/** Secrets of the signed-in session, kept in the OS keychain (Keychain, Credential Manager, libsecret). */
export interface Vault {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export interface VaultOptions {
  /** The keychain service name; each key is an account under it. */
  service?: string;
  /** The server origin the secrets belong to; part of the service name, so each server has its own entries. */
  origin?: string;
  /** Loads the keychain backend; keytar by default. */
  load?: () => Promise<KeychainBackend>;
  /** A backend to use when the keychain can't load (safeStorage files, see vault-file.ts); it may throw. */
  fallback?: () => KeychainBackend;
  /** Called once, when the fallback is taken, with the reason the keychain could not be used. */
  onFallback?: (reason: string) => void;
}

/**
 * Windows' Credential Manager holds at most 2,560 bytes per secret (UTF-16: 1,280 characters), and keytar
 * truncates silently; chunks stay well under that on every platform.
 */
export const CHUNK_SIZE = 1200;
const MANIFEST_PREFIX = 'vibeeval-chunks:v1:';

/** A value is stored as a manifest entry (`account` = `vibeeval-chunks:v1:<count>`) and chunks `account#<i>`. */
function chunkCount(manifest: string | null): number | null {
  if (manifest === null || !manifest.startsWith(MANIFEST_PREFIX)) return null;
  const count = Number(manifest.slice(MANIFEST_PREFIX.length));
  return Number.isInteger(count) && count >= 0 ? count : null;
}

/** Splits by code points so a surrogate pair is never cut in two. */
export function splitChunks(value: string, size = CHUNK_SIZE): string[] {
  const points = Array.from(value);
  const chunks: string[] = [];
  for (let i = 0; i < points.length; i += size) chunks.push(points.slice(i, i + size).join(''));
  return chunks;
}

async function readChunked(backend: KeychainBackend, service: string, key: string): Promise<string | null> {
  const manifest = await backend.getPassword(service, key);
  const count = chunkCount(manifest);
  if (count === null) return manifest; // an entry written before chunking: the value itself
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const part = await backend.getPassword(service, `${key}#${i}`);
    if (part === null) return null; // an incomplete value is no value
    parts.push(part);
  }
  return parts.join('');
}

async function removeChunks(backend: KeychainBackend, service: string, key: string, from: number): Promise<void> {
  const count = chunkCount(await backend.getPassword(service, key)) ?? 0;
  for (let i = from; i < count; i++) await backend.deletePassword(service, `${key}#${i}`);
}

async function writeChunked(backend: KeychainBackend, service: string, key: string, value: string): Promise<void> {
  const chunks = splitChunks(value);
  await removeChunks(backend, service, key, chunks.length); // stale chunks of a longer value
  for (const [i, chunk] of chunks.entries()) await backend.setPassword(service, `${key}#${i}`, chunk);
  await backend.setPassword(service, key, `${MANIFEST_PREFIX}${chunks.length}`);
}

/**
 * keytar is a native (N-API) optional dependency, loaded on first use so that a missing or broken build
 * can't stop the app. The specifier is a variable on purpose: the bundler then leaves the import alone
 * (keytar is resolved from node_modules at run time) instead of failing the build when keytar is absent.
 */
const KEYTAR_MODULE = 'keytar';

async function loadKeytar(): Promise<KeychainBackend> {
  const module = (await import(KEYTAR_MODULE)) as KeychainBackend & { default?: KeychainBackend };
  return module.default ?? module;
}

/**
 * A vault over the OS keychain (service `vibeeval <origin>`, account = key, values in chunks), or over the
 * fallback when the keychain can't load.
 */
export function createVault(options: VaultOptions = {}): Vault {
  const base = options.service ?? 'vibeeval';
  const service = options.origin ? `${base} ${new URL(options.origin).origin}` : base;
  const load = options.load ?? loadKeytar;
  let backend: Promise<KeychainBackend> | undefined;

  const keychain = (): Promise<KeychainBackend> => {
    backend ??= load().catch((error: unknown) => {
      const reason = (error as Error).message;
      if (options.fallback) {
        try {
          const fallback = options.fallback();
          options.onFallback?.(reason);
          return fallback; // kept for the session: onFallback runs once
        } catch (fallbackError) {
          backend = undefined;
          throw new VaultUnavailableError(`The OS keychain is unavailable (${reason}) and so is the encrypted file store (${(fallbackError as Error).message}).`);
        }
      }
      backend = undefined; // try again on the next call (e.g. after `npm rebuild keytar`)
      throw new VaultUnavailableError(
        `The OS keychain is unavailable: keytar's native module could not be loaded (${reason}). ` +
          'Reinstall with `npm install` (on Linux libsecret is needed: apt-get install libsecret-1-dev) to sign in with the desktop app.',
      );
    });
    return backend;
  };

  const removeItem = async (key: string): Promise<void> => {
    const backendNow = await keychain();
    await removeChunks(backendNow, service, key, 0);
    await backendNow.deletePassword(service, key);
  };

  return {
    async getItem(key) {
      const backendNow = await keychain();
      const value = await readChunked(backendNow, service, key);
      if (value !== null || service === base) return value;
      // Sessions saved before entries were kept per server origin live under the bare service name: move them once.
      const legacy = await readChunked(backendNow, base, key);
      if (legacy === null || legacy === '') return null;
      await writeChunked(backendNow, service, key, legacy);
      await removeChunks(backendNow, base, key, 0);
      await backendNow.deletePassword(base, key);
      return legacy;
    },
    async setItem(key, value) {
      // The keychains store C strings: a NUL would silently cut the value short.
      if (value.includes('\0')) throw new TypeError('A vault value cannot contain NUL characters.');
      const backendNow = await keychain();
      // The keychains can't hold an empty secret (keytar refuses one): an empty value is no value.
      if (value === '') await removeItem(key);
      else await writeChunked(backendNow, service, key, value);
    },
    removeItem,
  };
}
