import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { domainBodySchema, domainSchema } from '../../common/domains';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { userOf } from '../auth/guard';
import { setNextPage } from '../pagination';
import { workspaceOf } from '../workspaces/access';
import type { DomainService } from './service';

const idParams = z.object({ id: z.string().max(100) });

/** The workspace's domains: list, add, verify (both proofs checked now), remove; every record scoped to the workspace. */
export function domainRoutes(domains: DomainService) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get('/domains', { schema: { querystring: pageQuerySchema(PAGE_SIZES.domains), response: { 200: z.array(domainSchema) } } }, async (request, reply) => {
      const page = await domains.list(workspaceOf(request).id, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.post('/domains', { schema: { body: domainBodySchema, response: { 201: domainSchema } }, config: { creationLimit: 'domain' } }, async (request, reply) => {
      const created = await domains.create(workspaceOf(request).id, userOf(request).id, request.body.domain);
      return reply.code(201).send(created);
    });

    // Limited like a creation: each call makes the server fetch a URL and ask DNS.
    app.post('/domains/:id/verify', { schema: { params: idParams, response: { 200: domainSchema } }, config: { creationLimit: 'domain-verify' } }, async (request) =>
      domains.verify(workspaceOf(request).id, request.params.id),
    );

    app.delete('/domains/:id', { schema: { params: idParams } }, async (request, reply) => {
      await domains.remove(workspaceOf(request).id, request.params.id);
      return reply.code(204).send();
    });
  };
}
