import type { FindingDraft, ProbeRequest, Site, SiteBeforeProbes } from '../types';

/** What a check worker is started with (workerData). */
export interface CheckWorkerData {
  /** A module exporting `checks` (tests and benchmarks); absent = the registry. */
  checksModule?: string;
}

/** One pass of check code over the site: planning the probes, the follow-ups, or running the checks. */
export type CheckTask =
  { kind: 'probes'; checkIds: string[]; site: SiteBeforeProbes } | { kind: 'followUps'; checkIds: string[]; site: Site } | { kind: 'run'; checkIds: string[]; site: Site };

/** What running one check gave: not applicable, or its drafts. */
export type RunOutcome = { applies: false } | { applies: true; drafts: FindingDraft[] };

/** Messages from the worker: a check starts, a check is done (or threw), the task is over. */
export type WorkerMessage =
  | { type: 'start'; checkId: string }
  | { type: 'done'; checkId: string; ok: true; value: ProbeRequest[] | RunOutcome }
  | { type: 'done'; checkId: string; ok: false; error: string }
  | { type: 'end' };
