import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scanDiffQuerySchema, scanDiffSchema, scanHistoryItemSchema, scanHistoryQuerySchema } from '../../common/scan-history';
import { setNextPage } from '../pagination';
import { callerOf } from '../public-api/routes';
import { v1ScanHistorySchema } from '../public-api/schemas';
import { requestActor } from '../workspaces/actor';
import type { ScanHistoryService } from './service';

const projectParams = z.object({ id: z.string().max(100) });

/** The dashboard's scan history: a project's scans (paginated) and what changed between two of them. */
export function scanHistoryRoutes(history: ScanHistoryService) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/project/:id/scans',
      { schema: { params: projectParams, querystring: scanHistoryQuerySchema, response: { 200: z.array(scanHistoryItemSchema) } } },
      async (request, reply) => {
        const page = await history.list(requestActor(request), request.params.id, request.query);
        setNextPage(request, reply, page.next);
        return page.items;
      },
    );

    app.get('/project/:id/scans/diff', { schema: { params: projectParams, querystring: scanDiffQuerySchema, response: { 200: scanDiffSchema } } }, async (request) =>
      history.diff(requestActor(request), request.params.id, request.query),
    );
  };
}

/** The same under /v1, for API keys (registered inside the public API's guarded scope). */
export function scanHistoryPublicRoutes(history: ScanHistoryService) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/v1/projects/:id/scans',
      { schema: { params: projectParams, querystring: scanHistoryQuerySchema, response: { 200: v1ScanHistorySchema } } },
      async (request, reply) => {
        const page = await history.list(callerOf(request), request.params.id, request.query);
        setNextPage(request, reply, page.next);
        return { scans: page.items, next_cursor: page.next };
      },
    );

    app.get('/v1/projects/:id/scans/diff', { schema: { params: projectParams, querystring: scanDiffQuerySchema, response: { 200: scanDiffSchema } } }, async (request) =>
      history.diff(callerOf(request), request.params.id, request.query),
    );
  };
}
