import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { liveMessageSchema } from '../../common/projects';
import { SCENARIO_LIMITS, type ScenarioRun, type Step } from '../../common/scenarios';
import { ProposalError, type ScenarioBrowser } from '../../engine/scenarios';
import { propose } from './routes';
import { describeRunEvent } from './run-events';
import { liveRun, RUN_LIMITS, ScenarioBrowserPool } from './run-job';
import { nameFromSteps } from './service';
import { HttpError } from '../http-errors';

describe('a scenario name from its steps', () => {
  it('says the first steps in words and counts the rest', () => {
    const steps: Step[] = [
      { type: 'goto', url: '/login' },
      { type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'username' } },
      { type: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } },
      { type: 'expect_no_console_errors' },
    ];
    expect(nameFromSteps(steps)).toBe('Open /login, Fill Email, Click Sign in +1 step');
    expect(nameFromSteps(steps.slice(0, 1))).toBe('Open /login');
    expect(nameFromSteps([{ type: 'goto', url: `/${'a'.repeat(400)}` }])).toHaveLength(SCENARIO_LIMITS.name);
  });
});

describe('run events', () => {
  it("maps what a run saw onto the spec's event kinds", () => {
    expect(describeRunEvent({ kind: 'page_view', url: 'http://s/a' })).toEqual({ kind: 'page_view', url: 'http://s/a', description: 'Page view http://s/a' });
    expect(describeRunEvent({ kind: 'form_submit', url: 'http://s/login', step: 3, description: 'Click Sign in' })).toMatchObject({
      kind: 'form_submit',
      description: 'Step 4: Click Sign in',
    });
    expect(describeRunEvent({ kind: 'api_call', url: 'http://s/api', method: 'GET', status: null }).description).toBe('GET http://s/api → no answer');
    expect(describeRunEvent({ kind: 'error', url: 'http://s/', description: 'boom' }).kind).toBe('error');
  });
});

describe('the live message of a run', () => {
  it('fits a PostgreSQL notification even for the largest run a worker stores', () => {
    const long = 'x'.repeat(RUN_LIMITS.text);
    const run: ScenarioRun = {
      id: '00000000-0000-4000-8000-000000000000',
      scenario_id: '00000000-0000-4000-8000-000000000001',
      status: 'failed',
      created_at: new Date().toISOString(),
      started_at: new Date().toISOString(),
      duration_ms: 1234,
      failed_step: 49,
      error: long,
      steps: Array.from({ length: SCENARIO_LIMITS.steps }, (_, index) => ({ index, status: 'failed' as const, duration_ms: 30_000, error: index === 49 ? long : null })),
      console_errors: Array.from({ length: RUN_LIMITS.listed }, () => long),
      failed_requests: Array.from({ length: RUN_LIMITS.listed }, () => ({ url: long, method: 'POST', failure: long })),
      screenshot_url: '/scenario-run/x/screenshot',
      trace_url: '/scenario-run/x/trace',
    };
    const message = { type: 'scenario.run' as const, scenario_id: run.scenario_id, run: liveRun(run) };
    expect(liveMessageSchema.parse(message)).toEqual(message);
    // The bus refuses payloads over 7,900 bytes (server/live/bus.ts).
    expect(Buffer.byteLength(JSON.stringify({ u: run.id, m: message }))).toBeLessThan(7_900);
    expect(message.run.console_errors).toHaveLength(3);
  });
});

describe('the worker browser', () => {
  const fake = () => {
    let connected = true;
    let closed = 0;
    const opened: ScenarioBrowser = {
      browser: { isConnected: () => connected } as unknown as Browser,
      close: () => {
        closed++;
        return Promise.resolve();
      },
    };
    return { opened, crash: () => (connected = false), closed: () => closed };
  };

  it('opens one browser for concurrent runs, a new one after a crash, and closes it at stop', async () => {
    const made: ReturnType<typeof fake>[] = [];
    const pool = new ScenarioBrowserPool(async () => {
      const next = fake();
      made.push(next);
      await new Promise((resolve) => setTimeout(resolve, 10));
      return next.opened;
    });
    const [a, b] = await Promise.all([pool.get(), pool.get()]);
    expect(a).toBe(b);
    expect(made).toHaveLength(1);
    made[0]!.crash();
    const c = await pool.get();
    expect(c).not.toBe(a);
    expect(made).toHaveLength(2);
    await pool.close();
    expect(made[1]!.closed()).toBe(1);
  });

  it('tries again after a browser failed to start', async () => {
    let attempts = 0;
    const pool = new ScenarioBrowserPool(() => (++attempts === 1 ? Promise.reject(new Error('no Chromium')) : Promise.resolve(fake().opened)));
    await expect(pool.get()).rejects.toThrow('no Chromium');
    await expect(pool.get()).resolves.toBeDefined();
    expect(attempts).toBe(2);
  });
});

describe('proposals in bounded time', () => {
  const project = { id: 'p', url: 'http://127.0.0.1:1/', instructions: null, credentials: null };
  const browser = () => {
    let closed = 0;
    const opened: ScenarioBrowser = {
      browser: {} as Browser,
      close: () => {
        closed++;
        return Promise.resolve();
      },
    };
    return { opened, closed: () => closed };
  };
  const deps = (opened: ScenarioBrowser, proposer: NonNullable<Parameters<typeof propose>[0]['proposeScenarios']>) => ({
    openBrowser: () => Promise.resolve(opened),
    policy: { allowPrivate: true },
    rateLimit: 0,
    llm: null,
    proposalTimeoutMs: 200,
    proposeScenarios: proposer,
  });

  it('answers 504 with what to do when proposing takes too long, cancels it and closes the browser', async () => {
    const made = browser();
    let cancelled = false;
    const slow = (options: { signal?: AbortSignal }) =>
      new Promise<never>((_resolve, reject) =>
        options.signal?.addEventListener('abort', () => {
          cancelled = true;
          reject(new ProposalError('Cancelled'));
        }),
      );
    const error = await propose(deps(made.opened, slow), project).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 504, message: 'Generating scenarios took longer than 1 second; try again.' });
    expect(cancelled).toBe(true);
    expect(made.closed()).toBe(1);
  });

  it("answers 422 with the engine's words when no proposal can be made, and JSON-encodes the steps of those made", async () => {
    const made = browser();
    const refused = await propose(
      deps(made.opened, () => Promise.reject(new ProposalError('The site did not load'))),
      project,
    ).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ statusCode: 422, message: 'The site did not load' });
    expect(made.closed()).toBe(1);
    const steps: Step[] = [{ type: 'goto', url: '/' }];
    const proposals = await propose(
      deps(made.opened, () => Promise.resolve([{ website: project.url, steps, name: 'Home page loads' }])),
      project,
    );
    expect(proposals).toEqual([{ website: project.url, actions: JSON.stringify(steps), summarized_actions: 'Home page loads' }]);
    expect(made.closed()).toBe(2);
  });
});
