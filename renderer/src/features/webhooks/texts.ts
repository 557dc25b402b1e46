import { WEBHOOK_TEXTS, type WebhookFormat } from '@common/webhooks';

/** The texts of /dashboard/webhook: the spec's (from the contract, word for word) and the screen's own. */
export const texts = {
  ...WEBHOOK_TEXTS,
  title: 'Webhook',
  subtitle: 'Get a signed HTTP POST, or a Slack, Discord or Teams message, when a scan, report or scenario run finishes.',
  configTitle: 'Webhook URL',
  notificationsOffTitle: 'Webhook notifications are off',
  notificationsOff: 'Events are not delivered to your webhooks until you turn webhook notifications on (the Test button still sends).',
  notificationsOffLink: 'Open Preferences',
  urlLabel: 'Endpoint URL',
  urlPlaceholder: 'https://example.com/webhooks/vibeeval',
  formatLabel: 'Format',
  formatSuggested: 'Chosen from the URL',
  formatChanged: 'Webhook format changed',
  formatChangeFailed: 'Failed to change the webhook format',
  save: 'Save',
  test: 'Test',
  saved: 'Webhook URL saved',
  testSuccess: 'Test delivered',
  statusCode: 'Status code',
  secretTitle: 'Signing secret',
  secretWarning: 'Copy this secret now: it is shown only once. Your endpoint uses it to check that deliveries come from vibeeval.',
  verifyTitle: 'Verify deliveries',
  verifyIntro:
    'Every delivery is signed per the Standard Webhooks specification: the headers webhook-id, webhook-timestamp and webhook-signature (HMAC-SHA256 of the id, timestamp and body with your secret). Verify them before trusting the body, for example with the standardwebhooks package:',
  dismissSecret: "I've saved my secret",
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Could not copy',
  copyFailedHint: 'Select the text and copy it by hand.',
  listTitle: 'Your webhooks',
  listEmpty: 'No webhooks yet',
  listEmptyHint: 'Save a URL above to receive events.',
  retry: 'Retry',
  deleteTitle: 'Delete webhook',
  deleteQuestion: 'Are you sure you want to delete this webhook? It stops receiving events at once.',
  deleted: 'Webhook deleted',
  deliveries: 'Recent deliveries',
  showDeliveries: 'Show deliveries',
  hideDeliveries: 'Hide deliveries',
  deliveriesEmpty: 'No deliveries yet.',
  deliveriesLoadFailed: 'Failed to load deliveries',
  loadMore: 'Load more',
  eventsTitle: 'Event types',
  eventsIntro: 'Each signed JSON delivery names its event type in the body’s "type" field; Slack, Discord and Teams get a message for each.',
  attempt: 'Attempt',
} as const;

/** A receiver's check with the standardwebhooks package (npm install standardwebhooks). */
export const VERIFY_SNIPPET = `import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.VIBEEVAL_WEBHOOK_SECRET); // 'whsec_…'

// In your handler, with the raw request body (a string, not parsed JSON):
const event = wh.verify(rawBody, {
  'webhook-id': req.headers['webhook-id'],
  'webhook-timestamp': req.headers['webhook-timestamp'],
  'webhook-signature': req.headers['webhook-signature'],
}); // throws when the signature or timestamp is wrong
console.log(event.type, event.data);`;

/** Under the format choice: what the endpoint receives. */
export const FORMAT_HINTS: Record<WebhookFormat, string> = {
  standard: 'Events as JSON signed per Standard Webhooks, for your own code to verify with the signing secret.',
  slack: 'A Slack message, for an incoming webhook URL (hooks.slack.com/services/…). Not signed.',
  discord: 'A Discord message, for a channel webhook URL (discord.com/api/webhooks/…). Not signed.',
  teams: 'A Microsoft Teams message (Adaptive Card), for a Workflows or incoming webhook URL. Not signed.',
};
