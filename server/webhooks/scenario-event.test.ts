import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookHarness, until, type WebhookHarness } from './testing';

// A scenario run in a real browser emits scenario_run.completed once, with its outcome, to the user's webhooks.

let h: WebhookHarness;
beforeAll(async () => {
  h = await startWebhookHarness({
    VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true',
    VIBEEVAL_SCAN_CONCURRENCY: '0',
    VIBEEVAL_SCENARIO_CONCURRENCY: '1',
  });
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

describe('scenario run events', () => {
  it('delivers scenario_run.completed when a scenario run passes', async () => {
    const { user } = await h.userWithWebhook('/runs');
    const steps = [
      { type: 'goto', url: '/' },
      { type: 'expect_title', text: 'Shop' },
    ];
    const scenario = (await h.call(user, 'POST', '/scenarios', { website: h.siteUrl, actions: steps, summarized_actions: 'Home page shows the shop' })).json as { id: string };
    const started = await h.call(user, 'POST', `/scenario/${scenario.id}/run`);
    expect(started.status).toBe(202);
    const runId = (started.json as { run_id: string }).run_id;
    const event = await until('the run event', () => h.bodies('/runs').find((entry) => (entry.verified as { type?: string } | null)?.type === 'scenario_run.completed'), 30_000);
    expect((event.verified as { data: Record<string, unknown> }).data).toMatchObject({
      run_id: runId,
      scenario_id: scenario.id,
      name: 'Home page shows the shop',
      status: 'passed',
      failed_step: null,
      error: null,
    });
    expect(h.bodies('/runs').filter((entry) => (entry.verified as { type?: string } | null)?.type === 'scenario_run.completed')).toHaveLength(1);
  }, 40_000);
});
