import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ScanResult } from '../../common/scan';
import { loadSampleResult } from '../../engine/report/__fixtures__/load';
import type { AddressPolicy } from '../../engine/retrieval/address-policy';
import { projects, scans, verifiedDomains } from '../db/schema';
import { RETRY_NO_THROWAWAY, runScanJob } from '../jobs/scan-job';
import { Sealer } from '../projects/sealed';
import { databaseForTests } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { activeModeRefusal } from './gate';
import { scanJobDeps } from '../jobs/testing';

// Active mode on a shared server (private addresses refused) runs only on a domain the workspace verified; on the
// desktop's own server (private addresses allowed) it needs none. A scan asked to run active on an unverified host
// runs passive and says why in its warnings.

const SHARED: AddressPolicy = { allowPrivate: false };
const DESKTOP: AddressPolicy = { allowPrivate: true };
const database = databaseForTests();

describe('activeModeRefusal', () => {
  it('lets the desktop server run active anywhere; a shared server only on a verified domain or its subdomains', async () => {
    const none = async () => [];
    const verified = async () => ['shop.example'];
    expect(await activeModeRefusal(DESKTOP, 'https://anything.example/', none)).toBeNull();
    expect(await activeModeRefusal(SHARED, 'https://shop.example/', verified)).toBeNull();
    expect(await activeModeRefusal(SHARED, 'https://app.shop.example/login', verified)).toBeNull();
    expect(await activeModeRefusal(SHARED, 'https://shop.example.evil.test/', verified)).toMatch(/shop\.example\.evil\.test.*verified domain/);
    expect(await activeModeRefusal(SHARED, 'https://othershop.example/', verified)).toContain('Settings > Members > Domains');
    expect(await activeModeRefusal(SHARED, 'https://shop.example/', none)).toContain('shop.example');
  });
});

/** A stand-in engine recording the options of each call. */
function harness(policy: AddressPolicy) {
  const calls: Array<{ active: boolean; noThrowaway?: string }> = [];
  const deps = scanJobDeps(database.db, {
    policy,
    sealer: new Sealer('a test install secret'),
    scan: async (url, options, hooks) => {
      calls.push({ active: options?.active ?? false, ...(hooks?.noThrowaway ? { noThrowaway: hooks.noThrowaway } : {}) });
      const result: ScanResult = { ...loadSampleResult(), target: { url, finalUrl: url }, warnings: [] };
      return result;
    },
  });
  return { deps, calls };
}

async function queuedScan(url: string, { activeMode, verified }: { activeMode: boolean; verified?: string }) {
  const userId = await personalWorkspace(database.pool, randomUUID());
  const [project] = await database.db.insert(projects).values({ userId, workspaceId: userId, url, activeMode }).returning();
  if (verified) await database.db.insert(verifiedDomains).values({ workspaceId: userId, userId, domain: verified, token: 't', verifiedAt: new Date() });
  // A domain listed but never verified covers nothing.
  await database.db.insert(verifiedDomains).values({ workspaceId: userId, userId, domain: 'pending.example', token: 'u' });
  const [row] = await database.db.insert(scans).values({ projectId: project!.id, userId, workspaceId: userId, url, numPages: 1, active: activeMode }).returning();
  return row!.id;
}

const storedWarnings = async (id: string) => ((await database.db.select().from(scans).where(eq(scans.id, id)))[0]!.result as unknown as ScanResult).warnings;

describe('a scan asked to run active', () => {
  it('runs passive on a shared server when its host is not a verified domain, and says why in its warnings', async () => {
    const h = harness(SHARED);
    const id = await queuedScan('https://app.pending.example/', { activeMode: true });
    expect(await runScanJob(id, h.deps, { finalAttempt: true })).toBe('completed');
    expect(h.calls).toEqual([{ active: false }]);
    const warnings = await storedWarnings(id);
    expect(warnings.join('\n')).toMatch(/Active mode was not used, the scan ran passive: .*app\.pending\.example.*verified domain/);
  });

  it('runs active on a shared server for a subdomain of a verified domain, with no warning', async () => {
    const h = harness(SHARED);
    const id = await queuedScan('https://app.shop.example/', { activeMode: true, verified: 'shop.example' });
    await runScanJob(id, h.deps, { finalAttempt: true });
    expect(h.calls).toEqual([{ active: true }]);
    expect((await storedWarnings(id)).join('\n')).not.toContain('Active mode');
  });

  it('lets only the first attempt of an active scan create its throwaway account (one per scan, ever)', async () => {
    const h = harness(DESKTOP);
    const id = await queuedScan('http://192.168.1.20:3000/', { activeMode: true });
    // An attempt that ended in a retryable failure leaves the scan queued with its attempt counted.
    await database.db.update(scans).set({ attempts: 1 }).where(eq(scans.id, id));
    await runScanJob(id, h.deps, { finalAttempt: true });
    expect(h.calls).toEqual([{ active: true, noThrowaway: RETRY_NO_THROWAWAY }]);
    const first = await queuedScan('http://192.168.1.21:3000/', { activeMode: true });
    await runScanJob(first, h.deps, { finalAttempt: true });
    expect(h.calls[1]).toEqual({ active: true });
  });

  it('runs active on the desktop server without any verified domain; passive when not asked', async () => {
    const h = harness(DESKTOP);
    await runScanJob(await queuedScan('http://192.168.1.20:3000/', { activeMode: true }), h.deps, { finalAttempt: true });
    await runScanJob(await queuedScan('https://shop.example/', { activeMode: false, verified: 'shop.example' }), h.deps, { finalAttempt: true });
    expect(h.calls).toEqual([{ active: true }, { active: false }]);
  });
});
