import type { SettingsBackend } from './settings';

/** The part of electron-store's constructor used here (a fake in tests). */
export type StoreConstructor = new (options: { name: string; clearInvalidConfig: boolean }) => SettingsBackend;

export interface OpenSettingsStoreOptions {
  /** Loads electron-store's class; a dynamic import in the app (it is ESM-only, this bundle is CommonJS). */
  load: () => Promise<StoreConstructor>;
  /** Called after the store opened (main uses it to take down electron-store's own IPC listener). */
  afterOpen?: () => void;
  log?: (message: string) => void;
}

/** An in-memory backend: the settings of this run only, when the file can't be opened. */
export function memoryBackend(): SettingsBackend {
  return { store: {} };
}

/**
 * The `settings` file under the user-data folder, read through migrateSettings by createSettings. A store
 * that can't be opened (unreadable folder, broken install) is no reason not to start: this run then keeps its
 * settings in memory and says so in the log.
 */
export async function openSettingsStore(options: OpenSettingsStoreOptions): Promise<SettingsBackend> {
  const log = options.log ?? ((message: string) => console.error(message));
  try {
    const Store = await options.load();
    const store = new Store({ name: 'settings', clearInvalidConfig: true });
    options.afterOpen?.();
    return store;
  } catch (error) {
    log(`vibeeval: settings are not remembered in this run: ${(error as Error).message}`);
    return memoryBackend();
  }
}
