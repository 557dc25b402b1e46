import type { Page } from 'playwright-core';
import type { Locator, Step } from '../../common/scenarios';
import type { RunCollector } from './collector';
import { describeTarget, locate } from './locate';
import type { Credentials } from './types';

export const ACTION_TIMEOUT_MS = 5_000;
/** A page load is given longer than an action: real sites behind a rate limit can be slow. */
export const NAVIGATION_TIMEOUT_MS = 15_000;
const POLL_MS = 50;

/** A failure whose message is already written for the user. */
export class StepFailure extends Error {}

export interface StepContext {
  page: Page;
  website: URL;
  credentials: Credentials | null;
  collector: RunCollector;
  index: number;
}

/** What a step does, in words: `Click button "Sign in"`. */
export function describeStep(step: Step): string {
  const target = 'target' in step && step.target ? describeTarget(step.target) : 'the page';
  switch (step.type) {
    case 'goto':
      return `Open ${step.url}`;
    case 'click':
      return `Click ${target}`;
    case 'fill':
      return `Fill ${target}`;
    case 'press':
      return `Press ${step.key} on ${target}`;
    case 'select':
      return `Select "${step.option}" in ${target}`;
    case 'check':
      return `${step.checked ? 'Check' : 'Uncheck'} ${target}`;
    case 'hover':
      return `Hover ${target}`;
    case 'wait_for':
      return `Wait for ${target} to be ${step.state}`;
    case 'expect_visible':
      return `Expect ${target} to be visible`;
    case 'expect_text':
      return `Expect ${target} to contain "${step.text}"`;
    case 'expect_url':
      return `Expect the URL to match /${step.pattern}/`;
    case 'expect_title':
      return `Expect the title to contain "${step.text}"`;
    case 'expect_no_console_errors':
      return 'Expect no console errors';
    case 'expect_no_failed_requests':
      return 'Expect no failed requests';
  }
}

/** Polls `read` until `ok` holds or the timeout passes; the last value read, for the message. */
async function poll<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = ACTION_TIMEOUT_MS): Promise<{ ok: boolean; value: T }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return { ok: true, value };
    if (performance.now() >= deadline) return { ok: false, value };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The DOM element as far as SUBMITS reads it (the engine is compiled without the DOM's types). */
interface PageElement {
  tagName: string;
  form?: unknown;
  closest(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
}

/**
 * Runs in the page: does acting on this element submit a form (a submit button, or Enter in a form's field)?
 * Kept free of nested named functions: Playwright sends its source text to the page.
 */
const SUBMITS = (el: PageElement | null, key: boolean): boolean => {
  if (!el) return false;
  if (key) return Boolean(el.form) && el.tagName !== 'TEXTAREA';
  const button = el.closest('button, input[type=submit], input[type=image]');
  if (!button || !button.form) return false;
  return button.tagName !== 'BUTTON' || (button.getAttribute('type') || 'submit').toLowerCase() === 'submit';
};

/** Also finds the element first: a missing one fails here, with the action's own timeout error. */
async function submitsForm(ctx: StepContext, target: Locator | undefined, key: boolean): Promise<boolean> {
  if (!target) return ctx.page.evaluate(`(${SUBMITS.toString()})(document.activeElement, true)`);
  return locate(ctx.page, target).evaluate(SUBMITS, key, { timeout: ACTION_TIMEOUT_MS });
}

function fillValue(step: Extract<Step, { type: 'fill' }>, credentials: Credentials | null): string {
  if (typeof step.value === 'string') return step.value;
  if (!credentials) throw new StepFailure(`This step types the project's test ${step.value.credential}, but the project has no test credentials`);
  return credentials[step.value.credential];
}

async function interact(step: Exclude<Step, { type: `expect_${string}` | 'goto' }>, ctx: StepContext): Promise<void> {
  const { page } = ctx;
  const url = () => page.url();
  switch (step.type) {
    case 'click': {
      const submit = await submitsForm(ctx, step.target, false);
      await locate(page, step.target).click({ timeout: ACTION_TIMEOUT_MS });
      ctx.collector.emit({ kind: 'button_click', url: url(), step: ctx.index, description: describeStep(step) });
      if (submit) ctx.collector.emit({ kind: 'form_submit', url: url(), step: ctx.index, description: describeStep(step) });
      return;
    }
    case 'fill':
      return locate(page, step.target).fill(fillValue(step, ctx.credentials), { timeout: ACTION_TIMEOUT_MS });
    case 'press': {
      const submit = step.key === 'Enter' && (await submitsForm(ctx, step.target, true));
      if (step.target) await locate(page, step.target).press(step.key, { timeout: ACTION_TIMEOUT_MS });
      else await page.keyboard.press(step.key);
      if (submit) ctx.collector.emit({ kind: 'form_submit', url: url(), step: ctx.index, description: describeStep(step) });
      return;
    }
    case 'select':
      await locate(page, step.target).selectOption(step.option, { timeout: ACTION_TIMEOUT_MS });
      return;
    case 'check':
      return locate(page, step.target).setChecked(step.checked, { timeout: ACTION_TIMEOUT_MS });
    case 'hover':
      return locate(page, step.target).hover({ timeout: ACTION_TIMEOUT_MS });
    case 'wait_for':
      return locate(page, step.target).waitFor({ state: step.state, timeout: step.timeout_ms ?? ACTION_TIMEOUT_MS });
  }
}

async function assertStep(step: Extract<Step, { type: `expect_${string}` }>, ctx: StepContext): Promise<void> {
  const { page, collector } = ctx;
  switch (step.type) {
    case 'expect_visible':
      return locate(page, step.target).waitFor({ state: 'visible', timeout: ACTION_TIMEOUT_MS });
    case 'expect_text': {
      const locator = locate(page, step.target);
      await locator.waitFor({ state: 'attached', timeout: ACTION_TIMEOUT_MS });
      const wanted = normalize(step.text);
      const result = await poll(
        async () => normalize((await locator.textContent({ timeout: ACTION_TIMEOUT_MS })) ?? ''),
        (text) => text.includes(wanted),
      );
      if (!result.ok) throw new StepFailure(`${describeTarget(step.target)} does not contain "${step.text}" (its text: "${result.value.slice(0, 120)}")`);
      return;
    }
    case 'expect_url': {
      const pattern = new RegExp(step.pattern);
      const result = await poll(
        async () => page.url(),
        (url) => pattern.test(url),
      );
      if (!result.ok) throw new StepFailure(`The URL ${result.value} does not match /${step.pattern}/`);
      return;
    }
    case 'expect_title': {
      const result = await poll(
        () => page.title(),
        (title) => title.includes(step.text),
      );
      if (!result.ok) throw new StepFailure(`The title "${result.value}" does not contain "${step.text}"`);
      return;
    }
    case 'expect_no_console_errors':
      await collector.settle();
      if (collector.consoleErrors.length) throw new StepFailure(`${collector.consoleErrors.length} console error(s), first: ${collector.consoleErrors[0]}`);
      return;
    case 'expect_no_failed_requests': {
      await collector.settle();
      const first = collector.failedRequests[0];
      if (first) throw new StepFailure(`${collector.failedRequests.length} failed request(s), first: ${first.method} ${first.url} (${first.failure})`);
      return;
    }
  }
}

/** Runs one step; throws on failure (a StepFailure when the message is already for the user). */
export async function runStep(step: Step, ctx: StepContext): Promise<void> {
  if (step.type === 'goto') {
    const target = new URL(step.url, ctx.website);
    if (target.origin !== ctx.website.origin) throw new StepFailure(`${step.url} is on another origin than the website (${ctx.website.origin}); scenarios stay on their website`);
    await ctx.page.goto(target.href, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
    return;
  }
  if (step.type.startsWith('expect_')) return assertStep(step as Extract<Step, { type: `expect_${string}` }>, ctx);
  return interact(step as Exclude<Step, { type: `expect_${string}` | 'goto' }>, ctx);
}

// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** A short message for the user from whatever a step threw: first line, no ANSI colours, no call log. */
export function humanError(step: Step, error: unknown): string {
  if (error instanceof StepFailure) return `${describeStep(step)}: ${error.message}`;
  const first = String((error as Error)?.message ?? error)
    .replace(ANSI_COLOUR, '')
    .split('\n')[0]!
    .trim();
  const target = 'target' in step && step.target ? describeTarget(step.target) : null;
  const strict = /strict mode violation: .{0,1000} resolved to (\d+) elements/.exec(first);
  if (strict && target) return `${describeStep(step)}: ${target} matches ${strict[1]} elements; the step needs exactly one`;
  if (/ERR_BLOCKED_BY_CLIENT/.test(first)) return `${describeStep(step)}: the scan address policy refused the address`;
  const timeout = /Timeout (\d+)ms exceeded/.exec(first);
  if (timeout) {
    const seconds = Number(timeout[1]) / 1000;
    if (step.type === 'goto') return `${describeStep(step)}: the page did not load within ${seconds} s`;
    if (target) return `${describeStep(step)}: ${target} was not found${step.type === 'wait_for' && step.state === 'hidden' ? ' hidden' : ''} within ${seconds} s`;
  }
  return `${describeStep(step)}: ${first.replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '').slice(0, 300)}`;
}
