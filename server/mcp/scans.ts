// What the MCP tools do with a user's projects and scans: find or create the project of a URL, queue its scan,
// wait for it while reporting progress, and read scans back. Every query is scoped to the API key's workspace.
import { setTimeout as delay } from 'node:timers/promises';
import { plural } from '../../common/plural';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { createProjectBodySchema } from '../../common/projects';
import { PlanLimitError } from '../billing/plan-gate';
import { scanResultSchema, type ScanProgress, type ScanResult } from '../../common/scan';
import { isUuid, toScanSummary, type ProjectService } from '../projects/service';
import { creationLimitDetail, type CreationLimits } from '../creation-limits';
import type { Db } from '../db';
import { projects, scans } from '../db/schema';
import type { EventService } from '../events/service';
import type { Jobs } from '../jobs/queue';
import type { LiveBus } from '../live/bus';
import type { McpOwner } from './sessions';
import { HttpError } from '../http-errors';

type ScanRow = typeof scans.$inferSelect;

/** A failure the agent reads as the tool's error text (an isError result), never a protocol error. */
export class ToolError extends Error {}

export interface McpScanDeps {
  db: Db;
  projects: ProjectService;
  jobs: Jobs;
  events: EventService;
  live: LiveBus;
  /** The same per-user creation limits as the dashboard's project and scan routes. */
  limits: CreationLimits;
}

/** How long scan_url waits for its scan; past it the agent gets the scan id to read later. */
export const SCAN_WAIT_MS = 10 * 60_000;
/** How often the scan's row is read while waiting without news from the live bus (progress is stored there by whichever process runs the scan). */
const POLL_MS = 1_000;

export const SCAN_NOT_FOUND = 'Scan not found';

async function takeCreation(limits: CreationLimits, name: string, userId: string): Promise<void> {
  const retryAfter = await limits.take(name, userId);
  if (retryAfter !== null) throw new ToolError(creationLimitDetail(limits.config, retryAfter));
}

/** The workspace's project for this URL (same normalised URL), created by the member when there is none. */
async function projectFor(deps: McpScanDeps, { userId, workspaceId }: McpOwner, url: string, pages: number | undefined) {
  const parsed = createProjectBodySchema.safeParse({ url, ...(pages === undefined ? {} : { num_pages: pages }) });
  if (!parsed.success) throw new ToolError(parsed.error.issues.map((issue) => issue.message).join('; '));
  const body = parsed.data;
  const [existing] = await deps.db
    .select({ id: projects.id, numPages: projects.numPages })
    .from(projects)
    .where(and(eq(projects.workspaceId, workspaceId), eq(projects.url, body.url)))
    .orderBy(desc(projects.createdAt))
    .limit(1);
  if (existing) {
    if (pages !== undefined && existing.numPages !== body.num_pages) await deps.projects.update(workspaceId, existing.id, { num_pages: body.num_pages });
    return existing.id;
  }
  await takeCreation(deps.limits, 'project', userId);
  const created = await deps.projects.create({ workspaceId, userId }, { ...body, instruction_text: new URL(body.url).host });
  await deps.events.record([{ workspaceId, userId, projectId: created.id, kind: 'other', url: created.url, extra: { description: 'Project created' } }]);
  return created.id;
}

/** What scan_url scans: a URL (its project found or created), or a project of the workspace by its id. */
export type ScanTarget = { url: string; projectId?: undefined } | { projectId: string; url?: string };

/** The workspace's project `projectId` (another workspace's or an unknown id is 'Project not found'). */
async function ownedProject(deps: McpScanDeps, { workspaceId }: McpOwner, { projectId, url }: { projectId: string; url?: string }, pages: number | undefined) {
  const [found] = isUuid(projectId)
    ? await deps.db
        .select({ id: projects.id, url: projects.url, numPages: projects.numPages })
        .from(projects)
        .where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId)))
        .limit(1)
    : [];
  if (!found) throw new ToolError('Project not found: use an id from list_projects.');
  if (url !== undefined && url !== found.url) throw new ToolError(`url must be the project's URL (${found.url}) when projectId is given.`);
  if (pages !== undefined && pages !== found.numPages) await deps.projects.update(workspaceId, found.id, { num_pages: pages });
  return found.id;
}

/**
 * Starts a scan in the key's workspace (a real scan job, as the dashboard's Run Test), or joins the scan of that
 * project already queued or running. A project's scan signs in as the test accounts of its Credentials (the scan
 * job reads them; no password travels in the tool's arguments). Refusals (address policy, limits, a bad URL, an
 * unknown project) come back as ToolErrors.
 */
export async function startScan(deps: McpScanDeps, owner: McpOwner, target: ScanTarget, pages?: number): Promise<ScanRow> {
  const { userId, workspaceId } = owner;
  try {
    const projectId = target.projectId !== undefined ? await ownedProject(deps, owner, target, pages) : await projectFor(deps, owner, target.url, pages);
    const [running] = await deps.db
      .select()
      .from(scans)
      .where(and(eq(scans.projectId, projectId), eq(scans.workspaceId, workspaceId), inArray(scans.state, ['queued', 'running'])))
      .limit(1);
    if (running) return running;
    await takeCreation(deps.limits, 'scan', userId);
    const scan = await deps.projects.queueScan({ workspaceId, userId }, projectId, 'api');
    await deps.jobs.enqueueScan(scan.id);
    const description = `Scan queued (up to ${plural(scan.numPages, 'page')})`;
    await deps.events.record([{ workspaceId, userId, projectId: scan.projectId, scanId: scan.id, kind: 'other', url: scan.url, extra: { description, scan_id: scan.id } }]);
    await deps.live.publish(workspaceId, { type: 'scan.state', project_id: scan.projectId, scan_id: scan.id, scan: toScanSummary(scan) });
    return scan;
  } catch (error) {
    // A plan's project limit reads as the same sentence the dashboard shows.
    if (error instanceof HttpError || error instanceof PlanLimitError) throw new ToolError(error.message);
    throw error;
  }
}

/** One of the workspace's scans; another workspace's (or an unknown) id is 'Scan not found'. */
export async function workspaceScan(db: Db, workspaceId: string, scanId: string): Promise<ScanRow> {
  if (!isUuid(scanId)) throw new ToolError(SCAN_NOT_FOUND);
  const [row] = await db
    .select()
    .from(scans)
    .where(and(eq(scans.id, scanId), eq(scans.workspaceId, workspaceId)))
    .limit(1);
  if (!row) throw new ToolError(SCAN_NOT_FOUND);
  return row;
}

/** The stored result of a completed scan, or a ToolError saying what state the scan is in. */
export function completedResult(row: ScanRow): ScanResult {
  if (row.state !== 'completed') {
    throw new ToolError(
      row.state === 'failed' ? `Scan ${row.id} failed: ${row.error ?? 'no reason recorded'}` : `Scan ${row.id} is ${row.state}; call scan_url again or wait for it to complete.`,
    );
  }
  const parsed = scanResultSchema.safeParse(row.result);
  if (!parsed.success) throw new ToolError(`Scan ${row.id} has no readable result.`);
  return parsed.data;
}

export type ProgressListener = (progress: ScanProgress | null, state: ScanRow['state']) => Promise<void> | void;

/** Resolves after `ms`, or earlier when `signal` aborts or `poke` is called. */
async function sleep(ms: number, signal: AbortSignal, pokes: Set<() => void>): Promise<void> {
  const poked = new AbortController();
  const poke = () => poked.abort();
  pokes.add(poke);
  try {
    await delay(ms, undefined, { signal: AbortSignal.any([signal, poked.signal]) });
  } catch {
    // Aborted or poked: the wait is over.
  } finally {
    pokes.delete(poke);
  }
}

export interface WaitOptions {
  timeoutMs?: number;
  /**
   * Wakes the wait when news of the scan arrives (the live bus), so its answer follows the scan's end at once;
   * returns the unsubscribe function. The row is read again at least every POLL_MS anyway.
   */
  wake?: (poke: () => void) => () => void;
}

/**
 * Waits until the scan completes or fails, calling `onProgress` each time its stored progress changes. Ends early
 * (with a ToolError) when `signal` aborts (the client cancelled) or after `timeoutMs`; the scan itself runs on.
 */
export async function waitForScan(
  db: Db,
  workspaceId: string,
  scanId: string,
  signal: AbortSignal,
  onProgress: ProgressListener,
  { timeoutMs = SCAN_WAIT_MS, wake }: WaitOptions = {},
): Promise<ScanRow> {
  const deadline = Date.now() + timeoutMs;
  const pokes = new Set<() => void>();
  const unsubscribe = wake?.(() => pokes.forEach((poke) => poke()));
  try {
    let last = '';
    for (;;) {
      const row = await workspaceScan(db, workspaceId, scanId);
      const seen = JSON.stringify([row.state, row.progress]);
      if (seen !== last) {
        last = seen;
        await onProgress((row.progress as ScanProgress | null) ?? null, row.state);
      }
      if (row.state === 'completed' || row.state === 'failed') return row;
      if (signal.aborted) throw new ToolError(`Stopped waiting for scan ${scanId} (cancelled); it keeps running: read it later with get_scan_findings.`);
      if (Date.now() >= deadline) throw new ToolError(`Scan ${scanId} is still running after ${Math.round(timeoutMs / 60_000)} minutes; read it later with get_scan_findings.`);
      await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), signal, pokes);
    }
  } finally {
    unsubscribe?.();
  }
}
