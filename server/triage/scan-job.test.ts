import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scanResultSchema } from '../../common/scan';
import { loadSampleResult } from '../../engine/report/__fixtures__/load';
import { overallScore } from '../../engine/score/overall';
import { findingDecisions, projects, scans } from '../db/schema';
import { runScanJob, type ScanJobDeps } from '../jobs/scan-job';
import { databaseForTests } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { sampleScan, scanJobDeps } from '../jobs/testing';

// A project's decisions reach its next scan: the decided finding leaves the stored score, grade and counts, the
// events and the webhook's figures, and is kept in the result's suppressed list with the reason; an accepted risk
// past its expiry counts again.

const SITE = 'https://shop.example/';
const sample = loadSampleResult();
const SERVICE_KEY = sample.findings.find((f) => f.checkId === 'secrets-supabase-service-role')!;
const ENV_FILE = sample.findings.find((f) => f.checkId === 'exposed-env-file')!;
const database = databaseForTests();

function harness() {
  const emitted: unknown[][] = [];
  const events: unknown[] = [];
  const deps = scanJobDeps(database.db, {
    events: {
      record: async (batch: unknown[]) => void events.push(...batch),
      clearEarlierAttempts: async () => undefined,
      recordForAttempt: async () => undefined,
    } as unknown as ScanJobDeps['events'],
    webhooks: { emit: async (...args) => void emitted.push(args) },
    scan: sampleScan,
  });
  return { deps, emitted, events };
}

describe("a project's decisions in its next scan", () => {
  it('leave the score, counts, events and webhook figures, and are listed with the reason', async () => {
    const userId = await personalWorkspace(database.pool, randomUUID());
    const [project] = await database.db.insert(projects).values({ userId, workspaceId: userId, url: SITE }).returning();
    await database.db.insert(findingDecisions).values([
      { workspaceId: userId, projectId: project!.id, fingerprint: SERVICE_KEY.fingerprint, decision: 'false_positive', reason: 'A revoked test key', decidedBy: userId },
      // Expired yesterday: counts again.
      {
        workspaceId: userId,
        projectId: project!.id,
        fingerprint: ENV_FILE.fingerprint,
        decision: 'accepted_risk',
        reason: 'Dummy values',
        expiresAt: new Date(Date.now() - 86_400_000),
        decidedBy: userId,
      },
    ]);
    const [queued] = await database.db.insert(scans).values({ projectId: project!.id, userId, workspaceId: userId, url: SITE, numPages: 1, state: 'queued' }).returning();
    const h = harness();
    expect(await runScanJob(queued!.id, h.deps, { finalAttempt: true })).toBe('completed');

    const [row] = await database.db.select().from(scans).where(eq(scans.id, queued!.id));
    const result = scanResultSchema.parse(row!.result);
    const open = sample.findings.filter((f) => f.fingerprint !== SERVICE_KEY.fingerprint);
    expect(result.findings.map((f) => f.fingerprint)).toEqual(open.map((f) => f.fingerprint));
    expect(result.suppressed).toEqual([{ ...SERVICE_KEY, suppression: { decision: 'false_positive', reason: 'A revoked test key', expires_at: null } }]);
    expect(row!.counts).toEqual({ ...sample.counts, critical: 1 });
    expect({ score: row!.score, grade: row!.grade }).toEqual(overallScore(open));

    const completed = h.emitted.find(([, type]) => type === 'scan.completed')!;
    expect(completed[2]).toMatchObject({ counts: { critical: 1 }, score: row!.score });
    const texts = JSON.stringify(h.events);
    expect(texts).not.toContain(SERVICE_KEY.title);
    expect(texts).toContain(ENV_FILE.title);
  });
});
