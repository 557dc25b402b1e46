import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookHarness, until, type WebhookHarness } from './testing';

// Deliveries end to end on a real server: a local receiver verifies every delivery with the standardwebhooks
// library; real scans of a local site emit scan.completed and report.generated; retries follow a 500 and a
// timeout with the same webhook-id; attempts run out; a deleted webhook gets nothing more. The deliveries list
// (GET /webhook/{id}/deliveries) is what each test reads the attempts from.

let h: WebhookHarness;
beforeAll(async () => {
  h = await startWebhookHarness({
    VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true',
    VIBEEVAL_SCAN_RENDER: 'false',
    VIBEEVAL_SCAN_RATE: '0',
    VIBEEVAL_SCAN_CONCURRENCY: '4',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
    VIBEEVAL_WEBHOOK_TIMEOUT_MS: '400',
    VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: '1,1',
  });
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

describe('webhook deliveries', () => {
  it('delivers scan.completed and report.generated after a real scan, signed so the receiver verifies them', async () => {
    const { user, webhookId } = await h.userWithWebhook('/ok');
    const scanId = await h.scan(user);
    const events = await until(
      'both events',
      () => {
        const got = h.bodies('/ok');
        return got.length >= 2 ? got : undefined;
      },
      30_000,
    );
    for (const event of events) expect(event.verified).not.toBeNull();
    const completed = events.map((event) => event.verified as { type: string; timestamp: string; data: Record<string, unknown> }).find((event) => event.type === 'scan.completed')!;
    expect(completed.data).toMatchObject({ scan_id: scanId, url: h.siteUrl });
    expect(typeof completed.data.grade).toBe('string');
    expect(typeof completed.data.score).toBe('number');
    expect(Object.keys(completed.data.counts as object).length).toBeGreaterThan(0);
    expect(Date.parse(completed.timestamp)).not.toBeNaN();
    const report = events.map((event) => event.verified as { type: string; data: Record<string, unknown> }).find((event) => event.type === 'report.generated')!;
    expect(report.data).toMatchObject({ type: 'security', scan_id: scanId });
    expect(typeof report.data.total_issues).toBe('number');
    const listed = await until('succeeded deliveries', async () => {
      const items = await h.deliveries(user, webhookId);
      return items.length === 2 && items.every((item) => item.status === 'succeeded') ? items : undefined;
    });
    expect(listed.map((item) => item.event_type).sort()).toEqual(['report.generated', 'scan.completed']);
    for (const item of listed) expect(item.attempts).toMatchObject([{ status_code: 200, error: null, response_excerpt: 'thanks' }]);
  }, 40_000);
});

// Each waits for retries a second apart: they wait side by side.
describe.concurrent('webhook retries', () => {
  it('retries after a 500 with the same webhook-id, then succeeds; two attempts logged', async () => {
    const { user, webhookId } = await h.userWithWebhook('/flaky');
    await h.scan(user);
    const items = await until(
      'retried deliveries',
      async () => {
        const list = await h.deliveries(user, webhookId);
        return list.length === 2 && list.every((item) => item.status === 'succeeded') ? list : undefined;
      },
      20_000,
    );
    for (const item of items) {
      expect(item.attempts.map((attempt) => attempt.status_code)).toEqual([500, 200]);
      expect(item.attempts[0]!.response_excerpt).toBe('receiver broke');
      const tries = h.bodies('/flaky').filter((entry) => entry.messageId === item.message_id);
      expect(tries).toHaveLength(2);
      for (const attempt of tries) expect(attempt.verified).not.toBeNull();
    }
  }, 40_000);

  it('retries an attempt that timed out', async () => {
    const { user, webhookId } = await h.userWithWebhook('/slow');
    await h.scan(user);
    const items = await until(
      'deliveries after a timeout',
      async () => {
        const list = await h.deliveries(user, webhookId);
        return list.length === 2 && list.every((item) => item.status === 'succeeded') ? list : undefined;
      },
      20_000,
    );
    for (const item of items) {
      expect(item.attempts.map((attempt) => attempt.status_code)).toEqual([null, 200]);
      expect(item.attempts[0]!.error).toMatch(/did not answer in time/);
    }
  }, 40_000);

  it('marks a delivery failed once its attempts run out (1 + the retry schedule)', async () => {
    const { user, webhookId } = await h.userWithWebhook('/down');
    await h.scan(user);
    const items = await until(
      'failed deliveries',
      async () => {
        const list = await h.deliveries(user, webhookId);
        return list.length === 2 && list.every((item) => item.status === 'failed') ? list : undefined;
      },
      20_000,
    );
    for (const item of items) {
      expect(item.attempts.map((attempt) => attempt.status_code)).toEqual([500, 500, 500]);
      expect(item.next_attempt_at).toBeNull();
    }
  }, 40_000);

  it('stops delivering once the webhook is deleted', async () => {
    const { user, webhookId } = await h.userWithWebhook('/down-deleted');
    await h.scan(user);
    // Both events' first attempts (each answered 500), then the delete, well before their retries are due.
    await until('the first attempts', () => h.bodies('/down-deleted').length >= 2 || undefined, 30_000);
    expect((await h.call(user, 'DELETE', `/webhook/${webhookId}`)).status).toBe(204);
    const after = h.bodies('/down-deleted').length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(h.bodies('/down-deleted').length).toBe(after);
    expect((await h.call(user, 'GET', '/webhooks')).json).toEqual([]);
    expect((await h.call(user, 'GET', `/webhook/${webhookId}/deliveries`)).status).toBe(404);
  }, 40_000);
});
