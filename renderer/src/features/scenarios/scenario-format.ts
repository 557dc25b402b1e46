import { stepsSchema, type Locator, type RunStatus, type ScenarioRun, type ScenarioView, type Step } from '@common/scenarios';
import { TIER_NAMES } from '@common/plans';
import type { PlanLimitsResponse } from '@common/plan-limits';
import { plural } from '@common/plural';
import { ApiError } from '../../api/http';
import { texts } from './texts';

// Pure helpers of the AI Browser screen: steps in words, status colours, search, error messages, the run-all tally.

const quote = (value: string) => `“${value}”`;

/** How a step finds its element, in words: `the button “Sign in”`, `the field labelled “Email”`... */
export function describeLocator(locator: Locator): string {
  switch (locator.by) {
    case 'role':
      return locator.name ? `the ${locator.role} ${quote(locator.name)}` : `the ${locator.role}`;
    case 'label':
      return `the field labelled ${quote(locator.text)}`;
    case 'placeholder':
      return `the field with placeholder ${quote(locator.text)}`;
    case 'test_id':
      return `the element with test id ${quote(locator.id)}`;
    case 'text':
      return `the text ${quote(locator.text)}`;
    case 'css':
      return `the element matching ${locator.selector}`;
  }
}

/** One step as a sentence a tester reads: 'Open /login', 'Fill the field labelled “Email” with the test user name'. */
export function describeStep(step: Step): string {
  switch (step.type) {
    case 'goto':
      return `Open ${step.url}`;
    case 'click':
      return `Click ${describeLocator(step.target)}`;
    case 'fill': {
      // Credentials are references: the screen says which one, never a value.
      const value = typeof step.value === 'string' ? quote(step.value) : step.value.credential === 'password' ? 'the test password' : 'the test user name';
      return `Fill ${describeLocator(step.target)} with ${value}`;
    }
    case 'press':
      return step.target ? `Press ${step.key} in ${describeLocator(step.target)}` : `Press ${step.key}`;
    case 'select':
      return `Select ${quote(step.option)} in ${describeLocator(step.target)}`;
    case 'check':
      return `${step.checked === false ? 'Uncheck' : 'Check'} ${describeLocator(step.target)}`;
    case 'hover':
      return `Hover over ${describeLocator(step.target)}`;
    case 'wait_for':
      return `Wait for ${describeLocator(step.target)} to be ${step.state ?? 'visible'}`;
    case 'expect_visible':
      return `Expect ${describeLocator(step.target)} to be visible`;
    case 'expect_text':
      return `Expect ${describeLocator(step.target)} to contain ${quote(step.text)}`;
    case 'expect_url':
      return `Expect the URL to match ${quote(step.pattern)}`;
    case 'expect_title':
      return `Expect the title to contain ${quote(step.text)}`;
    case 'expect_no_console_errors':
      return 'Expect no console errors';
    case 'expect_no_failed_requests':
      return 'Expect no failed requests';
  }
}

/** A scenario's `actions` (JSON-encoded steps) as sentences; steps that do not parse are shown as their JSON. */
export function describeActions(actions: string): string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(actions);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const parsed = stepsSchema.safeParse(raw);
  if (parsed.success) return parsed.data.map(describeStep);
  return raw.map((item) => JSON.stringify(item));
}

/** Spec section 4: Passed green, Failed red, anything else (Ready, Queued, Running) amber. */
export function scenarioStatusPalette(status: ScenarioView['status']): string {
  if (status === 'Passed') return 'status.active';
  if (status === 'Failed') return 'severity.critical';
  return 'status.other';
}

/** Spec section 5: a scenario matches when its name or URL contains the search, case-insensitive. */
export function filterScenarios<T extends Pick<ScenarioView, 'name' | 'url'>>(views: T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return views;
  return views.filter((view) => view.name.toLowerCase().includes(needle) || view.url.toLowerCase().includes(needle));
}

/**
 * Spec section 8: 'Failed to {call}: {status} - {text}', where text is the server's detail (or the status text
 * the client fell back to); a call made without a session reads 'Authentication required'.
 */
export function scenarioCallError(call: string, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return texts.authRequired;
    return `Failed to ${call}: ${error.status} - ${error.message}`;
  }
  return `Failed to ${call}: ${error instanceof Error ? error.message : String(error)}`;
}

export const isActiveRun = (status: RunStatus | undefined) => status === 'queued' || status === 'running';

/** The runs Run All started; their results are counted once every one of them has finished. */
export interface RunAllBatch {
  runs: { scenario_id: string; run_id: string }[];
}

/**
 * The tally of a Run All from the runs known so far (`runsOf` gives a scenario's known runs): null while any of
 * the batch's runs is still queued or running, else the real count of passed runs.
 */
export function runAllTally(batch: RunAllBatch, runsOf: (scenarioId: string) => ScenarioRun[]): { passed: number; total: number } | null {
  let passed = 0;
  for (const { scenario_id: scenarioId, run_id: runId } of batch.runs) {
    const run = runsOf(scenarioId).find((r) => r.id === runId);
    if (!run || isActiveRun(run.status)) return null;
    if (run.status === 'passed') passed++;
  }
  return { passed, total: batch.runs.length };
}

/** A duration as the run history shows it: '850 ms', '1.2 s', '2 min 5 s'. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The file name the code is downloaded as: the scenario's name made safe, plus .spec.ts. */
export function specFileName(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'scenario'}.spec.ts`;
}

/** How many more scenarios the plan has room for, and the words that say so before a save is refused. */
export interface ScenarioRoom {
  /** Scenarios that may still be saved; null: no limit, or the plan is not known (the server decides). */
  room: number | null;
  /** The sentence shown above 'Save selected'; null when nothing limits the choice. */
  text: string | null;
}

export function scenarioRoom(plan: PlanLimitsResponse | undefined): ScenarioRoom {
  const limit = plan?.limits.scenarios ?? null;
  if (!plan || limit === null) return { room: null, text: null };
  const room = Math.max(0, limit - plan.used.scenarios);
  const includes = `Your ${TIER_NAMES[plan.tier]} plan includes ${plural(limit, 'AI browser scenario')}`;
  if (room === 0) return { room, text: `${includes}, all saved. Upgrade your plan to add more.` };
  return { room, text: `${includes}; ${plan.used.scenarios} saved, so ${room} more ${room === 1 ? 'fits' : 'fit'}. Select up to ${room}.` };
}
