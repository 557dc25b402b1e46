import { EventEmitter } from 'node:events';
import type { BrowserWindow } from 'electron';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({
  dialog: { showSaveDialog: vi.fn() },
  Menu: { buildFromTemplate: (template: unknown) => ({ template }) },
  shell: { openExternal: vi.fn() },
}));
const { createReportMenuAttacher } = await import('./report-menu');

function fakeWindow() {
  const emitter = new EventEmitter();
  const setMenu = vi.fn();
  const window = Object.assign(emitter, { setMenu, getTitle: () => 'Report', webContents: {} }) as unknown as BrowserWindow & EventEmitter;
  return { window, setMenu };
}

describe('report window actions', () => {
  it("get a menu of the window's own on Windows and Linux", () => {
    const applicationMenu = { showReportItems: vi.fn(), hideReportItems: vi.fn() };
    const { window, setMenu } = fakeWindow();
    createReportMenuAttacher(applicationMenu, 'win32')(window, 'http://127.0.0.1:5000/report-preview');
    const [[menu]] = setMenu.mock.calls as [[{ template: [{ label: string; submenu: { label: string }[] }] }]];
    expect(menu.template[0].label).toBe('File');
    expect(menu.template[0].submenu.map((item) => item.label)).toEqual(['Save as PDF…', 'Open in Browser']);
    window.emit('focus');
    expect(applicationMenu.showReportItems).not.toHaveBeenCalled();
  });

  it('join the application menu while the window is focused on macOS', () => {
    const applicationMenu = { showReportItems: vi.fn(), hideReportItems: vi.fn() };
    const { window, setMenu } = fakeWindow();
    createReportMenuAttacher(applicationMenu, 'darwin')(window, 'http://127.0.0.1:5000/report-preview');
    expect(setMenu).not.toHaveBeenCalled();
    window.emit('focus');
    const [owner, items] = applicationMenu.showReportItems.mock.calls[0] as [unknown, { label: string }[]];
    expect(owner).toBe(window);
    expect(items.map((item) => item.label)).toEqual(['Save as PDF…', 'Open in Browser']);
    window.emit('blur');
    window.emit('closed');
    expect(applicationMenu.hideReportItems.mock.calls).toEqual([[window], [window]]);
  });
});
