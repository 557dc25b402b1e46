import type { WebhookFormat } from '../../common/webhooks';
import type { AddressPolicy, HostResolver } from '../../engine/retrieval/address-policy';
import { eventPayload } from './delivery';
import { sendWebhook, webhookUrlRefusal } from './send';
import type { WebhookService } from './service';
import { deliveryRequest } from './formats';
import { newMessageId, newWebhookSecret } from './signing';
import { HttpError } from '../http-errors';

export interface TestEventDeps {
  webhooks: WebhookService;
  policy: AddressPolicy;
  timeoutMs: number;
  resolveHost?: HostResolver;
  /** Where the dashboard is, for the link of a chat format's test message. */
  origin?: () => string;
}

/**
 * POST /webhook/test: sends one signed 'webhook.test' event to the URL and answers the receiver's status. When the
 * URL is one of the workspace's webhooks the event is signed with that webhook's secret, so the receiver can check its
 * verification end to end; any other URL (one being typed, not yet saved) gets a secret made for this test alone.
 * A chat format (Slack, Discord, Teams) gets the test message in that format, unsigned. Nothing is stored and
 * nothing is retried. No answer at all is an error with the reason: 400 for an address the
 * policy refuses, 502 for a timeout or a connection failure (answered as such: the error handler hides 5xx texts).
 */
export async function sendTestEvent(workspaceId: string, url: string, format: WebhookFormat, deps: TestEventDeps): Promise<{ status_code: number } | { unanswered: string }> {
  const refusal = deps.policy.allowPrivate ? null : await webhookUrlRefusal(deps.policy, url);
  if (refusal) throw new HttpError(400, refusal);
  const saved = format === 'standard' ? await deps.webhooks.secretFor(workspaceId, url) : undefined;
  const event = eventPayload('webhook.test', { webhook_id: saved?.id ?? null, message: 'A test event from vibeeval: your endpoint receives signed webhooks.' });
  const signing = { secret: () => saved?.secret ?? newWebhookSecret(), messageId: newMessageId() };
  const { body, headers } = deliveryRequest(format, event as { type: string; data: Record<string, unknown> }, signing, deps.origin?.() ?? null);
  const outcome = await sendWebhook(url, body, headers, { policy: deps.policy, timeoutMs: deps.timeoutMs, resolveHost: deps.resolveHost });
  if (outcome.statusCode === null) {
    const detail = `The webhook endpoint did not answer: ${outcome.error ?? 'no answer'}`;
    if (/private or loopback address/.test(outcome.error ?? '')) throw new HttpError(400, detail);
    return { unanswered: detail };
  }
  return { status_code: outcome.statusCode };
}
