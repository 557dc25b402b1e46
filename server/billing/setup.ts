import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Db } from '../db';
import type { EventService } from '../events/service';
import type { WebhookEmitter } from '../webhooks/delivery';
import type { PlanGate } from './plan-gate';
import type { BillingProvider } from './provider';
import { LocalProvider } from './providers/local';
import { BillingService } from './service';
import { BillingStore } from './store';

export interface BillingSetup {
  config: Config['billing'];
  db: Db;
  planGate: Pick<PlanGate, 'forget'>;
  events?: Pick<EventService, 'record'>;
  webhooks?: WebhookEmitter;
  logger: Logger;
  /** The clock of the local provider's periods (tests move it). */
  now?: () => Date;
}

/** The billing service with the provider the configuration names (VIBEEVAL_BILLING). */
export function createBilling({ config, db, planGate, events, webhooks, logger, now }: BillingSetup): BillingService {
  const store = new BillingStore(db);
  if (config.provider !== 'local') throw new Error(`VIBEEVAL_BILLING=${config.provider}: only the local provider is built in`);
  const provider: BillingProvider = new LocalProvider({ store, plans: (priceId) => store.plan('local', priceId), now });
  return new BillingService({ store, provider, planGate, events, webhooks, logger });
}
