import { z } from 'zod';

/** Preferences (spec section 3): email notifications default on, webhook notifications default off. */
export const preferencesSchema = z.object({
  email_notifications: z.boolean(),
  webhook_notifications: z.boolean(),
});
export type Preferences = z.infer<typeof preferencesSchema>;
export const DEFAULT_PREFERENCES: Preferences = { email_notifications: true, webhook_notifications: false };

/** PATCH /preferences: either or both settings; at least one. */
export const preferencesPatchSchema = z
  .strictObject({
    email_notifications: z.boolean({ error: 'email_notifications must be true or false' }).optional(),
    webhook_notifications: z.boolean({ error: 'webhook_notifications must be true or false' }).optional(),
  })
  .refine((patch) => patch.email_notifications !== undefined || patch.webhook_notifications !== undefined, {
    message: 'Send email_notifications, webhook_notifications or both',
  });
export type PreferencesPatch = z.infer<typeof preferencesPatchSchema>;

/** DELETE /account: the account's own email, typed again, confirms the deletion. */
export const deleteAccountSchema = z.strictObject({
  email: z
    .string({ error: 'email is required: type the email of your account to confirm' })
    .trim()
    .min(1, 'email is required: type the email of your account to confirm')
    .max(320, 'email is at most 320 characters'),
});
export const ACCOUNT_ERRORS = {
  confirmationMismatch: 'The email does not match this account: type the email you sign in with to confirm',
  /** A shared workspace the account owns has other members: it needs another owner (or its deletion) first. */
  ownsSharedWorkspace: (name: string) => `Transfer ownership of ${name} or delete it before deleting your account`,
} as const;

/**
 * GET /account/export: a JSON file (Content-Disposition attachment) that opens with the spec's
 * `{email, email_notifications, webhook_notifications}` and goes on with everything the user owns, each list
 * streamed in pages: projects (credentials never decrypted), scans, events, reports, scenarios, webhooks (no
 * secrets), api_keys (names and prefixes only), continuous_builds and subscriptions.
 */
export const ACCOUNT_EXPORT_SECTIONS = [
  'projects',
  'scans',
  'events',
  'reports',
  'scenarios',
  'scenario_runs',
  'webhooks',
  'api_keys',
  'continuous_builds',
  'finding_decisions',
  'finding_rechecks',
  'subscriptions',
  'workspaces',
] as const;
