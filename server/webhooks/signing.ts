import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { VERSION } from '../version';

// Standard Webhooks (https://www.standardwebhooks.com): each endpoint has its own 'whsec_' + base64 secret, and
// every delivery carries webhook-id, webhook-timestamp and webhook-signature ('v1,' + base64 HMAC-SHA256 of
// "id.timestamp.body"). The signing is the standardwebhooks library's own, so receivers that verify with it (or
// with any of the spec's libraries) agree with us byte for byte.

/** Bytes of a new secret: the spec asks for 24 to 64. */
const SECRET_BYTES = 32;

/** Who sends the deliveries, so receivers can recognise and allow-list them. */
export const WEBHOOK_USER_AGENT = `vibeeval-webhooks/${VERSION} (+https://vibe-eval.com/docs/webhooks)`;

/** A new endpoint secret: 'whsec_' + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** A new message id (the webhook-id header): the same on every retry of one delivery, so receivers can drop duplicates. */
export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/** The headers of one signed request: the body must be sent exactly as signed. */
export function signedHeaders(secret: string, messageId: string, body: string, at: Date = new Date()): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  };
}
