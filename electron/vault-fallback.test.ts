import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_SIZE, createVault, splitChunks, VaultUnavailableError, type KeychainBackend } from './vault';
import { createFileKeychain, EncryptionUnavailableError, type SafeStorage } from './vault-file';

/** An in-memory keychain that, like Credential Manager, refuses secrets over 2,560 bytes (UTF-16). */
function memoryKeychain(): KeychainBackend & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    async getPassword(service, account) {
      return entries.get(`${service}/${account}`) ?? null;
    },
    async setPassword(service, account, password) {
      if (password.length * 2 > 2560) throw new Error('blob too large');
      entries.set(`${service}/${account}`, password);
    },
    async deletePassword(service, account) {
      return entries.delete(`${service}/${account}`);
    },
  };
}

describe('vault chunking', () => {
  const sizes = [1, CHUNK_SIZE - 1, CHUNK_SIZE, CHUNK_SIZE * 3, 100 * 1024];
  it.each(sizes)('round-trips a value of %i characters', async (size) => {
    const backend = memoryKeychain();
    const vault = createVault({ load: async () => backend });
    const value = 'x'.repeat(size - 1) + 'é';
    await vault.setItem('token', value);
    expect(await vault.getItem('token')).toBe(value);
    expect(backend.entries.size).toBe(1 + Math.ceil(size / CHUNK_SIZE));
  });

  it('an empty value is no value, and leaves no entries', async () => {
    const backend = memoryKeychain();
    const vault = createVault({ load: async () => backend });
    await vault.setItem('token', 'y'.repeat(3000));
    await vault.setItem('token', '');
    expect(await vault.getItem('token')).toBeNull();
    expect(backend.entries.size).toBe(0);
  });

  it('removes stale chunks when a shorter value is written, and all of them on remove', async () => {
    const backend = memoryKeychain();
    const vault = createVault({ load: async () => backend });
    await vault.setItem('token', 'a'.repeat(CHUNK_SIZE * 4));
    await vault.setItem('token', 'short');
    expect(await vault.getItem('token')).toBe('short');
    expect(backend.entries.size).toBe(2);
    await vault.removeItem('token');
    expect(backend.entries.size).toBe(0);
  });

  it('reads an entry written before chunking as the value itself', async () => {
    const backend = memoryKeychain();
    backend.entries.set('vibeeval/token', 'legacy');
    expect(await createVault({ load: async () => backend }).getItem('token')).toBe('legacy');
  });

  it('keeps each server origin apart', async () => {
    const backend = memoryKeychain();
    const a = createVault({ origin: 'https://a.example/path', load: async () => backend });
    const b = createVault({ origin: 'https://b.example', load: async () => backend });
    await a.setItem('token', 'A');
    expect(await b.getItem('token')).toBeNull();
    expect([...backend.entries.keys()]).toContain('vibeeval https://a.example/token');
  });

  it('moves a session saved under the former bare service name to the server origin once', async () => {
    const backend = memoryKeychain();
    await createVault({ load: async () => backend }).setItem('token', 'x'.repeat(CHUNK_SIZE + 5));
    const scoped = createVault({ origin: 'https://a.example', load: async () => backend });
    expect(await scoped.getItem('token')).toBe('x'.repeat(CHUNK_SIZE + 5));
    expect([...backend.entries.keys()].filter((key) => key.startsWith('vibeeval/'))).toEqual([]);
    expect(await scoped.getItem('token')).toBe('x'.repeat(CHUNK_SIZE + 5));
    expect(await scoped.getItem('missing')).toBeNull();
  });

  it('never splits a surrogate pair', () => {
    const chunks = splitChunks('😀'.repeat(5), 2);
    expect(chunks).toEqual(['😀😀', '😀😀', '😀']);
  });
});

/** Reversible stand-in for safeStorage: a marker plus base64, so a foreign file fails to decrypt. */
function fakeSafeStorage(available = true): SafeStorage {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (text) => Buffer.from(`enc:${Buffer.from(text).toString('base64')}`),
    decryptString: (data) => {
      const text = data.toString();
      if (!text.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext');
      return Buffer.from(text.slice(4), 'base64').toString();
    },
  };
}

describe('vault fallback to safeStorage files', () => {
  let directory = '';
  afterEach(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  const noKeytar = async (): Promise<KeychainBackend> => {
    throw new Error('Cannot find module keytar');
  };

  it('falls back when keytar cannot load, reports it once, and stores encrypted 0600 files', async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'vault-'));
    const onFallback = vi.fn();
    const vault = createVault({ load: noKeytar, fallback: () => createFileKeychain(directory, fakeSafeStorage()), onFallback });
    const value = 'secret'.repeat(500);
    await vault.setItem('token', value);
    expect(await vault.getItem('token')).toBe(value);
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(onFallback).toHaveBeenCalledWith('Cannot find module keytar');
    const files = await readdir(directory);
    expect(files.length).toBe(4); // manifest + 3 chunks, no temporary files left
    expect(files.every((file) => /^[0-9a-f]{64}\.bin$/.test(file))).toBe(true);
    if (process.platform !== 'win32') expect((await stat(path.join(directory, files[0]!))).mode & 0o777).toBe(0o600);
    await vault.removeItem('token');
    expect(await readdir(directory)).toEqual([]);
  });

  it('reads a corrupt file as no value', async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'vault-'));
    const keychain = createFileKeychain(directory, fakeSafeStorage());
    await keychain.setPassword('s', 'a', 'value');
    const [file] = await readdir(directory);
    await writeFile(path.join(directory, file!), 'garbage');
    expect(await keychain.getPassword('s', 'a')).toBeNull();
  });

  it('is unavailable when neither keytar nor encryption can be used', async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'vault-'));
    expect(() => createFileKeychain(directory, fakeSafeStorage(false))).toThrow(EncryptionUnavailableError);
    const onFallback = vi.fn();
    const vault = createVault({ load: noKeytar, fallback: () => createFileKeychain(directory, fakeSafeStorage(false)), onFallback });
    await expect(vault.getItem('token')).rejects.toBeInstanceOf(VaultUnavailableError);
    expect(onFallback).not.toHaveBeenCalled();
  });

  it.runIf(process.platform === 'linux')('refuses safeStorage with the hard-coded Linux key (basic_text)', () => {
    const basicText = { ...fakeSafeStorage(), getSelectedStorageBackend: () => 'basic_text' };
    expect(() => createFileKeychain(tmpdir(), basicText)).toThrow(EncryptionUnavailableError);
  });
});
