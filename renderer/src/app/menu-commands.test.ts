import { describe, expect, it, vi } from 'vitest';
import { createMenuCommands } from './menu-commands';

describe('menu command registry', () => {
  it('runs the handler of the page registered last, for its own command only', () => {
    const commands = createMenuCommands();
    const list = vi.fn();
    const detail = vi.fn();
    const stopList = commands.register('new-project', list);
    const stopDetail = commands.register('run-test', detail);
    expect(commands.dispatch('new-project')).toBe(true);
    expect(commands.dispatch('run-test')).toBe(true);
    expect(list).toHaveBeenCalledOnce();
    expect(detail).toHaveBeenCalledOnce();

    const newer = vi.fn();
    const stopNewer = commands.register('new-project', newer);
    commands.dispatch('new-project');
    expect(newer).toHaveBeenCalledOnce();
    expect(list).toHaveBeenCalledOnce();

    stopNewer();
    stopNewer(); // twice is harmless
    commands.dispatch('new-project');
    expect(list).toHaveBeenCalledTimes(2);
    stopList();
    stopDetail();
    expect(commands.dispatch('new-project')).toBe(false);
    expect(commands.dispatch('run-test')).toBe(false);
  });
});
