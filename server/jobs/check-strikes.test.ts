import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { databaseForTests } from '../testing/fresh-database';
import { projects, publicScans, scans } from '../db/schema';
import type { MailMessage } from '../mail/mailer';
import { runPublicScanJob } from '../public-scans/job';
import { personalWorkspace } from '../testing/workspace-rows';
import { strikeHooks, strikesMessage } from './check-strikes';
import { runScanJob } from './scan-job';
import { publicScanJobDeps, scanJobDeps } from './testing';

// Strikes against a scan, against a real PostgreSQL and without the job queue: a scan whose process died while its
// check code ran is claimed again with a strike, and one with two strikes fails instead of a third run.

const database = databaseForTests();
const logger = pino({ level: 'silent' });
// Nothing listens on port 1: a scan that does run fails at once, as unreachable.
const UNREACHABLE = 'http://127.0.0.1:1/';
const BUDGET = { perCheckMs: 2_000, perScanMs: 20_000 };

const scanDeps = () => scanJobDeps(database.db, { logger, checkBudget: BUDGET });

/** A scan row as a process left it: running with a stale heartbeat (the process died), in its checks or not. */
async function orphanedScan(state: 'running' | 'queued', { inChecks, strikes }: { inChecks: boolean; strikes: number }) {
  const userId = await personalWorkspace(database.pool, randomUUID());
  const [project] = await database.db.insert(projects).values({ userId, workspaceId: userId, url: UNREACHABLE }).returning();
  const [row] = await database.db
    .insert(scans)
    .values({
      projectId: project!.id,
      userId,
      workspaceId: userId,
      url: UNREACHABLE,
      numPages: 1,
      state,
      attempts: 2,
      heartbeatAt: state === 'running' ? sql`now() - interval '1 hour'` : null,
      checksStartedAt: inChecks ? sql`now() - interval '1 hour'` : null,
      checkStrikes: strikes,
    })
    .returning();
  return row!.id;
}

const scanRow = async (id: string) => (await database.db.select().from(scans).where(eq(scans.id, id)))[0]!;

describe('strikes against a scan whose checks stopped the scanner', () => {
  it('fails a scan whose process died in its checks a second time, without running it', async () => {
    const id = await orphanedScan('running', { inChecks: true, strikes: 1 });
    expect(await runScanJob(id, scanDeps(), { finalAttempt: false })).toBe('failed');
    const row = await scanRow(id);
    expect(row).toMatchObject({ state: 'failed', checkStrikes: 2, checksStartedAt: null, attempts: 3 });
    expect(row.error).toBe("The scan was stopped: checking this site's pages used more than 2 s of CPU time, or all the memory allowed, twice.");
    expect(row.error).toBe(strikesMessage(BUDGET));
  });

  it('counts a first death in the checks and runs the scan again', async () => {
    const id = await orphanedScan('running', { inChecks: true, strikes: 0 });
    expect(await runScanJob(id, scanDeps(), { finalAttempt: true })).toBe('failed');
    const row = await scanRow(id);
    expect(row.checkStrikes).toBe(1);
    expect(row.error).toMatch(/^Could not reach/);
  });

  it('counts no strike for a process that died outside the checks, or a scan put back by a stop', async () => {
    for (const id of [await orphanedScan('running', { inChecks: false, strikes: 1 }), await orphanedScan('queued', { inChecks: true, strikes: 1 })]) {
      await runScanJob(id, scanDeps(), { finalAttempt: true });
      const row = await scanRow(id);
      expect(row.checkStrikes).toBe(1);
      expect(row.error).toMatch(/^Could not reach/);
    }
  });

  it('marks the scan while check code runs and counts a stopped check worker', async () => {
    const id = await orphanedScan('queued', { inChecks: false, strikes: 0 });
    const hooks = strikeHooks(database.db, scans, id, logger);
    await hooks.checking!(true);
    expect((await scanRow(id)).checksStartedAt).toBeInstanceOf(Date);
    hooks.onCheckWorkerLost!({ checkId: 'error-disclosure', reason: 'stopped after 2 s of CPU time' });
    await hooks.checking!(false);
    await expect.poll(async () => (await scanRow(id)).checkStrikes, { timeout: 5_000 }).toBe(1);
    expect((await scanRow(id)).checksStartedAt).toBeNull();
  });

  it('fails a public scan with two strikes and mails the reason', async () => {
    const [row] = await database.db
      .insert(publicScans)
      .values({
        url: UNREACHABLE,
        email: 'visitor@example.com',
        state: 'running',
        attempts: 2,
        heartbeatAt: sql`now() - interval '1 hour'`,
        checksStartedAt: sql`now() - interval '1 hour'`,
        checkStrikes: 1,
      })
      .returning();
    const sent: MailMessage[] = [];
    const deps = publicScanJobDeps(database.db, sent, { checkBudget: BUDGET });
    expect(await runPublicScanJob(row!.id, deps, { finalAttempt: false })).toBe('mailed');
    const [after] = await database.db.select().from(publicScans).where(eq(publicScans.id, row!.id));
    expect(after).toMatchObject({ state: 'failed', checkStrikes: 2, error: strikesMessage(BUDGET) });
    expect(sent[0]?.text).toContain(strikesMessage(BUDGET));
  });
});
