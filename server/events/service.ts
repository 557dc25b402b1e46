import { and, desc, eq, gte, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PageQuery } from '../../common/pagination';
import { DEFAULT_EVENT_SOURCES, type EventFilters, type EventKind, type EventSource, type ProjectEvent } from '../../common/projects';
import type { Db } from '../db';
import { events, scans } from '../db/schema';
import type { LiveBus } from '../live/bus';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { transaction } from '../db/transaction';

export interface NewEvent {
  /** The member whose action (or whose record's job) it is. */
  userId: string;
  /** The workspace it belongs to. */
  workspaceId: string;
  projectId: string | null;
  scanId?: string | null;
  kind: EventKind;
  url: string;
  at?: Date;
  extra?: Record<string, unknown>;
}

/** The scan attempt that produced request events; they are recorded only while that attempt owns the scan. */
export interface ScanAttempt {
  scanId: string;
  attempt: number;
}

type EventRow = typeof events.$inferSelect;

export function toEvent(row: EventRow): ProjectEvent {
  return {
    id: String(row.id),
    event_name: row.eventName,
    url: row.url,
    timestamp: row.occurredAt.toISOString(),
    extra: row.extra ?? null,
    source: row.scanAttempt !== null ? 'scan' : typeof row.extra?.run_id === 'string' ? 'scenario' : 'site',
  };
}

// The source of an event is read from what its record holds: a scan's requests carry the attempt that made them,
// a scenario run's events its run id; everything else is the site's own activity. No column needed.
const fromScan = isNotNull(events.scanAttempt);
const fromScenario = sql`coalesce(${events.extra} ? 'run_id', false)`;
const SOURCE_SQL: Record<EventSource, SQL> = {
  scan: fromScan,
  scenario: and(sql`${events.scanAttempt} is null`, fromScenario)!,
  site: and(sql`${events.scanAttempt} is null`, sql`not ${fromScenario}`)!,
};

/** The conditions of the Events filters; no `source` lists all but the scanner's own requests. */
export function filterSql(filters: Partial<EventFilters>): SQL[] {
  const sources = filters.source === 'all' ? null : filters.source ? [filters.source] : DEFAULT_EVENT_SOURCES;
  return [
    sources ? or(...sources.map((source) => SOURCE_SQL[source]))! : undefined,
    filters.type ? eq(events.eventName, filters.type) : undefined,
    filters.project ? eq(events.projectId, filters.project) : undefined,
    filters.from ? gte(events.occurredAt, filters.from) : undefined,
    filters.to ? lt(events.occurredAt, filters.to) : undefined,
  ].filter((condition): condition is SQL => condition !== undefined);
}

const sortAt = sql<string>`${sql.raw(cursorTimestampSql('"events"."occurred_at"'))}`;

/** Records what happened and tells the open windows of the workspace's members at once. */
export class EventService {
  constructor(
    private readonly db: Db,
    private readonly live?: LiveBus,
  ) {}

  async record(batch: NewEvent[], { broadcast = true }: { broadcast?: boolean } = {}): Promise<void> {
    if (batch.length === 0) return;
    const rows = await this.db
      .insert(events)
      .values(batch.map((event) => toRow(event, null)))
      .returning();
    await this.broadcast(rows, broadcast);
  }

  /**
   * Records the requests one attempt of a scan made. A retried scan runs from the start, so its requests are
   * those of its last attempt only: the attempt's number goes with each row, a new attempt deletes the rows of
   * earlier ones (`clearEarlierAttempts`), and a batch from an attempt that no longer owns the scan (a worker
   * taken for dead that wakes up) is dropped. The share lock on the scan row orders this insert against the
   * claim that starts the next attempt, so no row of an old attempt can slip in after the clearing.
   */
  async recordForAttempt(owner: ScanAttempt, batch: NewEvent[]): Promise<number> {
    if (batch.length === 0) return 0;
    const rows = await transaction(this.db, async (tx) => {
      const [scan] = await tx.select({ attempts: scans.attempts }).from(scans).where(eq(scans.id, owner.scanId)).for('share');
      if (scan?.attempts !== owner.attempt) return [];
      return tx
        .insert(events)
        .values(batch.map((event) => toRow(event, owner.attempt)))
        .returning();
    });
    await this.broadcast(rows, true);
    return rows.length;
  }

  /** Deletes the request events of a scan's earlier attempts, when a new attempt starts from the beginning. */
  async clearEarlierAttempts(owner: ScanAttempt): Promise<number> {
    const deleted = await this.db
      .delete(events)
      .where(and(eq(events.scanId, owner.scanId), isNotNull(events.scanAttempt), lt(events.scanAttempt, owner.attempt)))
      .returning({ id: events.id });
    return deleted.length;
  }

  private async broadcast(rows: EventRow[], broadcast: boolean) {
    if (!broadcast || !this.live) return;
    for (const row of rows) {
      await this.live.publish(row.workspaceId, { type: 'event', project_id: row.projectId, event: toEvent(row) });
    }
  }

  /** One page of the workspace's events that pass the filters, newest first. */
  async recent(workspaceId: string, page: PageQuery, filters: Partial<EventFilters> = {}): Promise<{ items: ProjectEvent[]; next: string | null }> {
    return this.page(and(eq(events.workspaceId, workspaceId), ...filterSql(filters))!, page);
  }

  /** One page of a project's events that pass the filters, newest first. */
  async forProject(workspaceId: string, projectId: string, page: PageQuery, filters: Partial<EventFilters> = {}): Promise<{ items: ProjectEvent[]; next: string | null }> {
    return this.page(and(eq(events.workspaceId, workspaceId), eq(events.projectId, projectId), ...filterSql(filters))!, page);
  }

  /**
   * A project's latest events of the site itself up to `limit`: the analytics report reads them all at once,
   * server side, and counts real visits only, never the scanner's or a scenario run's own page loads.
   */
  async latestOfProject(workspaceId: string, projectId: string, limit: number): Promise<ProjectEvent[]> {
    const rows = await this.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.projectId, projectId), ...filterSql({ source: 'site' })))
      .orderBy(desc(events.occurredAt), desc(events.id))
      .limit(limit);
    return rows.map(toEvent);
  }

  private async page(scope: SQL, { limit, cursor }: PageQuery) {
    const after = decodeCursor(cursor);
    const where = after ? and(scope, sql`(${events.occurredAt}, ${events.id}) < (${after.at}::timestamptz, ${after.id}::bigint)`) : scope;
    const rows = await this.db
      .select({ row: events, sortAt })
      .from(events)
      .where(where)
      .orderBy(desc(events.occurredAt), desc(events.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, ({ row, sortAt: at }) => ({ at, id: String(row.id) }));
    return { items: page.items.map(({ row }) => toEvent(row)), next: page.next };
  }
}

function toRow(event: NewEvent, scanAttempt: number | null): typeof events.$inferInsert {
  return {
    userId: event.userId,
    workspaceId: event.workspaceId,
    projectId: event.projectId,
    scanId: event.scanId ?? null,
    scanAttempt,
    eventName: event.kind,
    url: event.url.slice(0, 2_000),
    occurredAt: event.at ?? new Date(),
    extra: event.extra ?? null,
  };
}
