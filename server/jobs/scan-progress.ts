import { and, eq, sql } from 'drizzle-orm';
import type { ScanProgress } from '../../common/scan';
import type { Db } from '../db';
import { scans } from '../db/schema';
import type { LiveBus } from '../live/bus';

/** Live progress messages: at most one per this interval within a phase (a new phase and 'done' go at once). */
export const PROGRESS_EVERY_MS = 300;
/** Progress stored on the scan row for clients that poll: at most once a second. */
export const STORE_EVERY_MS = 1_000;

export interface ProgressTarget {
  id: string;
  /** Progress goes to the members of the scan's workspace. */
  workspaceId: string;
  projectId: string;
}

/** Where progress goes: the live stream of the scan's workspace and the scan row. */
export interface ProgressSinks {
  /** Never rejects (the live bus logs what it cannot send). */
  publish: (workspaceId: string, message: { type: 'scan.progress'; project_id: string; scan_id: string; progress: ScanProgress }) => Promise<void>;
  store: (scanId: string, progress: ScanProgress) => Promise<void>;
}

/** Sinks over the live bus and the database. */
export function progressSinks(db: Db, live: LiveBus): ProgressSinks {
  return {
    publish: (workspaceId, message) => live.publish(workspaceId, message),
    store: async (scanId, progress) => {
      await db
        .update(scans)
        .set({ progress, heartbeatAt: sql`now()` })
        .where(and(eq(scans.id, scanId), eq(scans.state, 'running')));
    },
  };
}

/**
 * Throttles the engine's progress callbacks (one per request or check) into live messages and stored
 * snapshots; `latest` is the last progress seen, for the heartbeat.
 */
export class ProgressPublisher {
  latest: ScanProgress | null = null;
  #lastSent = 0;
  #lastPhase = '';
  #lastStored = 0;

  constructor(
    private readonly scan: ProgressTarget,
    private readonly sinks: ProgressSinks,
    private readonly now: () => number = Date.now,
  ) {}

  readonly onProgress = (next: ScanProgress): void => {
    this.latest = next;
    const now = this.now();
    if (next.phase === this.#lastPhase && now - this.#lastSent < PROGRESS_EVERY_MS && next.phase !== 'done') return;
    this.#lastPhase = next.phase;
    this.#lastSent = now;
    const { id, workspaceId, projectId } = this.scan;
    void this.sinks.publish(workspaceId, { type: 'scan.progress', project_id: projectId, scan_id: id, progress: next });
    if (now - this.#lastStored >= STORE_EVERY_MS) {
      this.#lastStored = now;
      void this.sinks.store(id, next).catch(() => undefined);
    }
  };
}
