// Checks that misbehave on purpose, for the isolation tests: loaded by the check worker as `checksModule`.
import { CHECKS } from '../../checks/index';
import { defineCheck, type CheckDefinition, type CheckMeta } from '../../types';

const meta: Omit<CheckMeta, 'id' | 'title'> = {
  family: 'disclosure',
  severity: 'info',
  confidence: 'low',
  cwe: null,
  owasp: 'A02',
  description: 'Test check.',
  remediation: 'None.',
  references: [],
};

/** Nested quantifiers over what the site sent: exponential backtracking, effectively forever. */
export const catastrophic = defineCheck({
  ...meta,
  id: 'test-catastrophic',
  title: 'Catastrophic pattern',
  run: (site) => (/(a+)+$/.test(`${site.root.body.slice(0, 0)}${'a'.repeat(40)}!`) ? [{ url: site.finalUrl, detail: 'matched', evidence: {} }] : []),
});

/** Plans its probes forever (probe planning reads site text too). */
export const catastrophicPlanner = defineCheck({
  ...meta,
  id: 'test-catastrophic-planner',
  title: 'Catastrophic planner',
  probes: (site) => (/(a+)+$/.test(`${site.root.body.slice(0, 0)}${'a'.repeat(40)}!`) ? [{ key: 'never', method: 'GET', url: site.finalUrl }] : []),
  run: () => [],
});

/** Keeps allocating until its worker runs out of memory. */
export const memoryHog = defineCheck({
  ...meta,
  id: 'test-memory-hog',
  title: 'Memory hog',
  run: () => {
    const hoard: string[][] = [];
    for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${hoard.length}`));
  },
});

/** A quick check that always reports, to show the checks after a stopped one still run. */
export const alwaysFinds = defineCheck({
  ...meta,
  id: 'test-always-finds',
  title: 'Always finds',
  run: (site) => [{ url: site.finalUrl, detail: 'found', evidence: {} }],
});

export const checks: readonly CheckDefinition[] = [...CHECKS, catastrophic, catastrophicPlanner, memoryHog, alwaysFinds];
