import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

describe('webhook settings', () => {
  it('default to a 10 s timeout and six retries from 5 s to 2 h', () => {
    expect(loadConfig({}).webhooks).toEqual({ timeoutMs: 10_000, retrySchedule: [5, 30, 120, 600, 1800, 7200] });
  });

  it('read the timeout and the retry schedule from the environment', () => {
    expect(loadConfig({ VIBEEVAL_WEBHOOK_TIMEOUT_MS: '400', VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: '1, 2,3' }).webhooks).toEqual({ timeoutMs: 400, retrySchedule: [1, 2, 3] });
    expect(loadConfig({ VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: '' }).webhooks.retrySchedule).toEqual([]);
  });

  it('refuse a schedule that is not whole seconds, naming the variable', () => {
    expect(() => loadConfig({ VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: '5,-1' })).toThrow(/VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: must be whole seconds separated by commas/);
    expect(() => loadConfig({ VIBEEVAL_WEBHOOK_TIMEOUT_MS: '10' })).toThrow(/VIBEEVAL_WEBHOOK_TIMEOUT_MS/);
  });
});
