import { describe, expect, it, vi } from 'vitest';
import type { LiveMessage } from '../common/projects';
import { createNoticeContext, scenarioLabel, siteLabel } from './notice-context';
import { noticeFor } from './notifications';

const ORIGIN = 'http://127.0.0.1:9';
const PROJECT = '11111111-1111-4111-8111-111111111111';
const session = { current: async () => ({ userId: 'u1', accessToken: 'token-1' }) };

function scanState(state: 'running' | 'completed'): LiveMessage {
  return {
    type: 'scan.state',
    project_id: PROJECT,
    scan_id: 's1',
    scan: {
      id: 's1',
      state,
      queued_at: '2026-11-24T07:00:00Z',
      started_at: null,
      finished_at: null,
      progress: null,
      score: 90,
      grade: 'A',
      header_grade: null,
      counts: { critical: 0, high: 1, medium: 0, low: 0, info: 0 },
      error: null,
      report_id: null,
    },
  };
}

const scenarioRun: LiveMessage = {
  type: 'scenario.run',
  scenario_id: 'sc1',
  run: {
    id: 'r1',
    scenario_id: 'sc1',
    status: 'passed',
    created_at: '2026-11-24T07:00:00Z',
    started_at: null,
    duration_ms: 10,
    failed_step: null,
    error: null,
    steps: [],
    console_errors: [],
    failed_requests: [],
    screenshot_url: null,
    trace_url: null,
  },
};

function api(answers: Record<string, unknown>) {
  return vi.fn<typeof fetch>(async (input, init) => {
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer token-1');
    const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
    return path in answers ? Response.json(answers[path]) : new Response('{}', { status: 404 });
  });
}

describe('labels', () => {
  it('shows a site as host and path', () => {
    expect(siteLabel('https://shop.example.com/')).toBe('shop.example.com');
    expect(siteLabel('http://127.0.0.1:8080/app/')).toBe('127.0.0.1:8080/app');
    expect(siteLabel('not a url')).toBe('not a url');
  });

  it('names a scenario by its summary, else its site', () => {
    const base = { id: 'sc1', project_id: PROJECT, website: 'https://shop.example.com/' };
    expect(scenarioLabel({ ...base, summarized_actions: ' Checkout flow\nthen pay' })).toBe('Checkout flow');
    expect(scenarioLabel({ ...base, summarized_actions: null })).toBe('shop.example.com');
    expect(scenarioLabel({ ...base, summarized_actions: 'x'.repeat(200) })).toHaveLength(80);
  });
});

describe('createNoticeContext', () => {
  it('loads the project and the changes of a finished scan once, and again after the cache time', async () => {
    const fetchImpl = api({
      [`/project/${PROJECT}`]: { id: PROJECT, url: 'https://shop.example.com/' },
      [`/project/${PROJECT}/scans/diff`]: { from: { id: 's0' }, to: { id: 's1' }, counts: { new: 2, fixed: 1, unchanged: 4 }, new: [], fixed: [], unchanged: [] },
    });
    const clock = { now: 0 };
    const context = createNoticeContext({ origin: ORIGIN, session, fetch: fetchImpl, now: () => clock.now, ttlMs: 1_000 });
    await context.prepare(scanState('running'));
    expect(fetchImpl).not.toHaveBeenCalled(); // not worth a notification: nothing to load
    await context.prepare(scanState('completed'));
    await context.prepare(scanState('completed'));
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(fetchImpl.mock.calls.map(([input]) => (input instanceof Request ? input.url : input.toString()))).toContain(`${ORIGIN}/project/${PROJECT}/scans/diff?to=s1`);
    // A re-scan leads with what is new.
    expect(noticeFor(scanState('completed'), context)).toMatchObject({
      title: 'Scan finished: shop.example.com',
      body: '2 new findings since the last scan (1 fixed). Grade A. 0 critical issues, 1 high issue.',
    });
    clock.now = 2_000;
    await context.prepare(scanState('completed'));
    expect(fetchImpl).toHaveBeenCalledTimes(4);
  });

  it("says nothing of changes for a project's first scan", async () => {
    const fetchImpl = api({
      [`/project/${PROJECT}`]: { id: PROJECT, url: 'https://shop.example.com/' },
      [`/project/${PROJECT}/scans/diff`]: { from: null, to: { id: 's1' }, counts: { new: 1, fixed: 0, unchanged: 0 }, new: [], fixed: [], unchanged: [] },
    });
    const context = createNoticeContext({ origin: ORIGIN, session, fetch: fetchImpl });
    await context.prepare(scanState('completed'));
    expect(context.changesOf?.('s1')).toBeNull();
    expect(noticeFor(scanState('completed'), context)?.body).toBe('Grade A. 0 critical issues, 1 high issue.');
  });

  it('loads a scenario with its project for a finished run', async () => {
    const fetchImpl = api({ '/scenario/sc1': { id: 'sc1', project_id: PROJECT, website: 'https://shop.example.com', summarized_actions: 'Checkout' } });
    const context = createNoticeContext({ origin: ORIGIN, session, fetch: fetchImpl });
    await context.prepare(scenarioRun);
    expect(context.scenarioOf('sc1')).toEqual({ projectId: PROJECT, name: 'Checkout' });
    expect(noticeFor(scenarioRun, context)).toMatchObject({ title: 'Scenario passed: Checkout', projectId: PROJECT });
  });

  it('keeps at most 200 scenarios, the least recently used first out', async () => {
    const run = (id: string): LiveMessage => ({ ...scenarioRun, scenario_id: id });
    const answers = Object.fromEntries(
      Array.from({ length: 201 }, (_, i) => [`/scenario/sc${i}`, { id: `sc${i}`, project_id: PROJECT, website: 'https://shop.example.com', summarized_actions: `Flow ${i}` }]),
    );
    const context = createNoticeContext({ origin: ORIGIN, session, fetch: api(answers) });
    for (let i = 0; i < 200; i++) await context.prepare(run(`sc${i}`));
    expect(context.scenarioOf('sc0')?.name).toBe('Flow 0'); // read: now the most recently used
    await context.prepare(run('sc200'));
    expect(context.scenarioOf('sc200')?.name).toBe('Flow 200');
    expect(context.scenarioOf('sc1')).toBeUndefined();
    expect(context.scenarioOf('sc0')?.name).toBe('Flow 0');
  });

  it('waits at most the wait time, then the notice goes out with a generic title', async () => {
    // Held answers by path: the project's and the changes' requests are both waiting.
    const held = new Map<string, (response: Response) => void>();
    const answer = (response: Response) => held.get(`/project/${PROJECT}`)?.(response);
    const fetchImpl = vi.fn<typeof fetch>((input) => new Promise((resolve) => held.set(new URL(input instanceof Request ? input.url : input.toString()).pathname, resolve)));
    const context = createNoticeContext({ origin: ORIGIN, session, fetch: fetchImpl, waitMs: 50 });
    const started = Date.now();
    await context.prepare(scanState('completed'));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(noticeFor(scanState('completed'), context)?.title).toBe('Scan finished: your site');
    // The late answer still fills the cache for the next notice.
    answer(Response.json({ id: PROJECT, url: 'https://late.example/' }));
    await vi.waitFor(() => expect(context.siteOf(PROJECT)).toBe('late.example'));
  });

  it('ignores answers that are errors or not the expected shape', async () => {
    const fetchImpl = api({ [`/project/${PROJECT}`]: { id: PROJECT } });
    const context = createNoticeContext({ origin: ORIGIN, session, fetch: fetchImpl });
    await context.prepare(scanState('completed'));
    await context.prepare(scenarioRun);
    expect(context.siteOf(PROJECT)).toBeUndefined();
    expect(context.scenarioOf('sc1')).toBeUndefined();
  });
});
