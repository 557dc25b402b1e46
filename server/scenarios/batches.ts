import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { scenarioRuns, scenarios } from '../db/schema';

/** One finished run of a Run All batch, as its summary mail lists it. */
export interface BatchRun {
  name: string;
  website: string;
  status: 'passed' | 'failed';
  failedStep: number | null;
  error: string | null;
}

/**
 * What the mail of a finished run should be: its own mail (a run queued alone), nothing yet (other runs of its Run
 * All are still queued or running, or another run already claimed the summary), or the summary of the whole batch,
 * claimed here once. The claim marks the batch's first run: a conditional update of one row, so of two runs finishing
 * together exactly one sends it. Each run's status is stored before this is asked, so the last one to finish sees
 * every other finished.
 */
export async function batchMailOf(db: Db, workspaceId: string, runId: string): Promise<{ kind: 'single' } | { kind: 'wait' } | { kind: 'summary'; runs: BatchRun[] }> {
  const [run] = await db
    .select({ batchId: scenarioRuns.batchId })
    .from(scenarioRuns)
    .where(and(eq(scenarioRuns.id, runId), eq(scenarioRuns.workspaceId, workspaceId)));
  if (!run?.batchId) return { kind: 'single' };
  const rows = await db
    .select({
      id: scenarioRuns.id,
      status: scenarioRuns.state,
      failedStep: scenarioRuns.failedStep,
      error: scenarioRuns.error,
      name: scenarios.summarizedActions,
      website: scenarios.website,
    })
    .from(scenarioRuns)
    .innerJoin(scenarios, eq(scenarios.id, scenarioRuns.scenarioId))
    .where(and(eq(scenarioRuns.batchId, run.batchId), eq(scenarioRuns.workspaceId, workspaceId)))
    .orderBy(asc(scenarioRuns.createdAt), asc(scenarioRuns.id));
  if (rows.length <= 1) return { kind: 'single' };
  if (rows.some((row) => row.status === 'queued' || row.status === 'running')) return { kind: 'wait' };
  const claimed = await db
    .update(scenarioRuns)
    .set({ batchMailedAt: sql`now()` })
    .where(and(eq(scenarioRuns.id, rows[0]!.id), isNull(scenarioRuns.batchMailedAt)))
    .returning({ id: scenarioRuns.id });
  if (claimed.length === 0) return { kind: 'wait' };
  return {
    kind: 'summary',
    runs: rows.map((row) => ({
      name: row.name ?? row.website,
      website: row.website,
      status: row.status === 'passed' ? 'passed' : 'failed',
      failedStep: row.failedStep,
      error: row.error,
    })),
  };
}
