import { Worker } from 'node:worker_threads';
import { checkById } from '../checks/index';
import type { CheckDefinition, ProbeRequest, Site, SiteBeforeProbes } from '../types';
import type { CheckTask, CheckWorkerData, RunOutcome, WorkerMessage } from './protocol';
import { DEFAULT_CHECK_BUDGET, type CheckBudget } from './budget';
import { checkWorkerScript, loadable } from './worker-script';

export { DEFAULT_CHECK_BUDGET, type CheckBudget };

/** A check that was stopped, or never run, and why. */
export interface SkippedCheck {
  checkId: string;
  reason: string;
}

export type CheckAnswer<T> = { ok: true; value: T } | { ok: false; error: string };

export interface CheckIsolationOptions {
  checks: readonly CheckDefinition[];
  /** A module exporting `checks`, for checks that are not in the registry (tests); absent = the registry. */
  checksModule?: string;
  budget?: Partial<CheckBudget>;
  /** Awaited before check code starts running (true) and after it stopped (false), around each pass over the checks. */
  checking?: (active: boolean) => Promise<void>;
  /** Called each time a worker is terminated or dies while a check runs. */
  onWorkerLost?: (skipped: SkippedCheck) => void;
}

type PassEnd = { ended: true } | { ended: false; checkId?: string; reason: string };

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;

/**
 * Runs check code (probe planning, follow-ups, run) in a worker thread, never on the caller's thread. Each check's
 * time is measured from the parent, between the worker's start and done messages (the check is one synchronous call,
 * so this is its CPU time on an idle core, and never less); past the budget the worker is terminated, the check is
 * recorded as skipped, and a fresh worker goes on with the remaining checks.
 */
export class CheckIsolation {
  readonly skipped = new Map<string, string>();
  /** Workers terminated or lost while a check ran. */
  workersLost = 0;
  private readonly budget: CheckBudget;
  private readonly ids: string[];
  private worker?: Worker;
  private spentMs = 0;

  constructor(private readonly options: CheckIsolationOptions) {
    this.budget = { ...DEFAULT_CHECK_BUDGET, ...options.budget };
    this.ids = options.checks.map((check) => check.id);
    if (!options.checksModule) {
      // Production runs registered checks only: the worker finds them by id, so an object given here must be the registry's.
      const stranger = options.checks.find((check) => checkById(check.id) !== check);
      if (stranger) throw new Error(`The check '${stranger.id}' is not in the registry; give its module (checksModule) to run it.`);
    }
  }

  /** Each check's first-round probes. */
  probes(site: SiteBeforeProbes): Promise<Map<string, CheckAnswer<ProbeRequest[]>>> {
    return this.task({ kind: 'probes', checkIds: [], site }) as Promise<Map<string, CheckAnswer<ProbeRequest[]>>>;
  }

  /** Each check's second-round probes. */
  followUps(site: Site): Promise<Map<string, CheckAnswer<ProbeRequest[]>>> {
    return this.task({ kind: 'followUps', checkIds: [], site }) as Promise<Map<string, CheckAnswer<ProbeRequest[]>>>;
  }

  /** Each check's outcome; `onDone` is called as each one ends (progress). */
  run(site: Site, onDone?: (checkId: string) => void): Promise<Map<string, CheckAnswer<RunOutcome>>> {
    return this.task({ kind: 'run', checkIds: [], site }, onDone) as Promise<Map<string, CheckAnswer<RunOutcome>>>;
  }

  /** The skipped checks, in registry order. */
  skippedChecks(): SkippedCheck[] {
    return this.ids.filter((id) => this.skipped.has(id)).map((checkId) => ({ checkId, reason: this.skipped.get(checkId)! }));
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private async task(task: CheckTask, onDone?: (checkId: string) => void): Promise<Map<string, CheckAnswer<unknown>>> {
    const results = new Map<string, CheckAnswer<unknown>>();
    const pending = () => this.ids.filter((id) => !this.skipped.has(id) && !results.has(id));
    if (!pending().length) return results;
    await this.options.checking?.(true);
    try {
      await this.passes(task, results, pending, onDone);
    } finally {
      await this.options.checking?.(false);
    }
    return results;
  }

  private async passes(task: CheckTask, results: Map<string, CheckAnswer<unknown>>, pending: () => string[], onDone?: (checkId: string) => void): Promise<void> {
    for (let remaining = pending(); remaining.length; remaining = pending()) {
      if (this.spentMs >= this.budget.perScanMs) {
        for (const id of remaining) this.skip(id, `not run: the scan's checks used their ${seconds(this.budget.perScanMs)} of CPU time`, onDone);
        break;
      }
      const end = await this.pass(await this.ensureWorker(), { ...task, checkIds: remaining }, results, onDone);
      if (end.ended) break;
      this.workersLost++;
      // A worker that died before any check started (its checks would not load) takes every remaining check with it.
      for (const id of end.checkId ? [end.checkId] : remaining) {
        this.skip(id, end.reason, onDone);
        this.options.onWorkerLost?.({ checkId: id, reason: end.reason });
      }
    }
  }

  private skip(checkId: string, reason: string, onDone?: (checkId: string) => void): void {
    this.skipped.set(checkId, reason);
    onDone?.(checkId);
  }

  private async ensureWorker(): Promise<Worker> {
    if (this.worker) return this.worker;
    const workerData: CheckWorkerData = { checksModule: this.options.checksModule && (await loadable(this.options.checksModule)) };
    this.worker = new Worker(await checkWorkerScript(), { workerData, resourceLimits: { maxOldGenerationSizeMb: this.budget.heapMb } });
    return this.worker;
  }

  /** Sends one task and follows it until the worker says it is over, or is stopped or lost on a check. */
  private pass(worker: Worker, task: CheckTask, results: Map<string, CheckAnswer<unknown>>, onDone?: (checkId: string) => void): Promise<PassEnd> {
    return new Promise<PassEnd>((resolve) => {
      let current: string | undefined;
      let startedAt = 0;
      let timer: NodeJS.Timeout | undefined;
      const finish = (end: PassEnd) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (!end.ended) {
          if (current) this.spentMs += performance.now() - startedAt;
          this.worker = undefined;
          void worker.terminate();
        }
        resolve(end);
      };
      const onTimeout = (limitMs: number, perCheck: boolean) => () => {
        finish({
          ended: false,
          checkId: current,
          reason: perCheck ? `stopped after ${seconds(limitMs)} of CPU time` : `stopped: the scan's checks used their ${seconds(this.budget.perScanMs)} of CPU time`,
        });
        // A timer may fire a little before its time by this clock: the scan's budget is spent all the same.
        if (!perCheck) this.spentMs = Math.max(this.spentMs, this.budget.perScanMs);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.type === 'start') {
          current = message.checkId;
          startedAt = performance.now();
          const left = this.budget.perScanMs - this.spentMs;
          const limit = Math.max(0, Math.min(this.budget.perCheckMs, left));
          timer = setTimeout(onTimeout(limit, this.budget.perCheckMs <= left), limit);
        } else if (message.type === 'done') {
          clearTimeout(timer);
          this.spentMs += performance.now() - startedAt;
          current = undefined;
          results.set(message.checkId, message.ok ? { ok: true, value: message.value } : { ok: false, error: message.error });
          onDone?.(message.checkId);
        } else {
          finish({ ended: true });
        }
      };
      const onError = (error: Error) => finish({ ended: false, checkId: current, reason: `its worker stopped: ${error.message}` });
      const onExit = (code: number) => finish({ ended: false, checkId: current, reason: `its worker exited (code ${code})` });
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(task);
    });
  }
}
