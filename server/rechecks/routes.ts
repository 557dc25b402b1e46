import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recheckResponseSchema } from '../../common/rechecks';
import { requestActor } from '../workspaces/actor';
import type { RecheckService } from './service';

const findingParams = z.object({ id: z.string().max(100), fingerprint: z.string().max(100) });

/** The dashboard's 'Check again' on a finding of a project's latest scan. */
export function recheckRoutes(rechecks: RecheckService) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post('/project/:id/findings/:fingerprint/recheck', { schema: { params: findingParams, response: { 200: recheckResponseSchema } } }, async (request) =>
      rechecks.recheck(requestActor(request), request.params.id, request.params.fingerprint),
    );
  };
}
