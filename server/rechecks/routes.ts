import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recheckSchema, rechecksQuerySchema } from '../../common/rechecks';
import { setNextPage } from '../pagination';
import { requestActor } from '../workspaces/actor';
import type { RecheckService } from './service';

const findingParams = z.object({ id: z.string().max(100), fingerprint: z.string().max(100) });
const recheckParams = z.object({ id: z.string().max(100), recheckId: z.string().max(100) });
const projectParams = z.object({ id: z.string().max(100) });

/** The dashboard's 'Check again' on a finding of a project's latest scan: queued, then asked after. */
export function recheckRoutes(rechecks: RecheckService) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/project/:id/findings/:fingerprint/recheck',
      { schema: { params: findingParams, response: { 202: recheckSchema } }, config: { creationLimit: 'recheck' } },
      async (request, reply) => {
        const recheck = await rechecks.start(requestActor(request), request.params.id, request.params.fingerprint);
        return reply.code(202).send(recheck);
      },
    );

    app.get('/project/:id/rechecks/:recheckId', { schema: { params: recheckParams, response: { 200: recheckSchema } } }, async (request) =>
      rechecks.get(requestActor(request), request.params.id, request.params.recheckId),
    );

    app.get('/project/:id/rechecks', { schema: { params: projectParams, querystring: rechecksQuerySchema, response: { 200: z.array(recheckSchema) } } }, async (request, reply) => {
      const page = await rechecks.list(requestActor(request), request.params.id, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });
  };
}
