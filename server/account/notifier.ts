import { and, desc, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { WebhookEventType } from '../../common/webhooks';
import type { Db } from '../db';
import { reports, users, workspaces } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import type { ReportLinks } from '../reports/links';
import { ownerOf, type EventOwner, type WebhookEmitter } from '../webhooks/delivery';
import { batchMailOf } from '../scenarios/batches';
import { MAILED_EVENTS, notificationMail, scenarioBatchMail } from './notification-mail';
import type { PreferencesStore } from './preferences';

export interface AccountNotifierDeps {
  db: Db;
  preferences: PreferencesStore;
  /** The webhook deliverer: reached only when the workspace owner's webhook notifications are on. */
  webhooks: WebhookEmitter;
  mailer: Mailer;
  links: ReportLinks;
  logger: Logger;
}

/**
 * The one door every job's events go through (scan, report, scenario run, continuous build). An event belongs to
 * a workspace and to the member who started what it reports. The workspace's webhooks are one switch for the whole
 * team, so the workspace owner's webhook preference decides whether they are delivered (the owner holds the plan
 * and the integrations); the mail is personal, so it goes to the member who started the scan or run, by that
 * member's own email preference (colleagues are not mailed about each other's scans). In a personal workspace both
 * are the account itself. The webhook Test button does not come here: it is an explicit request and always sends.
 */
export class AccountNotifier implements WebhookEmitter {
  readonly #inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: AccountNotifierDeps) {}

  async emit(owner: EventOwner, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    const { workspaceId, userId } = ownerOf(owner);
    let webhooksOn: boolean;
    let mailOn: boolean;
    try {
      const ownerId = await this.ownerIdOf(workspaceId);
      const [forWorkspace, forMember] = await Promise.all([this.deps.preferences.get(ownerId), ownerId === userId ? undefined : this.deps.preferences.get(userId)]);
      webhooksOn = forWorkspace.webhook_notifications;
      mailOn = (forMember ?? forWorkspace).email_notifications;
    } catch (error) {
      this.deps.logger.warn({ err: error, event: type }, 'could not read notification preferences: nothing sent');
      return;
    }
    if (webhooksOn) await this.deps.webhooks.emit({ workspaceId, userId }, type, data);
    // The mail goes out in the background: a slow mail server must not hold the job that finished.
    if (mailOn && MAILED_EVENTS.has(type)) this.#track(this.mail({ workspaceId, userId }, type, data));
  }

  /** The owner of a workspace (a personal workspace's id is its owner's; so is an id not found). */
  async ownerIdOf(workspaceId: string): Promise<string> {
    const [row] = await this.deps.db.select({ ownerId: workspaces.ownerId }).from(workspaces).where(eq(workspaces.id, workspaceId));
    return row?.ownerId ?? workspaceId;
  }

  /** Sends the event's mail to the member's address; skipped (debug log) when the address is not known here. */
  async mail(owner: EventOwner, type: WebhookEventType, data: Record<string, unknown>): Promise<boolean> {
    const { workspaceId, userId } = ownerOf(owner);
    const to = await this.#emailOf(userId);
    if (!to) {
      // Hosted accounts (Supabase) live in the hosted project's auth, not in this database.
      this.deps.logger.debug({ event: type }, 'no email address known for this account: notification mail skipped');
      return false;
    }
    // A run of a Run All mails nothing on its own: the last run of the batch to finish sends the batch's summary.
    const batch = type === 'scenario_run.completed' && typeof data.run_id === 'string' ? await batchMailOf(this.deps.db, workspaceId, data.run_id) : { kind: 'single' as const };
    if (batch.kind === 'wait') return false;
    const message = batch.kind === 'summary' ? scenarioBatchMail(to, batch.runs) : notificationMail(to, type, data, await this.#reportUrl(workspaceId, data));
    if (!message) return false;
    await this.deps.mailer.send(message);
    return true;
  }

  /** Waits for the mails in flight (at shutdown). */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }

  async #emailOf(userId: string): Promise<string | undefined> {
    const [row] = await this.deps.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    return row?.email || undefined;
  }

  /** The signed link of the security report of the event's scan (scans and builds), if there is one. */
  async #reportUrl(workspaceId: string, data: Record<string, unknown>): Promise<string | null> {
    const scanId = typeof data.scan_id === 'string' ? data.scan_id : null;
    if (!scanId) return null;
    const [row] = await this.deps.db
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.workspaceId, workspaceId), eq(reports.scanId, scanId), eq(reports.type, 'security')))
      .orderBy(desc(reports.createdAt))
      .limit(1);
    return row ? this.deps.links.view(row.id) : null;
  }

  #track(work: Promise<unknown>): void {
    const tracked: Promise<void> = work
      .then(() => undefined)
      .catch((error: Error) => this.deps.logger.warn({ err: error }, 'notification mail failed'))
      .finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }
}
