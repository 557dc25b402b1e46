import { describe, expect, it, vi } from 'vitest';
import { CATCH_UP_SLACK_MS, missedFinishes } from './live-catch-up';

const ORIGIN = 'http://127.0.0.1:9';
const SESSION = { userId: 'u1', accessToken: 'token-1' };
const SINCE = Date.parse('2026-11-24T10:00:00Z');
const at = (offsetMs: number) => new Date(SINCE + offsetMs).toISOString();

function scan(id: string, state: 'running' | 'completed' | 'failed', finishedAt: string | null) {
  return {
    id,
    state,
    queued_at: at(-60_000),
    started_at: at(-50_000),
    finished_at: finishedAt,
    progress: null,
    score: null,
    grade: null,
    header_grade: null,
    counts: null,
    error: null,
    report_id: null,
  };
}

function run(id: string, status: 'running' | 'passed' | 'failed', startedAt: string | null, durationMs: number | null, createdAt = at(-600_000)) {
  return {
    id,
    scenario_id: `sc-${id}`,
    status,
    created_at: createdAt,
    started_at: startedAt,
    duration_ms: durationMs,
    failed_step: null,
    error: null,
    steps: [],
    console_errors: [],
    failed_requests: [],
    screenshot_url: null,
    trace_url: null,
  };
}

function build(id: string, status: 'other' | 'success' | 'error', finishedAt: string | null) {
  const changes = finishedAt ? { previous_scan_id: null, grade: 'B', previous_grade: null, new_findings: [], new_count: 0, fixed_count: 0, error: null } : null;
  return {
    id,
    project_id: 'p-new',
    build_hash: 'aaaaaaaa',
    status,
    url: 'https://shop.example/',
    timestamp: at(-60_000),
    trigger: 'script',
    scan_id: 's-new',
    changes,
    finished_at: finishedAt,
  };
}

function api(projects: unknown, scenarios: unknown, builds: unknown = []) {
  return vi.fn<typeof fetch>(async (input, init) => {
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer token-1');
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const lists: Record<string, unknown> = { '/projects': projects, '/scenarios': scenarios, '/continuous_builds': builds };
    const body = lists[url.pathname];
    return body === undefined ? new Response('{}', { status: 500 }) : Response.json(body);
  });
}

describe('missedFinishes', () => {
  it('finds the scans and runs that finished since the drop (with a little slack), and nothing else', async () => {
    const projects = [
      { id: 'p-new', latest_scan: scan('s-new', 'completed', at(1_000)) },
      { id: 'p-failed', latest_scan: scan('s-failed', 'failed', at(-CATCH_UP_SLACK_MS + 500)) },
      { id: 'p-old', latest_scan: scan('s-old', 'completed', at(-CATCH_UP_SLACK_MS - 500)) },
      { id: 'p-running', latest_scan: scan('s-running', 'running', null) },
      { id: 'p-none', latest_scan: null },
    ];
    const scenarios = [
      { id: 'sc-a', last_run: run('a', 'passed', at(-10_000), 12_000) }, // started before the drop, finished after
      { id: 'sc-b', last_run: run('b', 'failed', null, null, at(2_000)) }, // no start: its queue time counts
      { id: 'sc-c', last_run: run('c', 'passed', at(-60_000), 1_000) },
      { id: 'sc-d', last_run: run('d', 'running', at(1_000), null) },
      { id: 'sc-e', last_run: null },
    ];
    const builds = [build('b-new', 'error', at(3_000)), build('b-waiting', 'other', null), build('b-old', 'success', at(-CATCH_UP_SLACK_MS - 500))];
    const fetchImpl = api(projects, scenarios, builds);
    const messages = await missedFinishes({ origin: ORIGIN, fetch: fetchImpl }, SESSION, SINCE);
    const label = (m: (typeof messages)[number]) =>
      m.type === 'scan.state'
        ? `scan ${m.project_id} ${m.scan.state}`
        : m.type === 'scenario.run'
          ? `run ${m.scenario_id} ${m.run.status}`
          : m.type === 'continuous.build'
            ? `build ${m.build.id} ${m.build.status}`
            : m.type;
    expect(messages.map(label)).toEqual(['scan p-new completed', 'scan p-failed failed', 'run sc-a passed', 'run sc-b failed', 'build b-new error']);
    expect(fetchImpl.mock.calls.map(([input]) => (input instanceof Request ? input.url : input.toString())).sort()).toEqual([
      `${ORIGIN}/continuous_builds?limit=100`,
      `${ORIGIN}/projects?limit=100`,
      `${ORIGIN}/scenarios?limit=100`,
    ]);
  });

  it('asks in the workspace the app shows', async () => {
    const team = '22222222-2222-4222-8222-222222222222';
    const fetchImpl = api([], []);
    await missedFinishes({ origin: ORIGIN, fetch: fetchImpl }, { ...SESSION, workspaceId: team }, SINCE);
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    for (const [, init] of fetchImpl.mock.calls) expect((init?.headers as Record<string, string>)['x-vibeeval-workspace']).toBe(team);
  });

  it('gives what it can when a list fails or is not the expected shape', async () => {
    const projects = [{ id: 'p-new', latest_scan: scan('s-new', 'completed', at(1_000)) }];
    expect(await missedFinishes({ origin: ORIGIN, fetch: api(projects, undefined) }, SESSION, SINCE)).toHaveLength(1);
    expect(await missedFinishes({ origin: ORIGIN, fetch: api({ not: 'a list' }, [{ id: 1 }]) }, SESSION, SINCE)).toEqual([]);
  });
});
