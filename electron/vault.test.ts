import { afterAll, describe, expect, it } from 'vitest';
import { createVault, VaultUnavailableError, type KeychainBackend } from './vault';

// The real keytar against the real libsecret: run inside a throwaway D-Bus session and keyring with
//   scripts/with-keyring.sh npx vitest run electron/vault.test.ts
// Without a session bus there is no keyring to talk to, so these tests are skipped (and say why).
const hasSessionBus = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
if (!hasSessionBus) {
  console.warn(
    'electron/vault.test.ts: keychain tests skipped: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset). ' +
      'Run them with scripts/with-keyring.sh npx vitest run electron/vault.test.ts',
  );
}

describe.skipIf(!hasSessionBus)('vault on the OS keychain (keytar + libsecret)', () => {
  // A service of its own per run: never touches the app's real entries, even outside with-keyring.sh.
  const service = `vibeeval-test-${process.pid}-${Date.now()}`;
  const vault = createVault({ service });
  const keys = ['sb-127-auth-token', 'other.key:1', 'unicode'];

  afterAll(async () => {
    for (const key of keys) await vault.removeItem(key);
  });

  it('reads null for a key never stored', async () => {
    await expect(vault.getItem('sb-127-auth-token')).resolves.toBeNull();
  });

  it('stores, reads back, replaces and removes a value', async () => {
    const session = JSON.stringify({ access_token: 'a'.repeat(900), refresh_token: 'r'.repeat(40), expires_at: 1_900_000_000 });
    await vault.setItem('sb-127-auth-token', session);
    await expect(vault.getItem('sb-127-auth-token')).resolves.toBe(session);

    await vault.setItem('sb-127-auth-token', 'second');
    await expect(vault.getItem('sb-127-auth-token')).resolves.toBe('second');

    await vault.removeItem('sb-127-auth-token');
    await expect(vault.getItem('sb-127-auth-token')).resolves.toBeNull();
  });

  it('keeps keys apart and round-trips any text', async () => {
    const text = 'clé 🔑 "quoted", tab\t, new\nline';
    await vault.setItem('other.key:1', 'one');
    await vault.setItem('unicode', text);
    await expect(vault.getItem('other.key:1')).resolves.toBe('one');
    await expect(vault.getItem('unicode')).resolves.toBe(text);
  });

  it('refuses a value with a NUL character instead of storing it cut short', async () => {
    await expect(vault.setItem('unicode', 'before\0after')).rejects.toThrow(/NUL/);
  });

  it('keeps values under the vault service only', async () => {
    await vault.setItem('other.key:1', 'scoped');
    await expect(createVault({ service: `${service}-elsewhere` }).getItem('other.key:1')).resolves.toBeNull();
  });

  it('treats an empty value as no value, and removing a missing key as done', async () => {
    await vault.setItem('unicode', 'something');
    await vault.setItem('unicode', '');
    await expect(vault.getItem('unicode')).resolves.toBeNull();
    await expect(vault.removeItem('never-stored')).resolves.toBeUndefined();
  });
});

describe('vault without a usable keychain', () => {
  it('fails every call with a clear error, and retries the load each time', async () => {
    let attempts = 0;
    const vault = createVault({
      load: () => {
        attempts += 1;
        return Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file'));
      },
    });
    await expect(vault.getItem('key')).rejects.toThrow(VaultUnavailableError);
    await expect(vault.setItem('key', 'v')).rejects.toThrow(/OS keychain is unavailable.*libsecret-1\.so\.0/);
    expect(attempts).toBe(2);
  });

  it('loads the backend once, on first use', async () => {
    let loads = 0;
    const store = new Map<string, string>();
    const backend: KeychainBackend = {
      getPassword: async (service, account) => store.get(`${service}/${account}`) ?? null,
      setPassword: async (service, account, password) => void store.set(`${service}/${account}`, password),
      deletePassword: async (service, account) => store.delete(`${service}/${account}`),
    };
    const vault = createVault({ load: async () => ((loads += 1), backend) });
    expect(loads).toBe(0);
    await vault.setItem('key', 'value');
    await expect(vault.getItem('key')).resolves.toBe('value');
    expect(store.get('vibeeval/key')).toBe('vibeeval-chunks:v1:1'); // the manifest entry
    expect(store.get('vibeeval/key#0')).toBe('value');
    expect(loads).toBe(1);
  });
});
