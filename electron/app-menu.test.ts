import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { APP_ENTRY_URL } from './app-origin';

vi.mock('electron', () => ({ shell: { openExternal: vi.fn() } }));
const { installApplicationMenu } = await import('./app-menu');

function setUp(platform: NodeJS.Platform = 'linux') {
  const templates: MenuItemConstructorOptions[][] = [];
  const calls: string[] = [];
  const send = vi.fn((channel: string, payload: unknown) => void calls.push(`send ${channel} ${JSON.stringify(payload)}`));
  const window = { isDestroyed: () => false, webContents: { getURL: () => APP_ENTRY_URL, send } };
  const menu = installApplicationMenu({
    platform,
    development: false,
    appName: 'vibeeval',
    setApplicationMenu: (template) => void templates.push(template),
    getMainWindow: () => window,
    focusMainWindow: () => void calls.push('focus'),
    openExternal: vi.fn(),
    helpPages: [{ label: 'vibeeval Support', path: '/dashboard/support' }],
  });
  const file = () => templates.at(-1)?.find((item) => item.label === 'File')?.submenu as MenuItemConstructorOptions[];
  const item = (items: MenuItemConstructorOptions[], label: string) => items.find((entry) => entry.label === label);
  const click = (entry: MenuItemConstructorOptions | undefined) => (entry?.click as unknown as () => void)();
  return { menu, templates, calls, send, file, item, click };
}

describe('the application menu', () => {
  it.each(['darwin', 'win32', 'linux'] as const)('is installed on %s', (platform) => {
    const { templates, file } = setUp(platform);
    expect(templates).toHaveLength(1);
    expect(
      file()
        .map((entry) => entry.label)
        .filter(Boolean),
    ).toEqual(['New Project', 'Run Test']);
  });

  it('sends each command to the app window as a menu event, after bringing the window forward', () => {
    const { calls, file, item, click } = setUp();
    click(item(file(), 'New Project'));
    click(item(file(), 'Run Test'));
    expect(calls).toEqual(['focus', 'send vibeeval:event:menu {"command":"new-project"}', 'focus', 'send vibeeval:event:menu {"command":"run-test"}']);
  });

  it('opens a help page of the app through a navigate event', () => {
    const { templates, calls, item, click } = setUp();
    const help = templates[0]!.find((entry) => entry.role === 'help')?.submenu as MenuItemConstructorOptions[];
    click(item(help, 'vibeeval Support'));
    expect(calls).toEqual(['focus', 'send vibeeval:event:navigate {"path":"/dashboard/support"}']);
  });

  it("opens Preferences from the app menu's Settings… on macOS", () => {
    const { templates, calls, item, click } = setUp('darwin');
    const appMenu = templates[0]![0]?.submenu as MenuItemConstructorOptions[];
    const settings = item(appMenu, 'Settings…');
    expect(settings?.accelerator).toBe('Cmd+,');
    click(settings);
    expect(calls).toEqual(['focus', 'send vibeeval:event:navigate {"path":"/dashboard/preferences"}']);
  });

  it("carries the focused report window's actions in File until it loses focus (macOS)", () => {
    const { menu, file, item, click } = setUp('darwin');
    const save = vi.fn();
    const reportA = {};
    const reportB = {};
    menu.showReportItems(reportA, [
      { label: 'Save as PDF…', accelerator: 'CmdOrCtrl+S', click: save },
      { label: 'Open in Browser', click: vi.fn() },
    ]);
    expect(file().map((entry) => entry.label ?? entry.type ?? entry.role)).toEqual([
      'New Project',
      'Run Test',
      'separator',
      'Save as PDF…',
      'Open in Browser',
      'separator',
      'close',
    ]);
    click(item(file(), 'Save as PDF…'));
    expect(save).toHaveBeenCalledOnce();

    menu.hideReportItems(reportB); // another window's blur leaves A's items alone
    expect(item(file(), 'Save as PDF…')).toBeDefined();
    menu.hideReportItems(reportA);
    expect(item(file(), 'Save as PDF…')).toBeUndefined();
  });
});
