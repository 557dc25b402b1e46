import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { createdWebhookSchema, webhookBodySchema, webhookDeliverySchema, webhookSchema, webhookTestResultSchema, webhookUpdateSchema } from '../../common/webhooks';
import { userOf } from '../auth/guard';
import { workspaceOf } from '../workspaces/access';
import { setNextPage } from '../pagination';
import type { WebhookService } from './service';
import { sendTestEvent, type TestEventDeps } from './test-event';

export interface WebhookRouteDeps extends TestEventDeps {
  webhooks: WebhookService;
  /**
   * After a webhook is saved in a workspace: a member asked for its deliveries, so the workspace's webhook
   * notifications (its owner's preference, server/account/notifier.ts) are turned on.
   */
  onSaved?(workspaceId: string): Promise<unknown>;
}

const idParams = z.object({ id: z.string() });

/** The webhook API of spec section 7 (and each webhook's deliveries), every record scoped to the current workspace. */
export function webhookRoutes(deps: WebhookRouteDeps) {
  const { webhooks } = deps;
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.post('/webhook', { schema: { body: webhookBodySchema, response: { 201: createdWebhookSchema } }, config: { creationLimit: 'webhook' } }, async (request, reply) => {
      const workspace = workspaceOf(request);
      const created = await webhooks.create(workspace.id, userOf(request).id, request.body.url, request.body.format);
      await deps.onSaved?.(workspace.id);
      return reply.code(201).send(created);
    });

    app.get('/webhooks', { schema: { querystring: pageQuerySchema(PAGE_SIZES.webhooks), response: { 200: z.array(webhookSchema) } } }, async (request, reply) => {
      const page = await webhooks.list(workspaceOf(request).id, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.patch('/webhook/:id', { schema: { params: idParams, body: webhookUpdateSchema, response: { 200: webhookSchema } } }, async (request) =>
      webhooks.setFormat(workspaceOf(request).id, request.params.id, request.body.format),
    );

    app.delete('/webhook/:id', { schema: { params: idParams } }, async (request, reply) => {
      await webhooks.remove(workspaceOf(request).id, request.params.id);
      return reply.code(204).send();
    });

    // Limited like a creation: each call makes the server send a request somewhere.
    app.post(
      '/webhook/test',
      { schema: { body: webhookBodySchema, response: { 200: webhookTestResultSchema, 502: z.object({ detail: z.string() }) } }, config: { creationLimit: 'webhook-test' } },
      async (request, reply) => {
        const result = await sendTestEvent(workspaceOf(request).id, request.body.url, request.body.format, deps);
        return 'unanswered' in result ? reply.code(502).send({ detail: result.unanswered }) : result;
      },
    );

    app.get(
      '/webhook/:id/deliveries',
      { schema: { params: idParams, querystring: pageQuerySchema(PAGE_SIZES.webhookDeliveries), response: { 200: z.array(webhookDeliverySchema) } } },
      async (request, reply) => {
        const page = await webhooks.deliveries(workspaceOf(request).id, request.params.id, request.query);
        setNextPage(request, reply, page.next);
        return page.items;
      },
    );
  };
}
