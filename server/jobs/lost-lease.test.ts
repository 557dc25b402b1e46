import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { projects, publicScans, reports, scans } from '../db/schema';
import type { MailMessage } from '../mail/mailer';
import { runPublicScanJob } from '../public-scans/job';
import { databaseForTests } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { claimLease, type LeasedTable } from './lease';
import { runScanJob } from './scan-job';
import { publicScanJobDeps, sampleScan, scanJobDeps } from './testing';

// A worker that stalls past the lapse loses its job to another worker. When it wakes up and finishes, its result
// must not land on the row the new holder is running: only the holder stores the end (and announces it, once).
// The engine's scan is replaced here by one that stalls: the takeover happens while it "runs".

const database = databaseForTests();
const SITE = 'https://shop.example/';

/** While the scan runs: its heartbeat lapses and another worker claims the row. */
async function takenOver(table: LeasedTable, id: string): Promise<void> {
  await database.db
    .update(table as typeof scans)
    .set({ heartbeatAt: sql`now() - interval '1 hour'` })
    .where(eq((table as typeof scans).id, id));
  expect(await claimLease(database.db, table, id)).toBeDefined();
}

const stalledScan = (table: LeasedTable, id: () => string) => async (url: string) => {
  await takenOver(table, id());
  return sampleScan(url);
};

describe('a worker that lost its lease while it worked', () => {
  it('stores no scan result over the attempt that took the scan over, and announces nothing', async () => {
    const userId = await personalWorkspace(database.pool, randomUUID());
    const [project] = await database.db.insert(projects).values({ userId, workspaceId: userId, url: SITE }).returning();
    const [queued] = await database.db.insert(scans).values({ projectId: project!.id, userId, workspaceId: userId, url: SITE, numPages: 1, state: 'queued' }).returning();
    const emitted: unknown[] = [];
    const finished: string[] = [];
    const deps = scanJobDeps(database.db, {
      webhooks: { emit: async (...args) => void emitted.push(args) },
      onScanFinished: async (id) => void finished.push(id),
      scan: stalledScan(scans, () => queued!.id),
    });
    expect(await runScanJob(queued!.id, deps, { finalAttempt: true })).toBe('skipped');
    const [row] = await database.db.select().from(scans).where(eq(scans.id, queued!.id));
    expect(row).toMatchObject({ state: 'running', attempts: 2, result: null, finishedAt: null });
    expect(await database.db.select().from(reports).where(eq(reports.scanId, queued!.id))).toEqual([]);
    expect(emitted).toEqual([]);
    expect(finished).toEqual([]);
  });

  it('stores no public scan result over the attempt that took it over, and mails nothing', async () => {
    const [queued] = await database.db.insert(publicScans).values({ url: SITE, email: 'visitor@example.com' }).returning();
    const sent: MailMessage[] = [];
    const deps = publicScanJobDeps(database.db, sent, { scan: stalledScan(publicScans, () => queued!.id) });
    expect(await runPublicScanJob(queued!.id, deps, { finalAttempt: true })).toBe('skipped');
    const [row] = await database.db.select().from(publicScans).where(eq(publicScans.id, queued!.id));
    expect(row).toMatchObject({ state: 'running', attempts: 2, result: null, finishedAt: null });
    expect(sent).toEqual([]);
  });
});
