import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONTINUOUS_BUILDS_PAGE, CONTINUOUS_REPORTS_PER_HOUR, continuousReportBodySchema, monitorScheduleSchema } from '../../common/continuous';
import { pageQuerySchema } from '../../common/pagination';
import { workspaceOf } from '../workspaces/access';
import { detailErrorHandler } from '../http-errors';
import { setNextPage } from '../pagination';
import { takePoint } from '../rate-limit';
import type { MonitoringService } from './monitoring';
import type { ContinuousService } from './service';
import type { PlanGate } from '../billing/plan-gate';
import { HttpError } from '../http-errors';
import { isScannerAgent } from '../../engine/version';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors reads a route's own options here, over the app-wide ones. */
    cors?: FastifyCorsOptions | false;
  }
}

/** Path the monitoring script reports to (spec: POST /continuous-testing). */
export const CONTINUOUS_REPORT_PATH = '/continuous-testing';

// Any site may embed the script, so any origin may report; no cookies or credentials ever travel with a report.
const REPORT_CORS: FastifyCorsOptions = { origin: '*', credentials: false, methods: ['POST'], allowedHeaders: ['content-type'], maxAge: 86_400, exposedHeaders: ['retry-after'] };

export interface ContinuousPublicDeps {
  service: ContinuousService;
  /** Counts each accepted report for the usage meter of the project's workspace. */
  monitoring: MonitoringService;
  pool: pg.Pool;
  /** Reports accepted per site token and hour. */
  perHour?: number;
}

/** POST /continuous-testing: the monitoring script's report, from any origin, limited per site token. */
export function continuousPublicRoutes({ service, monitoring, pool, perHour = CONTINUOUS_REPORTS_PER_HOUR }: ContinuousPublicDeps) {
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: 'continuous_report',
    points: perHour,
    duration: 3600,
  });
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.setErrorHandler(detailErrorHandler);
    // The cors plugin answers the preflight in its hook with this route's options; the handler runs only for a
    // plain OPTIONS that is no preflight.
    app.options(CONTINUOUS_REPORT_PATH, { config: { cors: REPORT_CORS } }, async (_request, reply) => reply.code(204).send());
    app.post(CONTINUOUS_REPORT_PATH, { schema: { body: continuousReportBodySchema }, config: { cors: REPORT_CORS }, bodyLimit: 2048 }, async (request, reply) => {
      const retryAfter = await takePoint(limiter, request.body.site_token);
      if (retryAfter !== null) throw new HttpError(429, 'Too many reports for this site. Please try again later.', retryAfter);
      const project = await service.projectFor(request.body);
      void reply.header('cache-control', 'no-store');
      // vibeeval's own browser (a scan rendering the page, an audit, a scenario run) runs the page's script like a
      // visitor's: its report is no visitor's, so it neither counts on the usage meter nor makes a build (whose
      // re-scan would report again).
      if (isScannerAgent(request.headers['user-agent'])) return reply.code(200).send({ changed: false });
      const outcome = await service.report(project, request.body.hash);
      // Counted once judged: a report that failed is sent again by the script, and counts then.
      await monitoring.countReport(project);
      if (!outcome.changed) return reply.code(200).send({ changed: false });
      return reply.code(202).send({ build_id: outcome.buildId, changed: true });
    });
  };
}

const idParams = z.object({ id: z.string().max(64) });
const buildsQuerySchema = pageQuerySchema(CONTINUOUS_BUILDS_PAGE).extend({ project_id: z.string().max(64).optional() });

/** The signed-in side: the builds list, a project's site token rotation, its monitoring overview and schedule. */
export function continuousRoutes(service: ContinuousService, monitoring: MonitoringService, plan: Pick<PlanGate, 'assertMonitorFrequency'>) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get('/continuous_builds', { schema: { querystring: buildsQuerySchema } }, async (request, reply) => {
      const { project_id: projectId, ...pageQuery } = request.query;
      const page = await service.list(workspaceOf(request).id, pageQuery, projectId);
      setNextPage(request, reply, page.next);
      return page.items;
    });
    app.post('/project/:id/site_token', { schema: { params: idParams } }, async (request) => ({
      site_token: await service.rotateSiteToken(workspaceOf(request).id, request.params.id),
    }));
    app.get('/project/:id/monitoring', { schema: { params: idParams } }, async (request) => monitoring.overview(workspaceOf(request).id, request.params.id));
    app.put('/project/:id/monitoring', { schema: { params: idParams, body: monitorScheduleSchema } }, async (request) => {
      const workspaceId = workspaceOf(request).id;
      await plan.assertMonitorFrequency(workspaceId, request.body.frequency);
      return monitoring.setSchedule(workspaceId, request.params.id, request.body);
    });
  };
}
