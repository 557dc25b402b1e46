import { plural } from '../../common/plural';
import type { Pool } from 'pg';
import type { z } from 'zod';
import { activeModeRefusal } from '../domains/gate';
import type { PageQuery } from '../../common/pagination';
import { normaliseSiteUrl, siteUrlVariants } from '../../common/site-url';
import { findingKind, scanResultSchema, type Grade, type ScanResult } from '../../common/scan';
import { urlRefusal, type AddressPolicy } from '../../engine/retrieval/address-policy';
import type { ApiKeyCaller } from '../api-keys/keys';
import type { ListCache } from '../changes/list-cache';
import type { EventService } from '../events/service';
import type { Jobs } from '../jobs/queue';
import type { LiveBus } from '../live/bus';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { isUuid, toScanSummary, type ProjectService } from '../projects/service';
import type { createV1ScanBodySchema, V1Scan, v1ProjectListSchema, v1ScanListSchema, v1ResultsSchema } from './schemas';
import { HttpError } from '../http-errors';

type ScanList = z.infer<typeof v1ScanListSchema>;
type ProjectList = z.infer<typeof v1ProjectListSchema>;
type Results = z.infer<typeof v1ResultsSchema>;

const STATUS = { queued: 'pending', running: 'in_progress', completed: 'completed', failed: 'failed' } as const;
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface ScanRow {
  id: string;
  project_id: string;
  url: string;
  state: keyof typeof STATUS;
  created_at: string;
  completed_at: string | null;
  error: string | null;
  score: number | null;
  grade: string | null;
  sort_at: string;
}

const SCAN_COLUMNS = `id, project_id, url, state, ${iso('queued_at')} as created_at, ${iso('finished_at')} as completed_at, error, score, grade`;
// Keyset pages on the index scans (workspace_id, queued_at, id) (migration 0012).
const LIST_SQL = `select ${SCAN_COLUMNS}, ${cursorTimestampSql('queued_at')} as sort_at from scans where workspace_id = $1 __AFTER__ order by queued_at desc, id desc limit $2`;
const LIST_FIRST = LIST_SQL.replace('__AFTER__', '');
const LIST_AFTER = LIST_SQL.replace('__AFTER__', 'and (queued_at, id) < ($3::timestamptz, $4::uuid)');

/** How long a scan request waits for the address policy's DNS answer (as creating a project does). */
const POLICY_LOOKUP_MS = 3000;

export interface PublicApiDeps {
  pool: Pool;
  projects: ProjectService;
  events: EventService;
  jobs: Pick<Jobs, 'enqueueScan'>;
  live: LiveBus;
  lists: ListCache;
  policy: AddressPolicy;
}

/** Results as the public API gives them, from a stored ScanResult (see v1ResultsSchema for what counts as what). */
export function toV1Results(result: ScanResult): Results {
  const categories: Results['categories'] = {};
  const family = (name: keyof Results['categories']) => (categories[name] ??= { issues: 0, warnings: 0, passed: 0 });
  let issues = 0;
  let warnings = 0;
  for (const finding of result.findings) {
    const kind = findingKind(finding.severity);
    if (kind === 'issue') {
      issues++;
      family(finding.family).issues++;
    } else if (kind === 'warning') {
      warnings++;
      family(finding.family).warnings++;
    } else family(finding.family);
  }
  for (const passed of result.passed) family(passed.family).passed++;
  return {
    issues,
    warnings,
    score: result.score,
    grade: result.grade,
    categories,
    findings: result.findings,
    notes: result.warnings,
    coverage: result.coverage ?? null,
    screenshots: null,
  };
}

function toV1Scan(row: Omit<ScanRow, 'sort_at'>, result: unknown): V1Scan {
  const parsed = row.state === 'completed' ? scanResultSchema.safeParse(result) : undefined;
  return {
    id: row.id,
    url: row.url,
    project_id: row.project_id,
    status: STATUS[row.state],
    created_at: row.created_at,
    completed_at: row.completed_at,
    error: row.error,
    results: parsed?.success ? toV1Results(parsed.data) : null,
  };
}

/** The public API's scans and projects, every query scoped to the key's workspace; what a key creates is its maker's. */
export class PublicApiService {
  constructor(private readonly deps: PublicApiDeps) {}

  async listScans(workspaceId: string, { limit, cursor }: PageQuery): Promise<ScanList> {
    const after = decodeCursor(cursor);
    const [{ rows }, total] = await Promise.all([
      this.deps.pool.query<ScanRow>(
        after
          ? { name: 'v1_scans_after', text: LIST_AFTER, values: [workspaceId, limit + 1, after.at, after.id] }
          : { name: 'v1_scans', text: LIST_FIRST, values: [workspaceId, limit + 1] },
      ),
      this.deps.pool.query<{ total: number }>({ name: 'v1_scans_total', text: 'select count(*)::int as total from scans where workspace_id = $1', values: [workspaceId] }),
    ]);
    const page = pageOf(rows, limit, (row) => ({ at: row.sort_at, id: row.id }));
    const scans = page.items.map(({ sort_at: _sortAt, ...row }) => {
      const { results: _results, ...scan } = toV1Scan(row, null);
      return { ...scan, score: row.score, grade: row.grade as Grade | null };
    });
    return { scans, total: total.rows[0]?.total ?? 0, next_cursor: page.next };
  }

  async getScan(workspaceId: string, id: string): Promise<V1Scan> {
    if (!isUuid(id)) throw new HttpError(404, 'Scan not found');
    const { rows } = await this.deps.pool.query<ScanRow & { result: unknown }>({
      name: 'v1_scan',
      text: `select ${SCAN_COLUMNS}, result from scans where id = $1 and workspace_id = $2`,
      values: [id, workspaceId],
    });
    const row = rows[0];
    if (!row) throw new HttpError(404, 'Scan not found');
    return toV1Scan(row, row.result);
  }

  private async assertScannable(url: string): Promise<void> {
    if (this.deps.policy.allowPrivate) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), POLICY_LOOKUP_MS)));
    const refusal = await Promise.race([urlRefusal(this.deps.policy, url, new Map()), timeout]).finally(() => clearTimeout(timer));
    if (refusal) throw new HttpError(400, refusal);
  }

  /** The workspace's project for this URL (the newest if several), created when there is none; its pages set to `depth`. */
  private async projectFor({ workspaceId, userId }: ApiKeyCaller, url: string, depth: number | undefined): Promise<string> {
    const { rows } = await this.deps.pool.query<{ id: string; num_pages: number }>(
      'select id, num_pages from projects where workspace_id = $1 and url = any($2::text[]) order by created_at desc limit 1',
      [workspaceId, siteUrlVariants(url)],
    );
    const found = rows[0];
    if (!found) return (await this.deps.projects.create({ workspaceId, userId }, { url, status: 'active', num_pages: depth ?? 1 })).id;
    if (depth !== undefined && depth !== found.num_pages) await this.deps.projects.update(workspaceId, found.id, { num_pages: depth });
    return found.id;
  }

  /** The workspace's project `projectId` (404 for another workspace's or none); its pages set to `depth`. */
  private async ownedProject(workspaceId: string, projectId: string, url: string | undefined, depth: number | undefined): Promise<{ id: string; url: string }> {
    const { rows } = isUuid(projectId)
      ? await this.deps.pool.query<{ id: string; url: string; num_pages: number }>('select id, url, num_pages from projects where id = $1 and workspace_id = $2', [
          projectId,
          workspaceId,
        ])
      : { rows: [] };
    const found = rows[0];
    if (!found) throw new HttpError(404, 'Project not found');
    if (url !== undefined && url !== normaliseSiteUrl(found.url)) throw new HttpError(400, `url must be the project's URL (${found.url}) when projectId is given`);
    if (depth !== undefined && depth !== found.num_pages) await this.deps.projects.update(workspaceId, found.id, { num_pages: depth });
    return found;
  }

  /**
   * Queues a real scan. One scan runs per project at a time: while one is pending or in progress for this URL, the
   * answer is 409 naming it (poll it instead), so a retried request never starts a second scan.
   */
  async createScan(caller: ApiKeyCaller, body: z.output<typeof createV1ScanBodySchema>): Promise<V1Scan> {
    const { workspaceId, userId } = caller;
    // By projectId: that project's scan, signed in as the test accounts of its Credentials (the scan job reads them).
    const owned = body.projectId !== undefined ? await this.ownedProject(workspaceId, body.projectId, body.url, body.options?.depth) : null;
    const url = owned?.url ?? body.url!;
    await this.assertScannable(url);
    const active = body.options?.active;
    if (active) await this.assertActiveAllowed(workspaceId, url);
    const projectId = owned?.id ?? (await this.projectFor(caller, url, body.options?.depth));
    let scan;
    try {
      scan = await this.deps.projects.queueScan(caller, projectId, 'api', { active });
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 409) throw error;
      const { rows } = await this.deps.pool.query<{ id: string }>("select id from scans where project_id = $1 and state in ('queued', 'running') limit 1", [projectId]);
      const active = rows[0]?.id;
      throw new HttpError(
        409,
        `A scan of this ${owned ? 'project' : 'URL'} is already pending or in progress${active ? ` (${active}); follow it with GET /v1/scans/${active}` : ''}.`,
      );
    }
    await this.deps.jobs.enqueueScan(scan.id);
    const pages = `up to ${plural(scan.numPages, 'page')}`;
    await this.deps.events.record([
      { workspaceId, userId, projectId, scanId: scan.id, kind: 'other', url: scan.url, extra: { description: `Scan queued through the API (${pages})`, scan_id: scan.id } },
    ]);
    await this.deps.live.publish(workspaceId, { type: 'scan.state', project_id: projectId, scan_id: scan.id, scan: toScanSummary(scan) });
    this.deps.lists.invalidate(workspaceId);
    return {
      id: scan.id,
      url: scan.url,
      project_id: projectId,
      status: 'pending',
      created_at: scan.queuedAt.toISOString(),
      completed_at: null,
      error: null,
      results: null,
    };
  }

  /** Active mode asked for directly: refused with the reason rather than run passive (the job gates the project's mode). */
  private async assertActiveAllowed(workspaceId: string, url: string): Promise<void> {
    const verified = async () =>
      (await this.deps.pool.query<{ domain: string }>('select domain from verified_domains where workspace_id = $1 and verified_at is not null', [workspaceId])).rows.map(
        ({ domain }) => domain,
      );
    const refusal = await activeModeRefusal(this.deps.policy, url, verified);
    if (refusal) throw new HttpError(400, refusal);
  }

  async listProjects(workspaceId: string, page: PageQuery): Promise<ProjectList> {
    const { items, next } = await this.deps.projects.list(workspaceId, page);
    return {
      projects: items.map((project) => ({
        id: project.id,
        url: project.url,
        name: project.instruction_text?.split('\n')[0]?.trim().slice(0, 100) || hostOf(project.url),
        created_at: project.creation_date,
        last_scan: project.latest_scan
          ? {
              id: project.latest_scan.id,
              status: STATUS[project.latest_scan.state],
              score: project.latest_scan.score,
              grade: project.latest_scan.grade,
              created_at: project.latest_scan.queued_at,
              completed_at: project.latest_scan.finished_at,
            }
          : null,
      })),
      next_cursor: next,
    };
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
