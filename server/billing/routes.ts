import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cancelSubscriptionSchema,
  changeSubscriptionSchema,
  createSubscriptionSchema,
  type Plan,
  type Subscription,
} from '../../common/billing';
import { userOf } from '../auth/guard';
import type { BillingService } from './service';
import { toSubscription } from './store';

/** Subscription ids: 'sub_local_…' here, Stripe's 'sub_…' otherwise; anything longer names no subscription. */
const subscriptionParams = z.object({ id: z.string().min(1, 'id: is required').max(255, 'id: at most 255 characters') });

/** The signed-in billing calls of spec section 7: the caller's own subscriptions only. */
export function billingRoutes(billing: BillingService) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    // Not paginated: a user holds a few subscriptions over years; the newest 100 are listed (store.ts).
    app.get('/subscriptions', async (request): Promise<{ subscriptions: Subscription[] }> => ({ subscriptions: await billing.subscriptions(userOf(request).id) }));

    app.post('/subscription', { schema: { body: createSubscriptionSchema } }, async (request, reply) => {
      const { subscription, hostedInvoiceUrl } = await billing.create(userOf(request).id, request.body.price_id);
      return reply.code(201).send({ subscription: { ...toSubscription(subscription), latest_invoice: hostedInvoiceUrl ? { hosted_invoice_url: hostedInvoiceUrl } : null } });
    });

    app.post('/subscription/:id/upgrade', { schema: { params: subscriptionParams, body: changeSubscriptionSchema } }, async (request) => {
      const { subscription } = await billing.change(userOf(request).id, request.params.id, request.body.new_price_id);
      return { subscription: toSubscription(subscription) };
    });

    app.post('/subscription/:id/cancel', { schema: { params: subscriptionParams, body: cancelSubscriptionSchema } }, async (request) => ({
      subscription: toSubscription(await billing.cancel(userOf(request).id, request.params.id)),
    }));
  };
}

/** GET /plans: no auth (the pricing view shows it before sign-in); the configured provider's active plans. */
export function planRoutes(billing: BillingService) {
  return async (scope: FastifyInstance) => {
    // Not paginated: a pricing page's few prices, at most 50 (store.ts).
    scope.get('/plans', async (): Promise<{ plans: Plan[]; provider: BillingService['provider'] }> => ({ plans: await billing.plans(), provider: billing.provider }));
  };
}
