import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { WebhookEventType, WebhookFormat } from '../../common/webhooks';
import type { AddressPolicy, HostResolver } from '../../engine/retrieval/address-policy';
import type { Db } from '../db';
import { transaction } from '../db/transaction';
import { webhookAttempts, webhookDeliveries, webhooks } from '../db/schema';
import type { Sealer } from '../projects/sealed';
import { deliveryRequest, type DeliveryRequest } from './formats';
import type { EventBody } from './formats/message';
import { delivered, sendWebhook, type SendOutcome } from './send';
import { newMessageId } from './signing';

// Deliveries: one row per event and webhook, then attempts until one succeeds or they run out. The first attempt
// is made at once by the process that emits (a scan's completion reaches its receiver in milliseconds); retries
// wait in the 'webhook-delivery' pg-boss queue, so they survive restarts and any worker may make them. Each
// attempt first claims the row (one UPDATE that only one process can win), so a delivery never has two attempts
// in flight, and each attempt is written to webhook_attempts.

export interface WebhookDeliveryConfig {
  /** How long an attempt waits for the receiver's answer. */
  timeoutMs: number;
  /** Seconds before each retry; attempts in all = 1 + its length (Standard Webhooks suggests 5 s, 5 min, 30 min, 2 h, 5 h, 10 h...). */
  retrySchedule: number[];
}

export interface WebhookDelivererDeps {
  db: Db;
  sealer: Sealer;
  policy: AddressPolicy;
  logger: Logger;
  config: WebhookDeliveryConfig;
  /** Queues an attempt of this delivery in `delaySeconds` (the pg-boss queue). */
  enqueueAttempt(deliveryId: string, delaySeconds: number): Promise<void>;
  /** Tests only: connect to these host names at another address (the policy still judges that address). */
  resolveHost?: HostResolver;
  /** Where the dashboard is, for the link of chat messages (Slack, Discord, Teams); without it they link the report only. */
  origin?: () => string;
}

/**
 * Whose event it is: the workspace whose webhooks receive it, and the member who started what the event reports
 * (the record's `user_id`, who gets the notification mail). A bare id names an account's own event, such as its
 * subscription's: its personal workspace (whose id is the account's) and the account itself.
 */
export type EventOwner = string | { workspaceId: string; userId: string };

/** The workspace and member of an event (see EventOwner). */
export function ownerOf(owner: EventOwner): { workspaceId: string; userId: string } {
  return typeof owner === 'string' ? { workspaceId: owner, userId: owner } : owner;
}

/** What other jobs call to announce an event to a workspace's webhooks. */
export interface WebhookEmitter {
  /** Stores one delivery per webhook of the event's workspace and starts the first attempts; never throws. */
  emit(owner: EventOwner, type: WebhookEventType, data: Record<string, unknown>): Promise<void>;
}

/** Largest JSON body of a delivery: events carry ids, figures and short texts, never findings or pages. */
export const MAX_PAYLOAD_BYTES = 16 * 1024;
/** A pending delivery whose due time passed this long ago lost its job (a process died mid-attempt): queued again. */
const STALLED_AFTER_SECONDS = 60;
const SWEEP_EVERY_MS = 30_000;

type AttemptResult = 'succeeded' | 'retrying' | 'failed' | 'skipped';

interface Claimed {
  attempts: number;
  message_id: string;
  payload: EventBody;
  url: string;
  format: WebhookFormat;
  secret_sealed: string;
}

/** The body of an event, Standard Webhooks' recommended shape: {type, timestamp, data}; bounded in size. */
export function eventPayload(type: string, data: Record<string, unknown>, at: Date = new Date()): Record<string, unknown> {
  const payload = { type, timestamp: at.toISOString(), data };
  const size = Buffer.byteLength(JSON.stringify(payload));
  if (size > MAX_PAYLOAD_BYTES) throw new Error(`webhook payload of ${type} is ${size} bytes, above the limit of ${MAX_PAYLOAD_BYTES}`);
  return payload;
}

export class WebhookDeliverer implements WebhookEmitter {
  readonly #inFlight = new Set<Promise<unknown>>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly deps: WebhookDelivererDeps) {}

  async emit(owner: EventOwner, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    try {
      const ids = await this.store(ownerOf(owner).workspaceId, type, data);
      for (const id of ids) this.#track(this.attempt(id));
    } catch (error) {
      this.deps.logger.warn({ err: error, event: type }, 'could not store webhook deliveries');
    }
  }

  /** The rows of one event, one per webhook of the workspace (each delivery's `user_id` is its webhook's maker). */
  async store(workspaceId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<string[]> {
    const targets = await this.deps.db.select({ id: webhooks.id, userId: webhooks.userId }).from(webhooks).where(eq(webhooks.workspaceId, workspaceId));
    if (!targets.length) return [];
    const payload = eventPayload(type, data);
    const rows = await this.deps.db
      .insert(webhookDeliveries)
      .values(targets.map((target) => ({ webhookId: target.id, workspaceId, userId: target.userId, eventType: type, messageId: newMessageId(), payload })))
      .returning({ id: webhookDeliveries.id });
    return rows.map((row) => row.id);
  }

  /** One attempt of a delivery, if it is due and no other process has it; a failure schedules the next one. */
  async attempt(deliveryId: string): Promise<AttemptResult> {
    const claimed = await this.#claim(deliveryId);
    if (!claimed) return 'skipped';
    let request: DeliveryRequest;
    try {
      // In the webhook's format; signed JSON is signed anew on each attempt (receivers refuse old timestamps), the webhook-id stays.
      const signing = { secret: () => this.deps.sealer.open(claimed.secret_sealed), messageId: claimed.message_id };
      request = deliveryRequest(claimed.format, claimed.payload, signing, this.deps.origin?.() ?? null);
    } catch {
      const error = claimed.format === 'standard' ? 'the signing secret cannot be read (sealed by another install)' : `the ${claimed.format} message could not be made`;
      const outcome: SendOutcome = { statusCode: null, durationMs: 0, error, responseExcerpt: null };
      return this.#settle(deliveryId, claimed.attempts, outcome, true);
    }
    const options = { policy: this.deps.policy, timeoutMs: this.deps.config.timeoutMs, resolveHost: this.deps.resolveHost };
    const outcome = await sendWebhook(claimed.url, request.body, request.headers, options);
    return this.#settle(deliveryId, claimed.attempts, outcome);
  }

  /** Takes the delivery for this attempt: due, pending, and leased until the attempt must be over. */
  async #claim(deliveryId: string): Promise<Claimed | undefined> {
    // The fetcher gives up on a slow body after twice its timeout: the lease outlasts that.
    const leaseSeconds = Math.ceil((this.deps.config.timeoutMs * 2) / 1000) + 30;
    const result = await this.deps.db.execute<Claimed & Record<string, unknown>>(sql`
      update ${webhookDeliveries} d
         set attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
        from ${webhooks} w
       where d.id = ${deliveryId} and w.id = d.webhook_id and d.status = 'pending'
         and (d.next_attempt_at is null or d.next_attempt_at <= now())
      returning d.attempts, d.message_id, d.payload, w.url, w.format, w.secret_sealed`);
    return result.rows[0];
  }

  /** Records the attempt and moves the delivery on: succeeded, failed for good, or due again after its backoff. */
  async #settle(deliveryId: string, attempts: number, outcome: SendOutcome, permanent = false): Promise<AttemptResult> {
    const schedule = this.deps.config.retrySchedule;
    const result: AttemptResult = delivered(outcome) ? 'succeeded' : permanent || attempts > schedule.length ? 'failed' : 'retrying';
    const delay = result === 'retrying' ? schedule[attempts - 1]! : 0;
    try {
      await transaction(this.deps.db, async (tx) => {
        await tx.insert(webhookAttempts).values({
          deliveryId,
          statusCode: outcome.statusCode,
          durationMs: outcome.durationMs,
          error: outcome.error,
          responseExcerpt: outcome.responseExcerpt,
        });
        await tx
          .update(webhookDeliveries)
          .set(result === 'retrying' ? { nextAttemptAt: sql`now() + make_interval(secs => ${delay})` } : { status: result, finishedAt: sql`now()`, nextAttemptAt: null })
          .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.attempts, attempts)));
      });
    } catch (error) {
      // The webhook was deleted during the attempt: its deliveries went with it, nothing to record.
      const code = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
      if (code === '23503') return 'skipped';
      throw error;
    }
    if (result === 'retrying') await this.deps.enqueueAttempt(deliveryId, delay);
    else if (result === 'failed') this.deps.logger.info({ delivery: deliveryId, attempts }, 'webhook delivery failed for good');
    return result;
  }

  /**
   * Queues again the deliveries whose attempt was lost: the process stopped before the first attempt, during an
   * attempt (its lease ran out), or before queueing the retry. Run at start and every SWEEP_EVERY_MS.
   */
  async sweep(): Promise<number> {
    const result = await this.deps.db.execute<{ id: string }>(sql`
      select id from ${webhookDeliveries}
       where status = 'pending'
         and coalesce(next_attempt_at, created_at) < now() - make_interval(secs => ${STALLED_AFTER_SECONDS})
       order by coalesce(next_attempt_at, created_at) limit 100`);
    for (const { id } of result.rows) await this.deps.enqueueAttempt(id, 0);
    return result.rows.length;
  }

  /** Starts the periodic sweep (processes that work the delivery queue). */
  start(): void {
    const pass = () => this.#track(this.sweep().catch((error: Error) => this.deps.logger.debug({ err: error }, 'webhook sweep failed')));
    pass();
    this.#sweeper = setInterval(pass, SWEEP_EVERY_MS);
    this.#sweeper.unref();
  }

  /** Stops the sweep and waits for the attempts in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.allSettled([...this.#inFlight]);
  }

  #track(work: Promise<unknown>): void {
    const tracked = work.catch((error: Error) => this.deps.logger.warn({ err: error }, 'webhook attempt failed to record')).finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }
}
