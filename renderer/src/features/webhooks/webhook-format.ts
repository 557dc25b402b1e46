import { WEBHOOK_TEXTS, webhookUrlSchema, type WebhookAttempt, type WebhookDelivery } from '@common/webhooks';

/** The config form's check of a URL: null when it may be saved, else the spec's message. */
export function webhookUrlError(url: string): string | null {
  const parsed = webhookUrlSchema.safeParse(url);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? WEBHOOK_TEXTS.invalidUrl);
}

/** What Test may send: an empty field asks for a URL first; otherwise the same check as Save. */
export function testUrlError(url: string): string | null {
  return url.trim() === '' ? WEBHOOK_TEXTS.testWithoutUrl : webhookUrlError(url);
}

/**
 * The test result states of spec section 4: success for 200–299 (with the code), else 'Verification failed' and the
 * code; a test that got no answer is 'Webhook test failed' with the reason below it.
 */
export type TestOutcome = { state: 'idle' } | { state: 'success'; statusCode: number } | { state: 'error'; message: string; reason: string | null; statusCode: number | null };

export function testOutcome(statusCode: number): TestOutcome {
  if (statusCode >= 200 && statusCode <= 299) return { state: 'success', statusCode };
  return { state: 'error', message: WEBHOOK_TEXTS.verificationFailed, reason: null, statusCode };
}

/** A test call that did not get an answer from the endpoint: 'Webhook test failed', and the server's reason if any. */
export function testFailure(reason: string | null | undefined): TestOutcome {
  return { state: 'error', message: WEBHOOK_TEXTS.testFailed, reason: reason && reason.trim() !== '' ? reason.trim() : null, statusCode: null };
}

/** A delivery status's badge colour palette. */
export function deliveryPalette(status: WebhookDelivery['status']): string {
  return status === 'succeeded' ? 'green' : status === 'failed' ? 'red' : 'orange';
}

/** An attempt's outcome in a few words: 'HTTP 200', or why no answer came ('timeout'). */
export function attemptOutcome(attempt: WebhookAttempt): string {
  if (attempt.status_code !== null) return `HTTP ${attempt.status_code}`;
  return attempt.error ?? 'No answer';
}
