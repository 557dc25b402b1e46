import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeySchema, apiUsageSchema, createApiKeyBodySchema, createdApiKeySchema } from '../../common/api-keys';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { userOf } from '../auth/guard';
import { workspaceOf } from '../workspaces/access';
import { setNextPage } from '../pagination';
import type { UsageMeter } from '../public-api/usage';
import type { ApiKeyAuth } from './auth';
import type { ApiKeyService } from './service';

export interface ApiKeyRouteDeps {
  keys: ApiKeyService;
  auth: ApiKeyAuth;
  usage: UsageMeter;
  /** Refuses a workspace whose plan has no API access (the plan's 403): no key is issued on such a plan. */
  apiAccess: (workspaceId: string) => Promise<unknown>;
}

const idParams = z.object({ id: z.string().max(100) });

/**
 * The dashboard's API key routes (signed-in session): issue, list, revoke, and today's usage of the public API, all
 * of the current workspace (a key made here acts in it). Listing, revoking and the usage stay open on a plan
 * without API access, so a downgraded workspace can clean up.
 */
export function apiKeyRoutes({ keys, auth, usage, apiAccess }: ApiKeyRouteDeps) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.post('/api_keys', { schema: { body: createApiKeyBodySchema, response: { 201: createdApiKeySchema } }, config: { creationLimit: 'api_key' } }, async (request, reply) => {
      const workspace = workspaceOf(request);
      await apiAccess(workspace.id);
      const created = await keys.create(workspace.id, userOf(request).id, request.body.name);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    });

    app.get('/api_keys', { schema: { querystring: pageQuerySchema(PAGE_SIZES.apiKeys), response: { 200: z.array(apiKeySchema) } } }, async (request, reply) => {
      const page = await keys.list(workspaceOf(request).id, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.delete('/api_key/:id', { schema: { params: idParams } }, async (request, reply) => {
      const hash = await keys.remove(workspaceOf(request).id, request.params.id);
      await auth.revoked(hash);
      return reply.code(204).send();
    });

    app.get('/api_usage', { schema: { response: { 200: apiUsageSchema } } }, async (request) => usage.usage(workspaceOf(request).id));
  };
}
