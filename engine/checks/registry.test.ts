import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_FAMILIES, OWASP_2025, SEVERITIES } from '../../common/scan';
import { CHECKS } from './index';

const dir = __dirname;
const checkFiles = readdirSync(dir).filter((name) => name.endsWith('.ts') && name !== 'index.ts' && !name.endsWith('.test.ts'));

describe('check registry', () => {
  it('has unique ids', () => {
    const ids = CHECKS.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('registers every check file, and each file declares exactly one check', () => {
    const index = readFileSync(join(dir, 'index.ts'), 'utf8');
    for (const file of checkFiles) {
      const module = file.replace(/\.ts$/, '');
      expect(index, `${file} is not imported by the registry`).toContain(`'./${module}'`);
      const source = readFileSync(join(dir, file), 'utf8');
      expect(source.match(/defineCheck\(/g)?.length, `${file} declares one check`).toBe(1);
    }
    expect(CHECKS.length).toBe(checkFiles.length);
  });

  it('gives every check complete metadata', () => {
    for (const check of CHECKS) {
      expect(check.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(CHECK_FAMILIES).toContain(check.family);
      expect(SEVERITIES).toContain(check.severity);
      expect(Object.keys(OWASP_2025)).toContain(check.owasp);
      expect(check.title.length).toBeGreaterThan(3);
      expect(check.description.length).toBeGreaterThan(10);
      expect(check.remediation.length).toBeGreaterThan(10);
      expect(check.references.length).toBeGreaterThan(0);
      for (const ref of check.references) expect(ref).toMatch(/^https:\/\//);
    }
  });
});
