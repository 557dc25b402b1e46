import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, isConnectionError, Supervisor, type Availability, type Clock, type SupervisorOptions } from './supervisor';

/** A clock whose pauses end at once; it records them and moves its time forward by their length. */
function fakeClock() {
  const slept: number[] = [];
  let now = 1_000;
  const clock: Clock = {
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal.aborted) return;
      slept.push(ms);
      now += ms;
      await Promise.resolve();
    },
  };
  return { clock, slept };
}

/** A database process that fails to come back `failures` times, then comes back. */
function fakeDatabase(failures: number) {
  const calls: number[] = [];
  let up = false;
  return {
    calls,
    get up() {
      return up;
    },
    set up(value: boolean) {
      up = value;
    },
    recover: async (attempt: number) => {
      calls.push(attempt);
      if (calls.length <= failures) throw new Error(`port still busy (${calls.length})`);
      up = true;
    },
    probe: async () => up,
  };
}

function supervisor(db: ReturnType<typeof fakeDatabase>, clock: Clock, extra: Partial<SupervisorOptions> = {}) {
  const logs: string[] = [];
  const states: Availability[] = [];
  const s = new Supervisor({
    recover: db.recover,
    probe: db.probe,
    describe: (attempts, lastError) => `restarting (attempt ${attempts}${lastError ? `: ${lastError}` : ''})`,
    log: (level, message) => logs.push(`${level}: ${message}`),
    clock,
    random: () => 0.5,
    ...extra,
  });
  s.onChange((a) => states.push(a));
  return { s, logs, states };
}

describe('backoffDelay', () => {
  it('doubles from the initial pause up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffDelay(n, DEFAULT_BACKOFF, () => 0.5))).toEqual([250, 500, 1000, 2000, 3000, 3000, 3000, 3000]);
  });

  it('spreads each pause by the jitter share around its base', () => {
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0)).toBe(900);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 1)).toBe(1100);
  });
});

describe('Supervisor', () => {
  it('retries with growing pauses until the database is back, telling clients the attempt and the reason', async () => {
    const { clock, slept } = fakeClock();
    const db = fakeDatabase(3);
    const { s, states } = supervisor(db, clock);
    expect(s.availability).toEqual({ state: 'up' });

    s.lost('PostgreSQL killed by SIGKILL');
    expect(s.availability).toMatchObject({ state: 'down', attempts: 0, detail: 'restarting (attempt 0)', since: 1_000 });
    await s.whenUp();

    expect(db.calls).toEqual([1, 2, 3, 4]);
    expect(slept).toEqual([250, 500, 1000, 2000]);
    expect(s.availability).toEqual({ state: 'up' });
    expect(states.map((a) => (a.state === 'up' ? 'up' : a.detail))).toEqual([
      'restarting (attempt 0)',
      'restarting (attempt 1: port still busy (1))',
      'restarting (attempt 2: port still busy (2))',
      'restarting (attempt 3: port still busy (3))',
      'up',
    ]);
  });

  it('runs one recovery however many times the loss is reported', async () => {
    const { clock } = fakeClock();
    const db = fakeDatabase(1);
    const { s } = supervisor(db, clock);
    s.lost('first');
    s.lost('second');
    await s.suspect('third');
    await s.whenUp();
    expect(db.calls).toEqual([1, 2]);
  });

  it('confirms a suspected loss before recovering: a database that answers stays up', async () => {
    const { clock, slept } = fakeClock();
    const db = fakeDatabase(0);
    db.up = true;
    const { s, states } = supervisor(db, clock);
    await s.suspect('a connection error');
    expect(s.availability).toEqual({ state: 'up' });
    expect(db.calls).toEqual([]);
    expect(states).toEqual([]);
    expect(slept).toEqual([]);

    db.up = false;
    await s.suspect('a connection error');
    await s.whenUp();
    expect(states.map((a) => a.state)).toEqual(['down', 'up']);
    expect(db.calls).toEqual([1]);
  });

  it('a single missed probe is not a loss: a second probe is asked, and only two misses in a row start recovery', async () => {
    const { clock } = fakeClock();
    const db = fakeDatabase(0);
    const answers = [false, true];
    const { s, states } = supervisor(db, clock, { probe: async () => answers.shift() ?? false });
    await s.suspect('no answer to a periodic check');
    expect(states).toEqual([]);
    expect(s.availability.state).toBe('up');
    expect(db.calls).toEqual([]);

    let probes = 0;
    const twice = supervisor(db, clock, {
      probe: async () => {
        probes++;
        return false;
      },
    });
    await twice.s.suspect('no answer to a periodic check');
    expect(probes).toBe(2);
    expect(twice.states[0]?.state).toBe('down');
  });

  it('a probe that throws counts as a lost database', async () => {
    const { clock } = fakeClock();
    const db = fakeDatabase(0);
    const { s } = supervisor(db, clock, { probe: () => Promise.reject(new Error('boom')) });
    await s.suspect('a connection error');
    await s.whenUp();
    expect(db.calls).toEqual([1]);
  });

  it('stops trying when stopped, and releases whoever waits for the database', async () => {
    const pauses: Array<() => void> = [];
    const clock: Clock = {
      now: () => 0,
      sleep: (_ms, signal) =>
        new Promise<void>((resolve) => {
          pauses.push(resolve);
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    };
    const db = fakeDatabase(Number.POSITIVE_INFINITY);
    const { s } = supervisor(db, clock);
    s.lost('gone');
    const waiting = s.whenUp();
    pauses.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(db.calls).toEqual([1]);
    await s.stop();
    await waiting;
    expect(db.calls).toEqual([1]);
    expect(s.availability.state).toBe('down');
    s.lost('again');
    expect(db.calls).toEqual([1]);
  });

  it('a waiter gives up when its own signal aborts', async () => {
    const { s } = supervisor(fakeDatabase(Number.POSITIVE_INFINITY), { now: () => 0, sleep: () => new Promise(() => undefined) });
    s.lost('gone');
    const abort = new AbortController();
    const waiting = s.whenUp(abort.signal);
    abort.abort();
    await expect(waiting).resolves.toBeUndefined();
    expect(s.availability.state).toBe('down');
  });
});

describe('isConnectionError', () => {
  it('knows a lost connection from a refused query, also when wrapped', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isConnectionError(refused)).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isConnectionError(new Error('Failed query: select 1', { cause: refused }))).toBe(true);

    expect(isConnectionError(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
    expect(isConnectionError(new Error('Scan not found'))).toBe(false);
    expect(isConnectionError('ECONNREFUSED')).toBe(false);
    expect(isConnectionError(undefined)).toBe(false);
  });
});
