import type { WebhookFormat } from '../../../common/webhooks';
import { signedHeaders, WEBHOOK_USER_AGENT } from '../signing';
import { discordBody } from './discord';
import { chatMessage, type EventBody } from './message';
import { slackBody } from './slack';
import { teamsBody } from './teams';

// A delivery's request in its webhook's format. 'standard' is the event body itself, signed per Standard Webhooks;
// the chat formats turn the same body into a Slack, Discord or Teams message, sent without signature headers (those
// services ignore them, and the secret would only travel for nothing). Either way the deliverer sends it (address
// policy, timeout, retries).

export type ChatFormat = Exclude<WebhookFormat, 'standard'>;

/** The chat message of an event in one service's incoming-webhook format. */
export function chatBody(format: ChatFormat, event: EventBody, origin: string | null): Record<string, unknown> {
  const message = chatMessage(event, origin);
  if (format === 'slack') return slackBody(message);
  if (format === 'discord') return discordBody(message, event.timestamp);
  return teamsBody(message);
}

export interface DeliveryRequest {
  body: string;
  headers: Record<string, string>;
}

/** What one attempt sends: signed anew on each attempt for 'standard' (receivers refuse stale timestamps). */
export function deliveryRequest(format: WebhookFormat, event: EventBody, signing: { secret: () => string; messageId: string }, origin: string | null): DeliveryRequest {
  if (format === 'standard') {
    const body = JSON.stringify(event);
    return { body, headers: signedHeaders(signing.secret(), signing.messageId, body) };
  }
  return { body: JSON.stringify(chatBody(format, event, origin)), headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT } };
}
