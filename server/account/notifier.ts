import { and, desc, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { WebhookEventType } from '../../common/webhooks';
import type { Db } from '../db';
import { reports, users } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import type { ReportLinks } from '../reports/links';
import type { WebhookEmitter } from '../webhooks/delivery';
import { MAILED_EVENTS, notificationMail } from './notification-mail';
import type { PreferencesStore } from './preferences';

export interface AccountNotifierDeps {
  db: Db;
  preferences: PreferencesStore;
  /** The webhook deliverer: reached only when the account's webhook notifications are on. */
  webhooks: WebhookEmitter;
  mailer: Mailer;
  links: ReportLinks;
  logger: Logger;
}

/**
 * The one door every job's events go through (scan, report, scenario run, continuous build): the account's
 * preferences decide here whether its webhooks are delivered and whether a mail is sent. The webhook Test button
 * does not come here: it is an explicit request and always sends.
 */
export class AccountNotifier implements WebhookEmitter {
  readonly #inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: AccountNotifierDeps) {}

  async emit(userId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    let preferences;
    try {
      preferences = await this.deps.preferences.get(userId);
    } catch (error) {
      this.deps.logger.warn({ err: error, event: type }, 'could not read notification preferences: nothing sent');
      return;
    }
    if (preferences.webhook_notifications) await this.deps.webhooks.emit(userId, type, data);
    // The mail goes out in the background: a slow mail server must not hold the job that finished.
    if (preferences.email_notifications && MAILED_EVENTS.has(type)) this.#track(this.mail(userId, type, data));
  }

  /** Sends the event's mail to the account's address; skipped (debug log) when the address is not known here. */
  async mail(userId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<boolean> {
    const to = await this.#emailOf(userId);
    if (!to) {
      // Hosted accounts (Supabase) live in the hosted project's auth, not in this database.
      this.deps.logger.debug({ event: type }, 'no email address known for this account: notification mail skipped');
      return false;
    }
    const message = notificationMail(to, type, data, await this.#reportUrl(userId, data));
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
  async #reportUrl(userId: string, data: Record<string, unknown>): Promise<string | null> {
    const scanId = typeof data.scan_id === 'string' ? data.scan_id : null;
    if (!scanId) return null;
    const [row] = await this.deps.db
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.userId, userId), eq(reports.scanId, scanId), eq(reports.type, 'security')))
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
