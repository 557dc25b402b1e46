import { z } from 'zod';

// Webhooks (spec sections 2 Webhook, 3 Webhook, 4 Webhook test result, 5 Webhook URL, 7 webhook calls, 8 webhooks,
// 9 webhook event types). Deliveries are signed per the Standard Webhooks specification (webhook-id,
// webhook-timestamp, webhook-signature) with the endpoint's own 'whsec_…' secret, sent once when it is created.

export const WEBHOOK_EVENT_TYPES = ['scan.completed', 'scan.failed', 'report.generated', 'scenario_run.completed', 'continuous_build.completed', 'subscription.updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'scan.completed': 'A security scan of a project finished: what is new since the previous scan first, then its score and findings count.',
  'scan.failed': 'A security scan of a project could not complete, with the reason.',
  'report.generated': 'A report (security, performance, accessibility or analytics) is ready.',
  'scenario_run.completed': 'A browser test scenario ran: passed or failed, with the failing step.',
  'continuous_build.completed': 'A monitored site changed (or its schedule came round) and its re-scan judged the build: success, warning or error, with what is new.',
  'subscription.updated': 'Your plan changed: upgraded, downgraded, renewed or cancelled.',
};

/** Texts of the screen and the calls, word for word (spec sections 5 and 8). */
export const WEBHOOK_TEXTS = {
  invalidUrl: 'Please enter a valid URL',
  urlRequired: 'Webhook URL is required',
  testWithoutUrl: 'Please enter a webhook URL first',
  loginRequired: 'You need to be logged in to save a webhook URL.',
  saveFailed: 'Failed to save webhook URL',
  loadFailed: 'Failed to load webhooks',
  deleteFailed: 'Failed to delete webhook',
  testFailed: 'Webhook test failed',
  /** Followed by the status code the endpoint answered. */
  verificationFailed: 'Verification failed',
} as const;

export const WEBHOOK_URL_MAX = 2048;

/** A webhook URL: at least 5 characters and a valid http(s) URL (the server also applies the address policy). */
export const webhookUrlSchema = z
  .string({ message: WEBHOOK_TEXTS.urlRequired })
  .trim()
  .min(5, WEBHOOK_TEXTS.urlRequired)
  .max(WEBHOOK_URL_MAX, `url: cannot exceed ${WEBHOOK_URL_MAX} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, WEBHOOK_TEXTS.invalidUrl);

/**
 * What a webhook's deliveries are: 'standard' is the signed Standard Webhooks JSON ({type, timestamp, data}); the
 * others post a chat message in that service's incoming-webhook format (unsigned: those services ignore signatures).
 */
export const WEBHOOK_FORMATS = ['standard', 'slack', 'discord', 'teams'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export const webhookFormatSchema = z.enum(WEBHOOK_FORMATS, { message: `format: must be one of ${WEBHOOK_FORMATS.join(', ')}` });

/** The formats' names on the screen. */
export const WEBHOOK_FORMAT_LABELS: Record<WebhookFormat, string> = {
  standard: 'Signed JSON',
  slack: 'Slack',
  discord: 'Discord',
  teams: 'Microsoft Teams',
};

/**
 * The format a URL most likely wants, from its host (Slack's, Discord's and Teams' incoming-webhook addresses), or
 * null when it says nothing. Only a suggestion for the screen: any http(s) URL may have any format.
 */
export function suggestedWebhookFormat(value: string): WebhookFormat | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  const under = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  if (host === 'hooks.slack.com') return 'slack';
  if ((under('discord.com') || under('discordapp.com')) && url.pathname.startsWith('/api/webhooks/')) return 'discord';
  if (under('webhook.office.com') || under('logic.azure.com') || under('powerautomate.com') || under('powerplatform.com')) return 'teams';
  return null;
}

/** POST /webhook and POST /webhook/test body: the URL and its format (the signed JSON when left out). */
export const webhookBodySchema = z.object({ url: webhookUrlSchema, format: webhookFormatSchema.default('standard') }).strict();
export type WebhookBody = z.input<typeof webhookBodySchema>;

/** PATCH /webhook/{id} body: a saved webhook's new format (its URL and secret stay). */
export const webhookUpdateSchema = z.object({ format: webhookFormatSchema }).strict();

export const webhookSchema = z.object({ id: z.string().uuid(), url: z.string(), format: webhookFormatSchema, created_at: z.string() });
export type Webhook = z.infer<typeof webhookSchema>;

/** POST /webhook answer: the webhook and its signing secret, sent this once. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string().startsWith('whsec_') });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** POST /webhook/test answer: what the endpoint answered to a signed test event (success is 200–299). */
export const webhookTestResultSchema = z.object({ status_code: z.number().int() });

export const webhookAttemptSchema = z.object({
  attempted_at: z.string(),
  /** null when no answer came back (timeout, refused address, connection error: see `error`). */
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int().nonnegative(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** GET /webhook/{id}/deliveries (paginated, newest first): each delivery with its attempts, oldest first. */
export const webhookDeliverySchema = z.object({
  id: z.string().uuid(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  /** The webhook-id header of every attempt. */
  message_id: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  created_at: z.string(),
  next_attempt_at: z.string().nullable(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
