import { describe, expect, it, vi } from 'vitest';
import { createSettings } from './settings';
import { openSettingsStore } from './settings-store';

describe('openSettingsStore', () => {
  it('opens the `settings` file, dropping corrupt content, and runs afterOpen', async () => {
    const constructed: unknown[] = [];
    class FakeStore {
      store: Record<string, unknown> = { desktopNotifications: false };
      constructor(options: unknown) {
        constructed.push(options);
      }
    }
    const afterOpen = vi.fn();
    const backend = await openSettingsStore({ load: async () => FakeStore, afterOpen });
    expect(constructed).toEqual([{ name: 'settings', clearInvalidConfig: true }]);
    expect(afterOpen).toHaveBeenCalledOnce();
    expect(createSettings(backend).get().desktopNotifications).toBe(false);
  });

  it('keeps settings in memory for the run when the store cannot be opened, and says so', async () => {
    const log = vi.fn();
    const backend = await openSettingsStore({ load: () => Promise.reject(new Error('EACCES')), log });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('EACCES'));
    const settings = createSettings(backend);
    settings.setDesktopNotifications(false);
    expect(settings.get().desktopNotifications).toBe(false);
  });
});
