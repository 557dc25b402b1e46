import { describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { rateLimitHeaders, secondsToMidnight, UsageMeter, utcDay } from './usage';

/**
 * A stand-in for PostgreSQL's api_usage table: the two statements the meter sends. `answerWrites`, when given, holds
 * a write's answer after the write has committed to the table, until it resolves.
 */
function fakePool({ answerWrites }: { answerWrites?: Promise<void> } = {}) {
  const table = new Map<string, number>();
  const makers = new Map<string, string>();
  let writes = 0;
  const query = (config: string | { text: string; values: unknown[] }, params?: unknown[]) => {
    const text = typeof config === 'string' ? config : config.text;
    const values = typeof config === 'string' ? params! : config.values;
    if (text.startsWith('select requests')) {
      const requests = table.get(`${String(values[0])}|${String(values[1])}`);
      return Promise.resolve({ rows: requests === undefined ? [] : [{ requests }] });
    }
    writes++;
    const [workspaces, users, days, counts] = values as [string[], string[], string[], number[]];
    const rows = workspaces.map((workspace, i) => {
      const key = `${workspace}|${days[i]}`;
      table.set(key, (table.get(key) ?? 0) + counts[i]!);
      makers.set(key, users[i]!);
      return { workspace_id: workspace, day: days[i], requests: table.get(key) };
    });
    return (answerWrites ?? Promise.resolve()).then(() => ({ rows }));
  };
  return { pool: { query } as unknown as Pool, table, makers, writes: () => writes };
}

const NOON = Date.UTC(2026, 10, 24, 12, 0, 0);

describe('the daily usage meter', () => {
  it('admits exactly the plan allowance on one instance, even when requests arrive together', async () => {
    const { pool, table } = fakePool();
    const meter = new UsageMeter(pool, () => 'free', { flushEveryMs: 60_000, now: () => NOON });
    const answers = await Promise.all(Array.from({ length: 150 }, () => meter.admit('w1', 'u1')));
    expect(answers.filter((a) => a.allowed)).toHaveLength(100);
    expect(answers.filter((a) => !a.allowed).every((a) => a.remaining === 0 && a.limit === 100)).toBe(true);
    await meter.flush();
    expect(table.get('w1|2026-11-24')).toBe(100);
    await meter.close();
  });

  it("shares one workspace's allowance between the keys of its members, apart from another workspace's", async () => {
    const { pool, table, makers } = fakePool();
    const meter = new UsageMeter(pool, () => 'free', { flushEveryMs: 60_000, now: () => NOON });
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => meter.admit('team', i % 2 ? 'alice' : 'bob')));
    expect(answers.filter((a) => a.allowed)).toHaveLength(100);
    expect((await meter.admit('other', 'alice')).allowed).toBe(true);
    await meter.flush();
    expect(table.get('team|2026-11-24')).toBe(100);
    expect(table.get('other|2026-11-24')).toBe(1);
    expect(['alice', 'bob']).toContain(makers.get('team|2026-11-24'));
    expect((await meter.usage('team')).used_today).toBe(100);
    await meter.close();
  });

  it('writes in batches, learns what other instances counted, and starts again the next UTC day', async () => {
    const { pool, table, writes } = fakePool();
    let now = NOON;
    const meter = new UsageMeter(pool, () => 'free', { flushEveryMs: 60_000, rereadAfterMs: 250, now: () => now });
    for (let i = 0; i < 10; i++) expect((await meter.admit('w1', 'u1')).allowed).toBe(true);
    await meter.flush();
    expect(writes()).toBe(1);
    // Another instance spends the rest of the day's allowance.
    table.set('w1|2026-11-24', 100);
    now += 300;
    expect((await meter.admit('w1', 'u1')).allowed).toBe(false);
    now = Date.UTC(2026, 10, 25, 0, 0, 1);
    const tomorrow = await meter.admit('w1', 'u1');
    expect(tomorrow).toMatchObject({ allowed: true, remaining: 99 });
    await meter.close();
  });

  it('counts each request once when the usage is read while its flush has committed but not yet answered', async () => {
    let answer!: () => void;
    const { pool, table } = fakePool({ answerWrites: new Promise<void>((resolve) => (answer = resolve)) });
    const meter = new UsageMeter(pool, () => 'free', { flushEveryMs: 60_000, now: () => NOON });
    for (let i = 0; i < 5; i++) await meter.admit('w1', 'u1');
    const flushed = meter.flush();
    expect(table.get('w1|2026-11-24')).toBe(5); // in the table, and still counted by the meter as being written
    const usage = meter.usage('w1');
    // The write answers once everything queued so far has run: a read that does not wait for it has answered by then.
    setImmediate(answer);
    expect((await usage).used_today).toBe(5);
    await flushed;
    expect((await meter.usage('w1')).used_today).toBe(5);
    await meter.close();
  });

  it('counts without a limit on a custom plan, and sends no RateLimit headers for it', async () => {
    const { pool } = fakePool();
    const meter = new UsageMeter(pool, () => 'enterprise', { flushEveryMs: 60_000, now: () => NOON });
    const answer = await meter.admit('w2', 'u2');
    expect(answer).toMatchObject({ allowed: true, limit: null });
    expect(rateLimitHeaders(answer)).toEqual({});
    expect((await meter.usage('w2')).used_today).toBe(1);
    await meter.close();
  });

  it('resets at midnight UTC and words the IETF headers', () => {
    expect(utcDay(Date.UTC(2026, 10, 24, 23, 59, 59))).toBe('2026-11-24');
    expect(secondsToMidnight(Date.UTC(2026, 10, 24, 23, 59, 59, 500))).toBe(1);
    expect(secondsToMidnight(NOON)).toBe(43_200);
    expect(rateLimitHeaders({ allowed: true, limit: 1000, remaining: 42, resetSeconds: 3600 })).toEqual({
      'ratelimit-policy': '"daily";q=1000;w=86400',
      ratelimit: '"daily";r=42;t=3600',
    });
  });
});
