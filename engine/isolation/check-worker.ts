// The check worker: runs check code (probe planning and run) over a site sent by the scan, one check at a time,
// telling the scan when each starts and ends so that it can stop one that takes too long. It never answers HTTP.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { CHECKS } from '../checks/index';
import type { CheckDefinition } from '../types';
import type { CheckTask, CheckWorkerData, RunOutcome, WorkerMessage } from './protocol';

const data = (workerData ?? {}) as CheckWorkerData;

async function loadChecks(): Promise<ReadonlyMap<string, CheckDefinition>> {
  let checks: readonly CheckDefinition[] = CHECKS;
  if (data.checksModule) {
    const loaded = (await import(pathToFileURL(data.checksModule).href)) as { checks?: readonly CheckDefinition[] };
    if (!loaded.checks) throw new Error(`${data.checksModule} exports no checks`);
    checks = loaded.checks;
  }
  return new Map(checks.map((check) => [check.id, check]));
}

function runOne(check: CheckDefinition, task: CheckTask): WorkerMessage & { type: 'done' } {
  try {
    if (task.kind === 'probes') return { type: 'done', checkId: check.id, ok: true, value: check.probes?.(task.site) ?? [] };
    if (task.kind === 'followUps') return { type: 'done', checkId: check.id, ok: true, value: check.followUpProbes?.(task.site) ?? [] };
    const outcome: RunOutcome = check.appliesTo && !check.appliesTo(task.site) ? { applies: false } : { applies: true, drafts: check.run(task.site) };
    return { type: 'done', checkId: check.id, ok: true, value: outcome };
  } catch (error) {
    return { type: 'done', checkId: check.id, ok: false, error: (error as Error).message };
  }
}

const port = parentPort;
if (port) {
  const checks = loadChecks();
  port.on('message', (task: CheckTask) => {
    void checks.then(
      (byId) => {
        for (const checkId of task.checkIds) {
          const check = byId.get(checkId);
          port.postMessage({ type: 'start', checkId } satisfies WorkerMessage);
          port.postMessage(check ? runOne(check, task) : ({ type: 'done', checkId, ok: false, error: 'no such check' } satisfies WorkerMessage));
        }
        port.postMessage({ type: 'end' } satisfies WorkerMessage);
      },
      (error: Error) => {
        // Without its checks the worker is of no use: the scan sees it exit and reports every check skipped.
        throw error;
      },
    );
  });
}
