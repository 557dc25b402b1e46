import { eq, sql } from 'drizzle-orm';
import { DEFAULT_PREFERENCES, type Preferences, type PreferencesPatch } from '../../common/preferences';
import type { Db } from '../db';
import { userPreferences } from '../db/schema';

/** The notification preferences of each account; an account without a row has the defaults (email on, webhooks off). */
export class PreferencesStore {
  constructor(private readonly db: Db) {}

  async get(userId: string): Promise<Preferences> {
    const [row] = await this.db
      .select({ email_notifications: userPreferences.emailNotifications, webhook_notifications: userPreferences.webhookNotifications })
      .from(userPreferences)
      .where(eq(userPreferences.userId, userId));
    return row ?? { ...DEFAULT_PREFERENCES };
  }

  /** Writes the settings sent (the others keep their stored or default value) and answers all of them. */
  async patch(userId: string, patch: PreferencesPatch): Promise<Preferences> {
    const set = {
      ...(patch.email_notifications === undefined ? {} : { emailNotifications: patch.email_notifications }),
      ...(patch.webhook_notifications === undefined ? {} : { webhookNotifications: patch.webhook_notifications }),
    };
    const [row] = await this.db
      .insert(userPreferences)
      .values({ userId, emailNotifications: DEFAULT_PREFERENCES.email_notifications, webhookNotifications: DEFAULT_PREFERENCES.webhook_notifications, ...set })
      .onConflictDoUpdate({ target: userPreferences.userId, set: { ...set, updatedAt: sql`now()` } })
      .returning({ email_notifications: userPreferences.emailNotifications, webhook_notifications: userPreferences.webhookNotifications });
    return row!;
  }
}
