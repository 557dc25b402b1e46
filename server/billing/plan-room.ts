import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { projects, scenarios } from '../db/schema';
import type { PlanGate } from './plan-gate';

/** What a plan counts: the projects and the AI browser scenarios an account holds. */
export type CountedKind = 'projects' | 'scenarios';

/** A database handle that can insert: the pool-backed database or one of its transactions. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

// The first key of the two-key advisory lock: names this lock's purpose ('plan' in ASCII) so it cannot meet
// another use of advisory locks on the same user.
const PLAN_LOCK_CLASS = 0x706c616e;

/** How many projects or scenarios a workspace (an account's personal one: its user id) holds, as the limit counts them. */
export async function held(tx: DbOrTx, kind: CountedKind, userId: string): Promise<number> {
  const table = kind === 'projects' ? projects : scenarios;
  const [row] = await tx.select({ n: count() }).from(table).where(eq(table.workspaceId, userId));
  return row?.n ?? 0;
}

/**
 * Inserts one more project or scenario only while the account's plan has room for it (else the plan's 403).
 * The count and the insert run in one transaction under a per-user advisory lock, so creations racing each other
 * (two tabs, the dashboard and the API, two server instances) are counted one after the other and never pass the
 * limit. Plans without a limit insert directly, with no lock. Without a gate (workers, which create neither),
 * nothing is counted.
 */
export async function insertWithinPlan<T>(db: Db, gate: PlanGate | undefined, userId: string, kind: CountedKind, insert: (tx: DbOrTx) => Promise<T>): Promise<T> {
  if (!gate || (await gate.planOf(userId)).limits[kind] === null) return insert(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PLAN_LOCK_CLASS}::int, hashtext(${userId}))`);
    await gate.assertRoomFor(userId, kind, () => held(tx, kind, userId));
    return insert(tx);
  });
}
