import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// In a process of its own: the test runner has handlers of its own for unhandled rejections.
function run(install: boolean) {
  const module = resolve(__dirname, 'last-resort.ts');
  const script = `
    const loaded = await import(${JSON.stringify(module)});
    // The package is CommonJS: its named exports sit on \`default\` when imported from ESM.
    const { keepRunningOnUnhandledRejection } = loaded.default ?? loaded;
    if (${install}) keepRunningOnUnhandledRejection((message) => console.error('LOGGED ' + message));
    Promise.reject(new Error('connection lost while nobody listened'));
    setTimeout(() => console.log('still running'), 100);
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000, cwd: resolve(__dirname, '..') });
}

describe('keepRunningOnUnhandledRejection', () => {
  it('logs an unhandled rejection and keeps the process running, where Node would have exited', () => {
    const without = run(false);
    expect(without.status).not.toBe(0);
    expect(without.stdout).not.toContain('still running');

    const withHandler = run(true);
    expect(withHandler.stderr).toContain('LOGGED unhandled promise rejection (the process keeps running): Error: connection lost while nobody listened');
    expect(withHandler.stdout).toContain('still running');
    expect(withHandler.status).toBe(0);
  });
});
