import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { baselineEntryOutputSchema, decisionBodySchema, decisionSchema } from '../../common/triage';
import { setNextPage } from '../pagination';
import { callerOf } from '../public-api/routes';
import { requestActor } from '../workspaces/actor';
import type { TriageService } from './service';

const projectParams = z.object({ id: z.string().max(100) });
const fingerprintParams = z.object({ id: z.string().max(100), fingerprint: z.string().max(100) });
const decisionsQuery = pageQuerySchema(PAGE_SIZES.decisions).strict();
const baselineQuery = pageQuerySchema(PAGE_SIZES.baseline).strict();
const baselineResponse = z.array(baselineEntryOutputSchema);

/** The dashboard's triage API: a project's decisions (list, set, reopen) and its baseline file, scoped to the workspace. */
export function triageRoutes(triage: TriageService) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get('/project/:id/decisions', { schema: { params: projectParams, querystring: decisionsQuery, response: { 200: z.array(decisionSchema) } } }, async (request, reply) => {
      const page = await triage.list(requestActor(request), request.params.id, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.put('/project/:id/decisions/:fingerprint', { schema: { params: fingerprintParams, body: decisionBodySchema, response: { 200: decisionSchema } } }, async (request) =>
      triage.set(requestActor(request), request.params.id, request.params.fingerprint, request.body),
    );

    app.delete('/project/:id/decisions/:fingerprint', { schema: { params: fingerprintParams } }, async (request, reply) => {
      await triage.reopen(requestActor(request), request.params.id, request.params.fingerprint);
      return reply.code(204).send();
    });

    app.get('/project/:id/baseline', { schema: { params: projectParams, querystring: baselineQuery, response: { 200: baselineResponse } } }, async (request) =>
      triage.baseline(requestActor(request), request.params.id, request.query),
    );
  };
}

/** The same under /v1, for API keys (registered inside the public API's guarded scope). */
export function triagePublicRoutes(triage: TriageService) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/v1/projects/:id/decisions',
      { schema: { params: projectParams, querystring: decisionsQuery, response: { 200: z.object({ decisions: z.array(decisionSchema), next_cursor: z.string().nullable() }) } } },
      async (request, reply) => {
        const page = await triage.list(callerOf(request), request.params.id, request.query);
        setNextPage(request, reply, page.next);
        return { decisions: page.items, next_cursor: page.next };
      },
    );

    app.put('/v1/projects/:id/decisions/:fingerprint', { schema: { params: fingerprintParams, body: decisionBodySchema, response: { 200: decisionSchema } } }, async (request) =>
      triage.set(callerOf(request), request.params.id, request.params.fingerprint, request.body),
    );

    app.delete('/v1/projects/:id/decisions/:fingerprint', { schema: { params: fingerprintParams } }, async (request, reply) => {
      await triage.reopen(callerOf(request), request.params.id, request.params.fingerprint);
      return reply.code(204).send();
    });

    app.get('/v1/projects/:id/baseline', { schema: { params: projectParams, querystring: baselineQuery, response: { 200: baselineResponse } } }, async (request) =>
      triage.baseline(callerOf(request), request.params.id, request.query),
    );
  };
}
