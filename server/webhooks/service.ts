import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PageQuery } from '../../common/pagination';
import type { CreatedWebhook, Webhook, WebhookDelivery, WebhookFormat } from '../../common/webhooks';
import { webhookDeliverySchema } from '../../common/webhooks';
import type { AddressPolicy } from '../../engine/retrieval/address-policy';
import type { Db } from '../db';
import { webhookAttempts, webhookDeliveries, webhooks } from '../db/schema';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { isUuid } from '../projects/service';
import type { Sealer } from '../projects/sealed';
import { webhookUrlRefusal } from './send';
import { newWebhookSecret } from './signing';
import { HttpError } from '../http-errors';

/** Webhooks one workspace may have: enough for every tool a team wires up, few enough that one event stays cheap to fan out. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;

/**
 * How long saving waits for the address policy's DNS answer. Past it the URL is accepted: every delivery checks
 * the addresses it connects to anyway.
 */
const POLICY_LOOKUP_MS = 3000;

type WebhookRow = typeof webhooks.$inferSelect;

const webhookSortAt = sql<string>`${sql.raw(cursorTimestampSql('"webhooks"."created_at"'))}`;
const deliverySortAt = sql<string>`${sql.raw(cursorTimestampSql('"webhook_deliveries"."created_at"'))}`;

const toWebhook = (row: WebhookRow): Webhook => ({ id: row.id, url: row.url, format: row.format, created_at: row.createdAt.toISOString() });

/**
 * A workspace's webhooks and their deliveries, shared by its members. Every query is filtered by the workspace's
 * id: another workspace's webhook does not exist (404). `user_id` stays the member who saved it.
 */
export class WebhookService {
  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
    private readonly policy: AddressPolicy,
  ) {}

  /** Saves a webhook with a new signing secret, answered this once (chat formats keep one too, unused until signed JSON). */
  async create(workspaceId: string, userId: string, url: string, format: WebhookFormat = 'standard'): Promise<CreatedWebhook> {
    await this.assertAllowed(url);
    const [{ value: existing } = { value: 0 }] = await this.db.select({ value: count() }).from(webhooks).where(eq(webhooks.workspaceId, workspaceId));
    if (existing >= MAX_WEBHOOKS_PER_WORKSPACE) {
      throw new HttpError(409, `You can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one to add another.`);
    }
    const secret = newWebhookSecret();
    const [row] = await this.db
      .insert(webhooks)
      .values({ workspaceId, userId, url, format, secretSealed: this.sealer.seal(secret) })
      .returning();
    return { ...toWebhook(row!), secret };
  }

  /** One page of the workspace's webhooks, newest first. */
  async list(workspaceId: string, { limit, cursor }: PageQuery): Promise<{ items: Webhook[]; next: string | null }> {
    const after = decodeCursor(cursor);
    const conditions: SQL[] = [eq(webhooks.workspaceId, workspaceId)];
    if (after) conditions.push(sql`(${webhooks.createdAt}, ${webhooks.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`);
    const rows = await this.db
      .select({ row: webhooks, sortAt: webhookSortAt })
      .from(webhooks)
      .where(and(...conditions))
      .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, ({ row, sortAt }) => ({ at: sortAt, id: row.id }));
    return { items: page.items.map(({ row }) => toWebhook(row)), next: page.next };
  }

  /** Changes what a webhook's deliveries are (pending retries go out in the new format); a 404 for another workspace's. */
  async setFormat(workspaceId: string, id: string, format: WebhookFormat): Promise<Webhook> {
    await this.row(workspaceId, id);
    const [row] = await this.db
      .update(webhooks)
      .set({ format })
      .where(and(eq(webhooks.id, id), eq(webhooks.workspaceId, workspaceId)))
      .returning();
    if (!row) throw new HttpError(404, 'Webhook not found');
    return toWebhook(row);
  }

  /** Deletes a webhook; its pending deliveries go with it (cascade), so no retry reaches it afterwards. */
  async remove(workspaceId: string, id: string): Promise<void> {
    await this.row(workspaceId, id);
    await this.db.delete(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.workspaceId, workspaceId)));
  }

  /** The workspace's webhook, or a 404. */
  async row(workspaceId: string, id: string): Promise<WebhookRow> {
    if (!isUuid(id)) throw new HttpError(404, 'Webhook not found');
    const [row] = await this.db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.id, id), eq(webhooks.workspaceId, workspaceId)));
    if (!row) throw new HttpError(404, 'Webhook not found');
    return row;
  }

  /** The signing secret of the workspace's newest webhook at this URL, if there is one. */
  async secretFor(workspaceId: string, url: string): Promise<{ id: string; secret: string } | undefined> {
    const [row] = await this.db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.url, url)))
      .orderBy(desc(webhooks.createdAt))
      .limit(1);
    return row ? { id: row.id, secret: this.sealer.open(row.secretSealed) } : undefined;
  }

  /** One page of a webhook's deliveries, newest first, each with its attempts (oldest first). */
  async deliveries(workspaceId: string, webhookId: string, { limit, cursor }: PageQuery): Promise<{ items: WebhookDelivery[]; next: string | null }> {
    await this.row(workspaceId, webhookId);
    const after = decodeCursor(cursor);
    const conditions: SQL[] = [eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.workspaceId, workspaceId)];
    if (after) conditions.push(sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`);
    const rows = await this.db
      .select({ row: webhookDeliveries, sortAt: deliverySortAt })
      .from(webhookDeliveries)
      .where(and(...conditions))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, ({ row, sortAt }) => ({ at: sortAt, id: row.id }));
    const ids = page.items.map(({ row }) => row.id);
    const attempts = ids.length
      ? await this.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id))
      : [];
    const items = page.items.map(({ row }) =>
      webhookDeliverySchema.parse({
        id: row.id,
        event_type: row.eventType,
        message_id: row.messageId,
        status: row.status,
        created_at: row.createdAt.toISOString(),
        next_attempt_at: row.status === 'pending' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
        attempts: attempts
          .filter((attempt) => attempt.deliveryId === row.id)
          .map((attempt) => ({
            attempted_at: attempt.attemptedAt.toISOString(),
            status_code: attempt.statusCode,
            duration_ms: attempt.durationMs,
            error: attempt.error,
            response_excerpt: attempt.responseExcerpt,
          })),
      }),
    );
    return { items, next: page.next };
  }

  /** Refuses (400) a URL whose host the address policy refuses, e.g. a private address in server mode. */
  async assertAllowed(url: string): Promise<void> {
    if (this.policy.allowPrivate) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), POLICY_LOOKUP_MS)));
    const refusal = await Promise.race([webhookUrlRefusal(this.policy, url), timeout]).finally(() => clearTimeout(timer));
    if (refusal) throw new HttpError(400, refusal);
  }
}
