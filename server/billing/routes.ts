import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cancelSubscriptionSchema, changeSubscriptionSchema, createSubscriptionSchema, type Plan, type Subscription } from '../../common/billing';
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

/**
 * The webhook's bytes, held where the app-wide input checks do not walk them: a Buffer in the body would be
 * walked byte by byte for NUL characters (about 0.7 s of CPU for 256 KB), which a public route cannot afford.
 */
export class RawBody {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }
  get bytes(): Buffer {
    return this.#bytes;
  }
}

/** The largest Stripe event taken: a subscription event is a few kilobytes. */
const STRIPE_EVENT_MAX_BYTES = 256 * 1024;

/**
 * POST /stripe/webhook: public, authorised by Stripe-Signature alone. Its scope keeps the body as the raw bytes
 * Stripe signed (the app's JSON parser would re-serialise them and break the signature).
 */
export function stripeWebhookRoutes(billing: BillingService) {
  return async (scope: FastifyInstance) => {
    // Stripe posts JSON only: any other type is refused (415) before the signature is even read.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: STRIPE_EVENT_MAX_BYTES }, (_request, body, done) => done(null, new RawBody(body as Buffer)));
    scope.post('/stripe/webhook', { bodyLimit: STRIPE_EVENT_MAX_BYTES }, async (request) => {
      const signature = request.headers['stripe-signature'];
      const payload = request.body instanceof RawBody ? request.body.bytes : Buffer.alloc(0);
      await billing.providerWebhook(payload, typeof signature === 'string' ? signature : undefined);
      return { received: true };
    });
  };
}
