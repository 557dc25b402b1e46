import { z } from 'zod';

// Browser test scenarios (spec sections 2 AI Browser, 3 Scenario, 4 Scenario status, 7 scenario calls, 8 Scenarios,
// 9 Scenario id): recorded steps that run in headless Chromium and export as a plain @playwright/test file.
// The server validates with these schemas, the engine runs and exports the steps, the renderer shows them.

export const SCENARIO_LIMITS = { steps: 50, text: 500, url: 2048, name: 200, key: 40, timeoutMs: 30_000 } as const;

const text = (field: string) => z.string({ message: `${field}: must be a string` }).max(SCENARIO_LIMITS.text, `${field}: cannot exceed ${SCENARIO_LIMITS.text} characters`);
const nonEmpty = (field: string) => text(field).min(1, `${field}: must not be empty`);

/**
 * How a step finds its element, in the order Playwright recommends: role and accessible name first, then label,
 * placeholder, test id, text; CSS only as a last resort.
 */
export const locatorSchema = z.discriminatedUnion('by', [
  z.object({ by: z.literal('role'), role: nonEmpty('role').max(40), name: text('name').optional(), exact: z.boolean().optional() }).strict(),
  z.object({ by: z.literal('label'), text: nonEmpty('text'), exact: z.boolean().optional() }).strict(),
  z.object({ by: z.literal('placeholder'), text: nonEmpty('text'), exact: z.boolean().optional() }).strict(),
  z.object({ by: z.literal('test_id'), id: nonEmpty('id') }).strict(),
  z.object({ by: z.literal('text'), text: nonEmpty('text'), exact: z.boolean().optional() }).strict(),
  z.object({ by: z.literal('css'), selector: nonEmpty('selector') }).strict(),
]);
export type Locator = z.infer<typeof locatorSchema>;

/**
 * A typed value, or a reference to the project's test credentials: the login's email/user name or password is
 * never stored in a step, in scenario_code (an environment variable there), in logs, events or traces.
 */
export const CREDENTIAL_FIELDS = ['username', 'password'] as const;
export const fillValueSchema = z.union([text('value'), z.object({ credential: z.enum(CREDENTIAL_FIELDS) }).strict()]);

/** Environment variables the exported Playwright file reads the credentials from. */
export const CREDENTIAL_ENV = { username: 'VIBEEVAL_TEST_USERNAME', password: 'VIBEEVAL_TEST_PASSWORD' } as const;

const timeout = z.number().int().min(100, 'timeout_ms: must be at least 100').max(SCENARIO_LIMITS.timeoutMs, `timeout_ms: cannot exceed ${SCENARIO_LIMITS.timeoutMs}`).optional();

export const stepSchema = z.discriminatedUnion('type', [
  /** Opens a path of the website (or a full URL of the same origin). */
  z.object({ type: z.literal('goto'), url: nonEmpty('url').max(SCENARIO_LIMITS.url) }).strict(),
  z.object({ type: z.literal('click'), target: locatorSchema }).strict(),
  z.object({ type: z.literal('fill'), target: locatorSchema, value: fillValueSchema }).strict(),
  /** A key (Playwright's names: Enter, Tab, Control+A...), on an element or the page. */
  z.object({ type: z.literal('press'), target: locatorSchema.optional(), key: nonEmpty('key').max(SCENARIO_LIMITS.key) }).strict(),
  z.object({ type: z.literal('select'), target: locatorSchema, option: nonEmpty('option') }).strict(),
  z.object({ type: z.literal('check'), target: locatorSchema, checked: z.boolean().default(true) }).strict(),
  z.object({ type: z.literal('hover'), target: locatorSchema }).strict(),
  z.object({ type: z.literal('wait_for'), target: locatorSchema, state: z.enum(['visible', 'hidden']).default('visible'), timeout_ms: timeout }).strict(),
  // Assertions.
  z.object({ type: z.literal('expect_visible'), target: locatorSchema }).strict(),
  /** The element's text contains `text`. */
  z.object({ type: z.literal('expect_text'), target: locatorSchema, text: nonEmpty('text') }).strict(),
  /** The page's URL matches `pattern`, a regular expression (JavaScript syntax, unanchored). */
  z
    .object({ type: z.literal('expect_url'), pattern: nonEmpty('pattern') })
    .strict()
    .refine((step) => isValidPattern(step.pattern), { message: 'pattern: must be a valid regular expression', path: ['pattern'] }),
  /** The page's title contains `text`. */
  z.object({ type: z.literal('expect_title'), text: nonEmpty('text') }).strict(),
  /** No console error since the scenario started. */
  z.object({ type: z.literal('expect_no_console_errors') }).strict(),
  /** No failed request (network error or status 4xx/5xx) of the website's origin since the scenario started. */
  z.object({ type: z.literal('expect_no_failed_requests') }).strict(),
]);
export type Step = z.infer<typeof stepSchema>;

function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

export const stepsSchema = z
  .array(stepSchema, { message: 'actions: must be a list of steps' })
  .min(1, 'actions: must have at least one step')
  .max(SCENARIO_LIMITS.steps, `actions: cannot have more than ${SCENARIO_LIMITS.steps} steps`);

/** `actions` as sent: the list itself, or the list JSON-encoded (the spec's server shape). */
export const actionsInputSchema = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}, stepsSchema);

const websiteSchema = z
  .string()
  .trim()
  .max(SCENARIO_LIMITS.url, `website: cannot exceed ${SCENARIO_LIMITS.url} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'website: must be an http or https URL');

/** POST /scenarios: saves one scenario. */
export const createScenarioBodySchema = z
  .object({
    project_id: z.uuid('project_id: must be a project id').nullish(),
    website: websiteSchema,
    actions: actionsInputSchema,
    summarized_actions: z.string().trim().max(SCENARIO_LIMITS.name, `summarized_actions: cannot exceed ${SCENARIO_LIMITS.name} characters`).nullish(),
  })
  .strict();
export type CreateScenarioBody = z.input<typeof createScenarioBodySchema>;

/** POST /scenarios/generate: proposals for a project, nothing saved. */
export const generateScenariosBodySchema = z.object({ project_id: z.uuid('project_id: must be a project id') }).strict();

/** A proposed scenario; `actions` JSON-encoded like a saved one's. */
export const scenarioProposalSchema = z.object({ website: z.string(), actions: z.string(), summarized_actions: z.string() });
export type ScenarioProposal = z.infer<typeof scenarioProposalSchema>;
export const scenarioProposalsSchema = z.object({ proposals: z.array(scenarioProposalSchema) });

export const RUN_STATUSES = ['queued', 'running', 'passed', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const stepResultSchema = z.object({
  index: z.number().int(),
  status: z.enum(['passed', 'failed', 'skipped']),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});
export type StepResult = z.infer<typeof stepResultSchema>;

export const failedRequestSchema = z.object({ url: z.string(), method: z.string(), failure: z.string() });

/** One run of a scenario (GET /scenario/{id} lists them newest first). */
export const scenarioRunSchema = z.object({
  id: z.string(),
  scenario_id: z.string(),
  status: z.enum(RUN_STATUSES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  /** Index in `actions` of the step that failed. */
  failed_step: z.number().int().nullable(),
  error: z.string().nullable(),
  steps: z.array(stepResultSchema),
  console_errors: z.array(z.string()),
  failed_requests: z.array(failedRequestSchema),
  /** API paths (bearer token) of the PNG at the end or at the failure, and of the Playwright trace zip. */
  screenshot_url: z.string().nullable(),
  trace_url: z.string().nullable(),
});
export type ScenarioRun = z.infer<typeof scenarioRunSchema>;

/** A scenario as the server answers it (spec section 3, Scenario (server)) plus its project and last run. */
export const scenarioSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  website: z.string(),
  /** The JSON-encoded list of steps. */
  actions: z.string(),
  summarized_actions: z.string().nullable(),
  scenario_code: z.string(),
  created_at: z.string(),
  last_run: scenarioRunSchema.nullable(),
});
export type Scenario = z.infer<typeof scenarioSchema>;

/** GET /scenario/{id}: the scenario with its most recent runs, newest first. */
export const scenarioDetailSchema = scenarioSchema.extend({ runs: z.array(scenarioRunSchema) });
export type ScenarioDetail = z.infer<typeof scenarioDetailSchema>;
export const SCENARIO_DETAIL_RUNS = 20;

export const runStartedSchema = z.object({ run_id: z.string() });
/** POST /scenarios/run-all: one run per scenario, in the order of GET /scenarios. */
export const runAllStartedSchema = z.object({ runs: z.array(z.object({ scenario_id: z.string(), run_id: z.string() })) });

/** The client view (spec section 3, Scenario (client view)). */
export interface ScenarioView {
  id: string;
  name: string;
  url: string;
  status: 'Ready' | 'Passed' | 'Failed' | 'Running' | 'Queued';
  lastRun: string | null;
  steps: number;
}

export function toScenarioView(scenario: Scenario): ScenarioView {
  const run = scenario.last_run;
  const status = !run ? 'Ready' : run.status === 'passed' ? 'Passed' : run.status === 'failed' ? 'Failed' : run.status === 'running' ? 'Running' : 'Queued';
  let steps = 0;
  try {
    const parsed = JSON.parse(scenario.actions) as unknown;
    steps = Array.isArray(parsed) ? parsed.length : 0;
  } catch {
    steps = 0;
  }
  return {
    id: scenario.id,
    name: scenario.summarized_actions?.trim() || `Scenario for ${scenario.website}`,
    url: scenario.website,
    status,
    lastRun: run ? (run.started_at ?? run.created_at) : null,
    steps,
  };
}

/** The scenario id as shown (spec section 9): its first 8 characters. */
export const shortScenarioId = (id: string) => id.slice(0, 8);
