import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { KeychainBackend } from './vault';

/** The part of Electron's `safeStorage` the file vault uses. */
export interface SafeStorage {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means a hard-coded key, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

/** The encryption is not usable (e.g. Linux without a secret service: safeStorage would fall back to plain text). */
export class EncryptionUnavailableError extends Error {
  override name = 'EncryptionUnavailableError';
}

/** One file per entry; the name is a hash so no service or account text reaches the file system. */
function fileName(service: string, account: string): string {
  return `${createHash('sha256').update(`${service}\0${account}`).digest('hex')}.bin`;
}

/**
 * A keychain backend over files encrypted with safeStorage (DPAPI, Keychain key, kwallet/libsecret key), in
 * `directory` (a folder of the user-data folder). Written atomically (temporary file, then rename), mode 0600.
 */
export function createFileKeychain(directory: string, safeStorage: SafeStorage): KeychainBackend {
  const linuxBackend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend?.() : undefined;
  if (!safeStorage.isEncryptionAvailable() || linuxBackend === 'basic_text') {
    throw new EncryptionUnavailableError('Encryption of stored secrets is not available on this system.');
  }
  const pathOf = (service: string, account: string) => path.join(directory, fileName(service, account));
  return {
    async getPassword(service, account) {
      let data: Buffer;
      try {
        data = await fs.readFile(pathOf(service, account));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      try {
        return safeStorage.decryptString(data);
      } catch {
        return null; // a corrupt or foreign file: as if nothing were stored (signing in again rewrites it)
      }
    },
    async setPassword(service, account, password) {
      await fs.mkdir(directory, { recursive: true, mode: 0o700 });
      const target = pathOf(service, account);
      const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(temporary, safeStorage.encryptString(password), { mode: 0o600 });
      await fs.rename(temporary, target);
    },
    async deletePassword(service, account) {
      try {
        await fs.unlink(pathOf(service, account));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
  };
}
