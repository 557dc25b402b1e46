import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ shell: { openExternal: vi.fn() } }));
const { buildMenuTemplate, menuActionSchema } = await import('./menu');

function build(platform: NodeJS.Platform, development = false) {
  const onAction = vi.fn();
  const openExternal = vi.fn();
  const template = buildMenuTemplate({
    platform,
    development,
    appName: 'vibeeval',
    onAction,
    openExternal,
    helpLinks: [
      { label: 'Documentation', url: 'https://docs.example.com/' },
      { label: 'Bad', url: 'javascript:alert(1)' },
    ],
  });
  return { template, onAction, openExternal };
}

const submenu = (item: MenuItemConstructorOptions | undefined) => item?.submenu as MenuItemConstructorOptions[];
const find = (template: MenuItemConstructorOptions[], label: string) => template.find((item) => item.label === label);
const roles = (items: MenuItemConstructorOptions[]) => items.map((item) => item.role).filter(Boolean);
const click = (item: MenuItemConstructorOptions | undefined) => (item?.click as unknown as () => void)();

describe('buildMenuTemplate', () => {
  it('has the app menu first on macOS only', () => {
    expect(build('darwin').template[0]?.label).toBe('vibeeval');
    expect(roles(submenu(build('darwin').template[0]))).toContain('quit');
    expect(build('win32').template.map((item) => item.label ?? item.role)).toEqual(['File', 'editMenu', 'View', 'Window', 'help']);
  });

  it('puts New Project and Run Test in File with distinct accelerators that call onAction', () => {
    const { template, onAction } = build('linux');
    const file = submenu(find(template, 'File'));
    const newProject = file.find((item) => item.label === 'New Project');
    const runTest = file.find((item) => item.label === 'Run Test');
    expect(newProject?.accelerator).toBe('CmdOrCtrl+N');
    expect(runTest?.accelerator).toBe('CmdOrCtrl+Enter');
    click(newProject);
    click(runTest);
    expect(onAction.mock.calls).toEqual([['new-project'], ['run-test']]);
    expect(onAction.mock.calls.every(([action]) => menuActionSchema.safeParse(action).success)).toBe(true);
    expect(roles(file)).toEqual(['quit']);
    expect(roles(submenu(find(build('darwin').template, 'File')))).toEqual(['close']);
  });

  it('offers Reload and DevTools in development only', () => {
    expect(roles(submenu(find(build('linux', true).template, 'View')))).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
    const production = roles(submenu(find(build('linux', false).template, 'View')));
    expect(production).not.toContain('reload');
    expect(production).not.toContain('toggleDevTools');
  });

  it('keeps only web help links and opens them externally', () => {
    const { template, openExternal } = build('win32');
    const help = submenu(template.find((item) => item.role === 'help'));
    expect(help.map((item) => item.label)).toEqual(['Documentation']);
    click(help[0]);
    expect(openExternal).toHaveBeenCalledWith('https://docs.example.com/');
  });

  it('uses the window role menu on macOS and an explicit one elsewhere', () => {
    expect(build('darwin').template.some((item) => item.role === 'windowMenu')).toBe(true);
    expect(roles(submenu(find(build('linux').template, 'Window')))).toEqual(['minimize', 'close']);
  });
});
