import { plural } from '../../common/plural';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createProjectBodySchema, eventsQuerySchema, projectScanResponseSchema, updateProjectBodySchema, type ProjectScanResponse } from '../../common/projects';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { findingSchema, scanResultSchema, type ScanResult } from '../../common/scan';
import type { Suppression } from '../../common/triage';
import { diffScans } from '../../engine/diff';
import { applySuppressions } from '../../engine/triage';
import type { ListCache } from '../changes/list-cache';
import type { EventService } from '../events/service';
import type { Jobs } from '../jobs/queue';
import type { LiveBus } from '../live/bus';
import { requestActor } from '../workspaces/actor';
import { nextPageHeaders, setNextPage } from '../pagination';
import { toScanSummary, type ProjectService } from './service';

export interface ProjectRouteDeps {
  projects: ProjectService;
  events: EventService;
  jobs: Jobs;
  live: LiveBus;
  lists: ListCache;
  /** The project's triage decisions in force, applied to the results it shows (absent: none). */
  suppressions?: (projectId: string) => Promise<Suppression[]>;
}

const idParams = z.object({ id: z.string() });
const projectsQuerySchema = pageQuerySchema(PAGE_SIZES.projects);

/** The project API of spec section 7, every record scoped to the request's workspace. */
export function projectRoutes({ projects, events, jobs, live, lists, suppressions }: ProjectRouteDeps) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.post('/project', { schema: { body: createProjectBodySchema }, config: { creationLimit: 'project' } }, async (request, reply) => {
      const actor = requestActor(request);
      const project = await projects.create(actor, request.body);
      await events.record([{ ...actor, projectId: project.id, kind: 'other', url: project.url, extra: { description: 'Project created' } }]);
      return reply.code(201).send(project);
    });

    app.get('/projects', { schema: { querystring: projectsQuerySchema } }, async (request, reply) => {
      const actor = requestActor(request);
      const { limit, cursor } = request.query;
      const answer = await lists.get(actor.workspaceId, `projects?limit=${limit}&cursor=${cursor ?? ''}`, async () => {
        const page = await projects.list(actor, request.query);
        return { body: Buffer.from(JSON.stringify(page.items)), headers: nextPageHeaders(request, page.next) };
      });
      return reply.headers(answer.headers).type('application/json; charset=utf-8').send(answer.body);
    });

    app.get('/project/:id', { schema: { params: idParams } }, async (request) => projects.get(requestActor(request), request.params.id));

    app.patch('/project/:id', { schema: { params: idParams, body: updateProjectBodySchema } }, async (request) =>
      projects.update(requestActor(request), request.params.id, request.body),
    );

    app.delete('/project/:id', { schema: { params: idParams } }, async (request) => {
      await projects.remove(requestActor(request), request.params.id);
      return { message: 'Project deleted' };
    });

    app.patch('/project_test/:id', { schema: { params: idParams }, config: { creationLimit: 'scan' } }, async (request) => {
      const actor = requestActor(request);
      const scan = await projects.queueScan(actor, request.params.id, 'manual');
      await jobs.enqueueScan(scan.id);
      await events.record([
        {
          ...actor,
          projectId: scan.projectId,
          scanId: scan.id,
          kind: 'other',
          url: scan.url,
          extra: { description: `Scan queued (up to ${plural(scan.numPages, 'page')})`, scan_id: scan.id },
        },
      ]);
      await live.publish(actor.workspaceId, { type: 'scan.state', project_id: scan.projectId, scan_id: scan.id, scan: toScanSummary(scan) });
      return { message: 'Project test has been started.', scan_id: scan.id };
    });

    app.get('/project/:id/scan', { schema: { params: idParams } }, async (request): Promise<ProjectScanResponse> => {
      const { latest, completed, reportId } = await projects.scansForView(requestActor(request), request.params.id);
      if (!latest) return { scan: null, result: null, new_fingerprints: [], fixed: [], previous_scan_id: null };
      const [current, previous] = completed;
      // Today's decisions, so a finding decided (or reopened) since the scan shows where it now belongs.
      const decided = current && suppressions ? await suppressions(latest.projectId) : [];
      const stored = current ? parseResult(current.result) : null;
      const result = stored ? applySuppressions(stored, decided) : null;
      const before = previous ? parseResult(previous.result) : null;
      const diff = result ? diffScans(before ?? undefined, result) : undefined;
      return projectScanResponseSchema.parse({
        scan: toScanSummary(latest, latest.id === current?.id ? reportId : null),
        result,
        new_fingerprints: before && diff ? diff.added.map((finding) => finding.fingerprint) : [],
        fixed: before && diff ? diff.fixed.map((finding) => findingSchema.parse(finding)) : [],
        previous_scan_id: previous?.id ?? null,
      });
    });

    app.get('/events/project/:id', { schema: { params: idParams, querystring: eventsQuerySchema } }, async (request, reply) => {
      const project = await projects.row(requestActor(request), request.params.id);
      const page = await events.forProject(project.workspaceId, project.id, request.query, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.get('/events/recent', { schema: { querystring: eventsQuerySchema } }, async (request, reply) => {
      const page = await events.recent(requestActor(request).workspaceId, request.query, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });
  };
}

function parseResult(raw: unknown): ScanResult | null {
  const parsed = scanResultSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
