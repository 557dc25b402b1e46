import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { StepResult } from '../../common/scenarios';
import { RunCollector } from './collector';
import { firstPage, openGuardedContext } from './context';
import { humanError, runStep } from './steps';
import { readZip, writeZip } from './zip';
import type { Credentials, ScenarioRunOptions, ScenarioRunResult } from './types';

const SCREENSHOT_TIMEOUT_MS = 5_000;
const CANCELLED = 'Cancelled';

/** Every form a secret can take in text the browser records: as typed, URL-encoded (form posts), JSON-escaped. */
export function secretForms(credentials: Credentials | null): string[] {
  if (!credentials) return [];
  const forms = new Set<string>();
  for (const value of [credentials.password, credentials.username]) {
    if (value.length < 3) continue; // too short to tell from ordinary text
    forms.add(value);
    forms.add(encodeURIComponent(value));
    forms.add(new URLSearchParams({ v: value }).toString().slice(2));
    forms.add(JSON.stringify(value).slice(1, -1));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

const MASK = '********';
export const redactText = (text: string, forms: string[]) => forms.reduce((out, form) => out.split(form).join(MASK), text);

function redactBuffer(data: Buffer, forms: string[]): Buffer {
  if (!forms.some((form) => data.includes(form))) return data;
  return Buffer.from(
    redactText(
      data.toString('latin1'),
      forms.map((form) => Buffer.from(form).toString('latin1')),
    ),
    'latin1',
  );
}

/** The trace as a zip, every recorded credential (action parameters, DOM snapshots, request bodies) masked. */
async function saveTrace(context: BrowserContext, forms: string[]): Promise<Buffer | null> {
  const dir = await mkdtemp(join(tmpdir(), 'vibeeval-trace-'));
  try {
    const path = join(dir, 'trace.zip');
    await context.tracing.stop({ path });
    const zip = await readFile(path);
    if (!forms.length) return zip;
    return writeZip(readZip(zip).map((entry) => ({ name: entry.name, data: redactBuffer(entry.data, forms) })));
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The page as it ends, password fields masked. Masking costs about twice the screenshot itself (Playwright overlays
 * the elements in the page first), so it is asked for only when the page has a password field.
 */
async function screenshotOf(page: Page): Promise<Buffer | null> {
  try {
    const passwords = page.locator('input[type=password]');
    const mask = (await passwords.count()) > 0 ? [passwords] : [];
    return await page.screenshot({ type: 'png', mask, timeout: SCREENSHOT_TIMEOUT_MS });
  } catch {
    return null;
  }
}

/** Rejects when the signal aborts: a step waiting on the page must not hold a cancelled run. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined); // its failure after a cancel is of no interest
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(CANCELLED));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Runs the steps in a fresh context; the first failing step stops the run, the later ones are skipped. */
export async function runScenario(options: ScenarioRunOptions): Promise<ScenarioRunResult> {
  const started = performance.now();
  const { signal } = options;
  const forms = secretForms(options.credentials);
  const redact = (text: string) => redactText(text, forms);
  const collector = new RunCollector(new URL(options.website).origin, redact, options.onEvent);
  const steps: StepResult[] = options.steps.map((_, index) => ({ index, status: 'skipped', duration_ms: 0, error: null }));
  const result = { failedStep: null as number | null, error: null as string | null, screenshot: null as Buffer | null, trace: null as Buffer | null };
  let context: BrowserContext | undefined;
  try {
    const opening = openGuardedContext(options, collector);
    // Cancelled while the context opens: it is closed as soon as it exists.
    opening.then(
      (opened) => signal?.aborted && void opened.close().catch(() => undefined),
      () => undefined,
    );
    context = await abortable(opening, signal);
    const page = await abortable(firstPage(context), signal);
    collector.watchPage(page);
    const website = new URL(options.website);
    for (const [index, step] of options.steps.entries()) {
      const stepStarted = performance.now();
      try {
        await abortable(runStep(step, { page, website, credentials: options.credentials, collector, index }), signal);
        steps[index] = { index, status: 'passed', duration_ms: Math.round(performance.now() - stepStarted), error: null };
      } catch (error) {
        const message = signal?.aborted ? CANCELLED : redact(humanError(step, error));
        steps[index] = { index, status: 'failed', duration_ms: Math.round(performance.now() - stepStarted), error: message };
        Object.assign(result, { failedStep: index, error: message });
        if (!signal?.aborted) collector.emit({ kind: 'error', url: redact(page.url()), description: message });
        break;
      }
    }
    if (!signal?.aborted) {
      result.screenshot = await screenshotOf(page);
      if (options.trace) result.trace = await saveTrace(context, forms);
    }
  } catch (error) {
    // The context could not be opened (browser gone, cancelled before the first step).
    result.error = signal?.aborted ? CANCELLED : redact(`The browser could not start the run: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  } finally {
    await context?.close().catch(() => undefined);
  }
  return {
    status: result.error === null ? 'passed' : 'failed',
    durationMs: Math.round(performance.now() - started),
    steps,
    failedStep: result.failedStep,
    error: result.error,
    screenshot: result.screenshot,
    trace: result.trace,
    consoleErrors: collector.consoleErrors,
    failedRequests: collector.failedRequests,
  };
}
