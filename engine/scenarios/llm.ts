import { z } from 'zod';
import { SCENARIO_LIMITS, stepsSchema } from '../../common/scenarios';
import { RunCollector } from './collector';
import { firstPage, openGuardedContext } from './context';
import { ProposalError } from './errors';
import type { LlmSettings, ProposalOptions, ProposedScenario } from './types';
import { ARIA_ROLES } from './locate';
import { redactText, runScenario, secretForms } from './run';
import { NAVIGATION_TIMEOUT_MS } from './steps';

/** Long enough for a local model on a laptop, short enough that a dead endpoint does not hold the request. */
const LLM_TIMEOUT_MS = 90_000;
/** The page's accessibility snapshot is cut here: a home page's structure fits, a model's context stays small. */
const MAX_SNAPSHOT_CHARS = 12_000;
const MAX_SCENARIOS = 5;

const answerSchema = z.object({
  scenarios: z
    .array(z.object({ name: z.string().trim().min(1, 'name: must not be empty').max(SCENARIO_LIMITS.name), steps: stepsSchema }))
    .min(1, 'scenarios: must have at least one scenario')
    .max(10),
});

const STEP_SCHEMA_IN_WORDS = `Answer with one JSON object and nothing else: {"scenarios": [{"name": "...", "steps": [ ... ]}]}.
Each step is one of these objects (no other keys):
- {"type":"goto","url":"/path"} (a path of the website, or a full URL of the same origin)
- {"type":"click","target":T} | {"type":"hover","target":T}
- {"type":"fill","target":T,"value":"text"} or, for the test account, "value":{"credential":"username"} / {"credential":"password"}
- {"type":"press","target":T,"key":"Enter"} (target optional; Playwright key names)
- {"type":"select","target":T,"option":"label or value"} | {"type":"check","target":T,"checked":true}
- {"type":"wait_for","target":T,"state":"visible"|"hidden","timeout_ms":5000}
- assertions: {"type":"expect_visible","target":T} | {"type":"expect_text","target":T,"text":"contained text"}
  | {"type":"expect_url","pattern":"regular expression"} | {"type":"expect_title","text":"contained text"}
  | {"type":"expect_no_console_errors"} | {"type":"expect_no_failed_requests"}
T, the element, in this order of preference: {"by":"role","role":"button","name":"Accessible name"}, {"by":"label","text":"..."},
{"by":"placeholder","text":"..."}, {"by":"test_id","id":"..."}, {"by":"text","text":"..."}, and only as a last resort {"by":"css","selector":"..."}.
Roles are ARIA roles (${ARIA_ROLES.slice(0, 40).join(', ')}, ...). A target must match exactly one element.`;

function systemPrompt(): string {
  return `You write end-to-end browser test scenarios for a website, as steps a deterministic runner replays in Chromium.
Write at most ${MAX_SCENARIOS} scenarios a careful tester would keep: key pages load, main navigation, sign-in when a test account
exists, important forms. Use only elements present in the accessibility snapshot you are given. Every scenario starts with a goto
and ends with at least one assertion. Never invent credentials: type the test account only through the credential references.
${STEP_SCHEMA_IN_WORDS}`;
}

function userPrompt(options: ProposalOptions, snapshot: string, forms: string[]): string {
  const account = options.credentials
    ? 'The site has a test account: fill its user name with {"credential":"username"} and its password with {"credential":"password"}.'
    : 'There is no test account: do not write sign-in scenarios.';
  const instructions = options.instructions?.trim() ? redactText(options.instructions.trim(), forms) : '(none)';
  return `Website: ${options.website}\n${account}\nThe project's test instructions:\n${instructions}\n\nAccessibility snapshot of the home page (Playwright aria snapshot):\n${snapshot}`;
}

/** The home page's accessibility snapshot, read in a fresh guarded context, credentials masked. */
async function homeSnapshot(options: ProposalOptions, forms: string[]): Promise<string> {
  const collector = new RunCollector(new URL(options.website).origin, (text) => text);
  const context = await openGuardedContext({ ...options, readOnly: () => true }, collector);
  try {
    const page = await firstPage(context);
    await page.goto(options.website, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
    await collector.settle(150, 2_000);
    const snapshot = await page.locator('body').ariaSnapshot({ timeout: 5_000 });
    return redactText(snapshot, forms).slice(0, MAX_SNAPSHOT_CHARS);
  } catch (error) {
    throw new ProposalError(`${options.website} did not load in the browser: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  } finally {
    await context.close().catch(() => undefined);
  }
}

type Message = { role: 'system' | 'user' | 'assistant'; content: string };
const completionSchema = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1) });

/** One chat completions call (OpenAI-compatible); the answer's text. */
async function complete(llm: LlmSettings, messages: Message[], signal?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(LLM_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${llm.baseUrl.replace(/(?<!\/)\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
      body: JSON.stringify({ model: llm.model, messages, response_format: { type: 'json_object' }, temperature: 0 }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw new ProposalError('Cancelled');
    throw new ProposalError(`The AI service at ${llm.baseUrl} could not be reached: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new ProposalError(`The AI service answered ${response.status}: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
  let parsed: z.infer<typeof completionSchema>;
  try {
    parsed = completionSchema.parse(JSON.parse(text));
  } catch {
    throw new ProposalError('The AI service did not answer in the chat completions format');
  }
  return parsed.choices[0]!.message.content ?? '';
}

/** The scenarios in a model's answer, or the reason they do not validate (for the retry and the final error). */
export function parseAnswer(content: string): { scenarios: { name: string; steps: ProposedScenario['steps'] }[] } | { error: string } {
  const json = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/(?<!\s)\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { error: 'the answer is not JSON' };
  }
  const result = answerSchema.safeParse(value);
  if (result.success) return { scenarios: result.data.scenarios };
  const issues = result.error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.join('.') || '(answer)';
    // The schema's own messages often start with their field's name already.
    if (!issue.message.startsWith(`${String(issue.path.at(-1))}:`)) return `${path}: ${issue.message}`;
    const parent = issue.path.slice(0, -1).join('.');
    return parent ? `${parent}.${issue.message}` : issue.message;
  });
  return { error: issues.join('; ') };
}

/** Asks the model; an answer that does not validate is sent back once with the reason, a second one is an error. */
async function askForScenarios(options: ProposalOptions & { llm: LlmSettings }, snapshot: string, forms: string[]) {
  const messages: Message[] = [
    { role: 'system', content: systemPrompt() },
    { role: 'user', content: userPrompt(options, snapshot, forms) },
  ];
  const first = await complete(options.llm, messages, options.signal);
  const parsed = parseAnswer(first);
  if ('scenarios' in parsed) return parsed.scenarios;
  messages.push(
    { role: 'assistant', content: first },
    { role: 'user', content: `Your answer is not valid: ${parsed.error}. Answer again with the JSON object only, following the step schema exactly.` },
  );
  const again = parseAnswer(await complete(options.llm, messages, options.signal));
  if ('scenarios' in again) return again.scenarios;
  throw new ProposalError(`The AI service's answer was not a valid scenario twice: ${again.error}`);
}

/**
 * Proposals from an AI service: the model sees the test instructions (credentials masked) and the home page's
 * accessibility snapshot, and answers steps that must validate against the step schema; each scenario is then
 * dry-run once in Chromium. A scenario whose dry run fails is dropped; when none passes, the proposal is refused
 * with a ProposalError naming each failing step, so the user never saves steps that cannot run.
 */
export async function proposeWithLlm(options: ProposalOptions & { llm: LlmSettings }): Promise<ProposedScenario[]> {
  const forms = secretForms(options.credentials);
  const snapshot = await homeSnapshot(options, forms);
  const scenarios = (await askForScenarios(options, snapshot, forms)).slice(0, MAX_SCENARIOS);
  const accepted: ProposedScenario[] = [];
  const refused: string[] = [];
  for (const scenario of scenarios) {
    if (options.signal?.aborted) throw new ProposalError('Cancelled');
    const run = await runScenario({ ...options, steps: scenario.steps, trace: false });
    if (run.status === 'passed') accepted.push({ website: options.website, steps: scenario.steps, name: scenario.name });
    else refused.push(`"${scenario.name}"${run.failedStep !== null ? ` step ${run.failedStep + 1}` : ''}: ${run.error}`);
  }
  if (!accepted.length) throw new ProposalError(`The AI service's scenarios failed their dry run in the browser: ${refused.join('; ')}`);
  return accepted;
}
