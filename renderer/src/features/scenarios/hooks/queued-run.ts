import type { ScenarioRun } from '@common/scenarios';

/** The run a start call just queued, shown at once until the live stream or a poll brings its real state. */
export function queuedRun(scenarioId: string, runId: string, now: Date = new Date()): ScenarioRun {
  return {
    id: runId,
    scenario_id: scenarioId,
    status: 'queued',
    created_at: now.toISOString(),
    started_at: null,
    duration_ms: null,
    failed_step: null,
    error: null,
    steps: [],
    console_errors: [],
    failed_requests: [],
    screenshot_url: null,
    trace_url: null,
  };
}
