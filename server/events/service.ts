import { and, desc, eq } from 'drizzle-orm';
import type { EventKind, ProjectEvent } from '../../common/projects';
import type { Db } from '../db';
import { events } from '../db/schema';
import type { LiveBus } from '../live/bus';

export interface NewEvent {
  userId: string;
  projectId: string | null;
  scanId?: string | null;
  kind: EventKind;
  url: string;
  at?: Date;
  extra?: Record<string, unknown>;
}

type EventRow = typeof events.$inferSelect;

export function toEvent(row: EventRow): ProjectEvent {
  return {
    id: String(row.id),
    event_name: row.eventName,
    url: row.url,
    timestamp: row.occurredAt.toISOString(),
    extra: row.extra ?? null,
  };
}

/** Records what happened and tells the user's open windows at once. */
export class EventService {
  constructor(
    private readonly db: Db,
    private readonly live?: LiveBus,
  ) {}

  async record(batch: NewEvent[], { broadcast = true }: { broadcast?: boolean } = {}): Promise<void> {
    if (batch.length === 0) return;
    const rows = await this.db
      .insert(events)
      .values(
        batch.map((event) => ({
          userId: event.userId,
          projectId: event.projectId,
          scanId: event.scanId ?? null,
          eventName: event.kind,
          url: event.url.slice(0, 2_000),
          occurredAt: event.at ?? new Date(),
          extra: event.extra ?? null,
        })),
      )
      .returning();
    if (!broadcast || !this.live) return;
    for (const row of rows) {
      await this.live.publish(row.userId, { type: 'event', project_id: row.projectId, event: toEvent(row) }).catch(() => undefined);
    }
  }

  async recent(userId: string, limit: number): Promise<ProjectEvent[]> {
    const rows = await this.db.select().from(events).where(eq(events.userId, userId)).orderBy(desc(events.occurredAt), desc(events.id)).limit(limit);
    return rows.map(toEvent);
  }

  async forProject(userId: string, projectId: string, limit = 200): Promise<ProjectEvent[]> {
    const rows = await this.db
      .select()
      .from(events)
      .where(and(eq(events.userId, userId), eq(events.projectId, projectId)))
      .orderBy(desc(events.occurredAt), desc(events.id))
      .limit(limit);
    return rows.map(toEvent);
  }

  /** Every event of a project since a date (analytics reports). */
  async since(userId: string, projectId: string, limit = 20_000): Promise<ProjectEvent[]> {
    return this.forProject(userId, projectId, limit);
  }
}
