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
  /** Loads the keychain backend; keytar by default. */
  load?: () => Promise<KeychainBackend>;
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

/** A vault over the OS keychain: service `vibeeval`, account = key. */
export function createVault(options: VaultOptions = {}): Vault {
  const service = options.service ?? 'vibeeval';
  const load = options.load ?? loadKeytar;
  let backend: Promise<KeychainBackend> | undefined;

  const keychain = (): Promise<KeychainBackend> => {
    backend ??= load().catch((error: unknown) => {
      backend = undefined; // try again on the next call (e.g. after `npm rebuild keytar`)
      throw new VaultUnavailableError(
        `The OS keychain is unavailable: keytar's native module could not be loaded (${(error as Error).message}). ` +
          'Reinstall with `npm install` (on Linux libsecret is needed: apt-get install libsecret-1-dev) to sign in with the desktop app.',
      );
    });
    return backend;
  };

  return {
    async getItem(key) {
      return (await keychain()).getPassword(service, key);
    },
    async setItem(key, value) {
      // The keychains store C strings: a NUL would silently cut the value short.
      if (value.includes('\0')) throw new TypeError('A vault value cannot contain NUL characters.');
      const backendNow = await keychain();
      // The keychains can't hold an empty secret (keytar refuses one): an empty value is no value.
      if (value === '') await backendNow.deletePassword(service, key);
      else await backendNow.setPassword(service, key, value);
    },
    async removeItem(key) {
      await (await keychain()).deletePassword(service, key);
    },
  };
}
