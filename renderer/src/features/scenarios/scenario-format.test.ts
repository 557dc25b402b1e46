import type { PlanLimitsResponse } from '@common/plan-limits';
import type { ScenarioRun, Step } from '@common/scenarios';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/http';
import { queuedRun } from './hooks/queued-run';
import {
  describeActions,
  describeStep,
  filterScenarios,
  formatDuration,
  runAllTally,
  scenarioCallError,
  scenarioRoom,
  scenarioStatusPalette,
  specFileName,
} from './scenario-format';

describe('describeStep', () => {
  it.each<[Step, string]>([
    [{ type: 'goto', url: '/login' }, 'Open /login'],
    [{ type: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } }, 'Click the button “Sign in”'],
    [{ type: 'click', target: { by: 'role', role: 'link' } }, 'Click the link'],
    [{ type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'username' } }, 'Fill the field labelled “Email” with the test user name'],
    [{ type: 'fill', target: { by: 'placeholder', text: 'Password' }, value: { credential: 'password' } }, 'Fill the field with placeholder “Password” with the test password'],
    [{ type: 'fill', target: { by: 'test_id', id: 'q' }, value: 'shoes' }, 'Fill the element with test id “q” with “shoes”'],
    [{ type: 'press', key: 'Enter' }, 'Press Enter'],
    [{ type: 'press', key: 'Tab', target: { by: 'text', text: 'Name' } }, 'Press Tab in the text “Name”'],
    [{ type: 'select', target: { by: 'label', text: 'Size' }, option: 'M' }, 'Select “M” in the field labelled “Size”'],
    [{ type: 'check', target: { by: 'label', text: 'Terms' }, checked: false }, 'Uncheck the field labelled “Terms”'],
    [{ type: 'check', target: { by: 'label', text: 'Terms' }, checked: true }, 'Check the field labelled “Terms”'],
    [{ type: 'hover', target: { by: 'css', selector: '.menu' } }, 'Hover over the element matching .menu'],
    [{ type: 'wait_for', target: { by: 'text', text: 'Done' }, state: 'hidden' }, 'Wait for the text “Done” to be hidden'],
    [{ type: 'expect_visible', target: { by: 'role', role: 'heading', name: 'Welcome' } }, 'Expect the heading “Welcome” to be visible'],
    [{ type: 'expect_text', target: { by: 'test_id', id: 'total' }, text: '42' }, 'Expect the element with test id “total” to contain “42”'],
    [{ type: 'expect_url', pattern: '/dashboard$' }, 'Expect the URL to match “/dashboard$”'],
    [{ type: 'expect_title', text: 'Shop' }, 'Expect the title to contain “Shop”'],
    [{ type: 'expect_no_console_errors' }, 'Expect no console errors'],
    [{ type: 'expect_no_failed_requests' }, 'Expect no failed requests'],
  ])('%j reads %s', (step, text) => {
    expect(describeStep(step)).toBe(text);
  });

  it('never shows a credential value, only which one', () => {
    const text = describeStep({ type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } });
    expect(text).not.toMatch(/credential/);
    expect(text).toContain('the test password');
  });
});

describe('describeActions', () => {
  it('reads the JSON-encoded steps of a scenario', () => {
    expect(
      describeActions(
        JSON.stringify([
          { type: 'goto', url: '/' },
          { type: 'expect_title', text: 'Home' },
        ]),
      ),
    ).toEqual(['Open /', 'Expect the title to contain “Home”']);
  });
  it('shows steps it does not know as their JSON, and nothing for text that is not a list', () => {
    expect(describeActions(JSON.stringify([{ type: 'teleport', to: 'mars' }]))).toEqual(['{"type":"teleport","to":"mars"}']);
    expect(describeActions('not json')).toEqual([]);
    expect(describeActions('{"type":"goto"}')).toEqual([]);
  });
});

describe('scenarioStatusPalette', () => {
  it('is green for Passed, red for Failed and amber for every other status', () => {
    expect(scenarioStatusPalette('Passed')).toBe('status.active');
    expect(scenarioStatusPalette('Failed')).toBe('severity.critical');
    for (const status of ['Ready', 'Queued', 'Running'] as const) expect(scenarioStatusPalette(status)).toBe('status.other');
  });
});

describe('filterScenarios', () => {
  const views = [
    { name: 'Login works', url: 'https://shop.example/' },
    { name: 'Checkout', url: 'https://SHOP.example/cart' },
    { name: 'About page', url: 'https://blog.example/' },
  ];
  it('matches the name or the URL, case-insensitive, and keeps everything for an empty search', () => {
    expect(filterScenarios(views, 'LOGIN').map((v) => v.name)).toEqual(['Login works']);
    expect(filterScenarios(views, 'shop.EXAMPLE').map((v) => v.name)).toEqual(['Login works', 'Checkout']);
    expect(filterScenarios(views, '  ')).toHaveLength(3);
    expect(filterScenarios(views, 'nothing like it')).toEqual([]);
  });
});

describe('scenarioCallError', () => {
  it("reads 'Failed to {call}: {status} - {text}', or 'Authentication required' without a session", () => {
    expect(scenarioCallError('fetch scenarios', new ApiError(500, 'Internal Server Error'))).toBe('Failed to fetch scenarios: 500 - Internal Server Error');
    expect(scenarioCallError('run scenario', new ApiError(409, 'This scenario is already running'))).toBe('Failed to run scenario: 409 - This scenario is already running');
    expect(scenarioCallError('delete scenario', new ApiError(401, 'Authentication required'))).toBe('Authentication required');
    expect(scenarioCallError('run all scenarios', new TypeError('Failed to fetch'))).toBe('Failed to run all scenarios: Failed to fetch');
  });
});

describe('runAllTally', () => {
  const finished = (scenarioId: string, runId: string, status: ScenarioRun['status']): ScenarioRun => ({ ...queuedRun(scenarioId, runId), status });
  const batch = {
    runs: [
      { scenario_id: 'a', run_id: 'ra' },
      { scenario_id: 'b', run_id: 'rb' },
      { scenario_id: 'c', run_id: 'rc' },
    ],
  };

  it('waits while any run of the batch is queued, running or not seen yet', () => {
    const known: Record<string, ScenarioRun[]> = { a: [finished('a', 'ra', 'passed')], b: [finished('b', 'rb', 'running')], c: [finished('c', 'rc', 'failed')] };
    expect(runAllTally(batch, (id) => known[id] ?? [])).toBeNull();
    expect(runAllTally(batch, (id) => (id === 'b' ? [] : (known[id] ?? [])))).toBeNull();
    // An earlier finished run of the same scenario does not count for this batch.
    expect(runAllTally(batch, (id) => (id === 'b' ? [finished('b', 'older', 'passed')] : (known[id] ?? [])))).toBeNull();
  });

  it('counts the real results once every run has finished', () => {
    const known: Record<string, ScenarioRun[]> = {
      a: [finished('a', 'ra', 'passed')],
      b: [finished('b', 'rb', 'passed'), finished('b', 'old', 'failed')],
      c: [finished('c', 'rc', 'failed')],
    };
    expect(runAllTally(batch, (id) => known[id] ?? [])).toEqual({ passed: 2, total: 3 });
  });
});

describe('formatDuration and specFileName', () => {
  it('shows durations in ms, seconds or minutes', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
  it('names the file after the scenario', () => {
    expect(specFileName('Login: signs in & lands on /dashboard')).toBe('login-signs-in-lands-on-dashboard.spec.ts');
    expect(specFileName('***')).toBe('scenario.spec.ts');
  });
});

describe('scenarioRoom', () => {
  const plan = (tier: 'basic' | 'pro' | 'enterprise', limit: number | null, used: number): PlanLimitsResponse => ({
    tier,
    subscribed: true,
    limits: { projects: null, scenarios: limit, api_plan: null, report_formats: ['html'], monitor_frequencies: ['off'], seats: 1 },
    used: { projects: 0, scenarios: used },
  });
  it('says how many more fit, before the limit bites', () => {
    expect(scenarioRoom(plan('basic', 2, 0))).toEqual({ room: 2, text: 'Your Basic plan includes 2 AI browser scenarios; 0 saved, so 2 more fit. Select up to 2.' });
    expect(scenarioRoom(plan('basic', 2, 1))).toEqual({ room: 1, text: 'Your Basic plan includes 2 AI browser scenarios; 1 saved, so 1 more fits. Select up to 1.' });
  });
  it('says when none fits, with the upgrade', () => {
    expect(scenarioRoom(plan('pro', 13, 14))).toEqual({ room: 0, text: 'Your Pro plan includes 13 AI browser scenarios, all saved. Upgrade your plan to add more.' });
  });
  it('limits nothing without a limit, or before the plan is known (the server decides)', () => {
    expect(scenarioRoom(plan('enterprise', null, 40))).toEqual({ room: null, text: null });
    expect(scenarioRoom(undefined)).toEqual({ room: null, text: null });
  });
});
