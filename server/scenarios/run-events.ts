import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { RunEvent } from '../../engine/scenarios';
import type { Db } from '../db';
import { events, scenarioRuns } from '../db/schema';
import { transaction } from '../db/transaction';
import { toEvent, type NewEvent } from '../events/service';
import type { LiveBus } from '../live/bus';

/** Events listed per run attempt (page views, clicks, API calls...); the rest are counted in the finish event. */
export const MAX_RUN_EVENTS = 300;
const FLUSH_EVERY_MS = 1_000;
const MAX_DESCRIPTION = 300;

/** The attempt of a run that records events: a batch of an attempt that no longer owns the run is dropped. */
export interface RunAttempt {
  runId: string;
  scenarioId: string;
  attempt: number;
}

const cap = (text: string) => (text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text);

/** The spec's event kind and words for what a run saw. */
export function describeRunEvent(event: RunEvent): { kind: NewEvent['kind']; url: string; description: string } {
  switch (event.kind) {
    case 'page_view':
      return { kind: 'page_view', url: event.url, description: `Page view ${event.url}` };
    case 'button_click':
    case 'form_submit':
      return { kind: event.kind, url: event.url, description: `Step ${event.step + 1}: ${event.description}` };
    case 'api_call':
      return { kind: 'api_call', url: event.url, description: `${event.method} ${event.url} → ${event.status ?? 'no answer'}` };
    case 'error':
      return { kind: 'error', url: event.url, description: event.description };
  }
}

/** Deletes the events an earlier attempt of the run recorded: a new attempt runs the scenario from the start. */
export async function clearEarlierRunEvents(db: Db, workspaceId: string, owner: RunAttempt): Promise<void> {
  await db
    .delete(events)
    .where(and(eq(events.workspaceId, workspaceId), sql`${events.extra}->>'run_id' = ${owner.runId}`, sql`(${events.extra}->>'attempt')::int < ${owner.attempt}`));
}

/**
 * Turns what one run attempt saw into events, flushed every second and on `stop`, at most MAX_RUN_EVENTS. A batch
 * is written only while the attempt still owns the run (a share lock orders it against the next attempt's claim).
 */
export class RunEventBatcher {
  #pending: NewEvent[] = [];
  #listed = 0;
  #dropped = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly db: Db,
    private readonly live: Pick<LiveBus, 'publish'>,
    private readonly owner: RunAttempt,
    /** Whose events: the run's workspace, the member who started it, its scenario's project. */
    private readonly base: Pick<NewEvent, 'userId' | 'projectId'> & { workspaceId: string },
    private readonly log: Pick<Logger, 'warn'>,
    private readonly max = MAX_RUN_EVENTS,
  ) {}

  get dropped(): number {
    return this.#dropped;
  }

  /**
   * The extra of an event of this attempt. What the run saw carries the attempt (a later attempt replaces it); the
   * lifecycle events (started, interrupted, finished) do not, so the run's history keeps every attempt.
   */
  extra(description: string, { lifecycle = false }: { lifecycle?: boolean } = {}): Record<string, unknown> {
    const extra: Record<string, unknown> = { description: cap(description), scenario_id: this.owner.scenarioId, run_id: this.owner.runId };
    if (!lifecycle) extra.attempt = this.owner.attempt;
    return extra;
  }

  start(everyMs = FLUSH_EVERY_MS): void {
    this.#timer ??= setInterval(() => void this.flush(), everyMs);
  }

  add(event: RunEvent): void {
    if (this.#listed >= this.max) {
      this.#dropped++;
      return;
    }
    this.#listed++;
    const { kind, url, description } = describeRunEvent(event);
    this.#pending.push({ ...this.base, kind, url, extra: this.extra(description) });
  }

  async flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    await this.record(batch).catch((error: Error) => this.log.warn({ err: error }, 'could not record scenario run events'));
  }

  /** Records events of this attempt now (the lifecycle ones), under the same ownership check. */
  async record(batch: NewEvent[]): Promise<void> {
    const rows = await transaction(this.db, async (tx) => {
      const [run] = await tx.select({ attempts: scenarioRuns.attempts }).from(scenarioRuns).where(eq(scenarioRuns.id, this.owner.runId)).for('share');
      if (run?.attempts !== this.owner.attempt) return [];
      return tx
        .insert(events)
        .values(
          batch.map((event) => ({
            workspaceId: this.base.workspaceId,
            userId: event.userId,
            projectId: event.projectId,
            eventName: event.kind,
            url: event.url.slice(0, 2_000),
            occurredAt: new Date(),
            extra: event.extra ?? null,
          })),
        )
        .returning();
    });
    for (const row of rows) await this.live.publish(this.base.workspaceId, { type: 'event', project_id: row.projectId, event: toEvent(row) });
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
