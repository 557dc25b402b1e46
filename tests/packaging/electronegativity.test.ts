import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { audit, readConfig, reconcile, type AcceptedFinding, type Finding } from '../../scripts/electronegativity.mjs';

const finding = (check: string, file: string, line = 1): Finding => ({ check, severity: 'MEDIUM', file, line, column: 1, description: '' });
const accept = (check: string, file: string, count = 1): AcceptedFinding => ({ check, file, count, reason: 'explained for the test' });

describe('reconcile', () => {
  it('lets each accepted entry explain up to its count of findings of its check in its file', () => {
    const findings = [finding('OPEN_EXTERNAL_JS_CHECK', 'electron/shell.ts', 5), finding('OPEN_EXTERNAL_JS_CHECK', 'electron/shell.ts', 9)];
    expect(reconcile(findings, [accept('OPEN_EXTERNAL_JS_CHECK', 'electron/shell.ts', 2)])).toEqual({ unexplained: [], stale: [] });
    expect(reconcile(findings, [accept('OPEN_EXTERNAL_JS_CHECK', 'electron/shell.ts', 1)]).unexplained).toEqual([findings[1]]);
  });

  it('does not let an explanation for one file or check cover another', () => {
    const findings = [finding('OPEN_EXTERNAL_JS_CHECK', 'electron/menu.ts'), finding('SANDBOX_JS_CHECK', 'electron/shell.ts')];
    const { unexplained } = reconcile(findings, [accept('OPEN_EXTERNAL_JS_CHECK', 'electron/shell.ts'), accept('CSP_GLOBAL_CHECK', 'N/A')]);
    expect(unexplained).toEqual(findings);
  });

  it('reports explanations that no longer explain anything', () => {
    const stale = accept('CSP_GLOBAL_CHECK', 'N/A');
    expect(reconcile([], [stale]).stale).toEqual([stale]);
  });
});

describe("the project's electronegativity.json", () => {
  it('gives every exception a reason', () => {
    const config = readConfig();
    expect(config.inputs).toEqual(['electron', 'preload', 'renderer']);
    for (const entry of [...(config.accepted ?? []), ...(config.excludedChecks ?? [])]) expect(entry.reason.length).toBeGreaterThan(40);
  });
});

describe('audit', () => {
  const root = mkdtempSync(join(tmpdir(), 'vibeeval-audit-test-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fails a window that turns isolation off, and leaves test files out', async () => {
    mkdirSync(join(root, 'electron'));
    const unsafe =
      "import { BrowserWindow } from 'electron';\nexport const w = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n";
    writeFileSync(join(root, 'electron', 'window.ts'), unsafe);
    writeFileSync(join(root, 'electron', 'window.test.ts'), unsafe);
    const result = await audit(root, { inputs: ['electron'], excludedChecks: [{ check: 'AvailableSecurityFixesGlobalCheck', reason: 'offline' }], accepted: [] });
    const checks = result.unexplained.filter((f) => f.file === 'electron/window.ts').map((f) => f.check);
    expect(checks).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK']));
    expect(result.findings.some((f) => f.file.endsWith('.test.ts'))).toBe(false);
    expect(result.unreadable).toEqual([]);
  });
});
