import type { Logger } from 'pino';
import { RECHECK_TEXTS, RECHECK_TIMEOUT_MS, type RecheckResponse } from '../../common/rechecks';
import type { Finding } from '../../common/scan';
import { fingerprintSchema } from '../../common/triage';
import type { AddressPolicy } from '../../engine/retrieval/address-policy';
import { recheckFinding } from '../../engine/recheck';
import type { Db } from '../db';
import { activeModeRefusal } from '../domains/gate';
import { verifiedDomainsOf } from '../domains/service';
import type { EventService } from '../events/service';
import { HttpError } from '../http-errors';
import { projectAccounts } from '../jobs/scan-job';
import { latestCompletedResult } from '../triage/service';
import type { ProjectService } from '../projects/service';
import type { Sealer } from '../projects/sealed';
import { actorOf, type ActorLike } from '../workspaces/actor';

export interface RecheckDeps {
  db: Db;
  projects: Pick<ProjectService, 'row'>;
  events: Pick<EventService, 'record'>;
  logger: Logger;
  policy: AddressPolicy;
  sealer?: Sealer;
  rateLimit?: number;
  render: boolean;
  /** Checks again running at once in this process, beyond which a request is refused (429). */
  concurrency?: number;
  /** The engine's recheckFinding(); replaced in tests. */
  recheck?: typeof recheckFinding;
}

const NO_THROWAWAY = 'No throwaway account is created by a check again: the scan that found the finding made one.';

/**
 * 'Check again': re-runs one finding's check of a project's latest completed scan against the site, with the
 * project's test accounts and its scan's mode, and records the answer in the project's activity. One at a time per
 * project; a few at a time per process.
 */
export class RecheckService {
  readonly #running = new Set<string>();

  constructor(private readonly deps: RecheckDeps) {}

  async recheck(who: ActorLike, projectId: string, fingerprint: string): Promise<RecheckResponse> {
    const project = await this.deps.projects.row(who, projectId);
    const key = fingerprintSchema.safeParse(fingerprint);
    if (!key.success) throw new HttpError(404, RECHECK_TEXTS.findingNotFound);
    const latest = await this.latestResult(project.id);
    const finding = latest.findings.find((f) => f.fingerprint === key.data) ?? latest.suppressed?.find((f) => f.fingerprint === key.data);
    if (!finding) throw new HttpError(404, RECHECK_TEXTS.findingNotFound);
    if (this.#running.has(project.id)) throw new HttpError(409, RECHECK_TEXTS.busy);
    if (this.#running.size >= (this.deps.concurrency ?? 2)) throw new HttpError(429, RECHECK_TEXTS.tooMany);
    this.#running.add(project.id);
    try {
      const outcome = await this.run(project, finding, latest.options.active);
      const { userId, workspaceId } = actorOf(who);
      await this.deps.events.record([
        {
          userId,
          workspaceId,
          projectId: project.id,
          kind: 'other',
          url: finding.url,
          extra: { description: RECHECK_TEXTS.event(finding.title, outcome.status), fingerprint: finding.fingerprint, recheck: outcome.status, ...(outcome.reason ? { reason: outcome.reason } : {}) },
        },
      ]);
      return { fingerprint: finding.fingerprint, status: outcome.status, reason: outcome.reason ?? null, checked_at: outcome.checkedAt, duration_ms: outcome.durationMs };
    } finally {
      this.#running.delete(project.id);
    }
  }

  private async latestResult(projectId: string) {
    const latest = await latestCompletedResult(this.deps.db, projectId);
    if (!latest) throw new HttpError(409, RECHECK_TEXTS.noScan);
    return latest.result;
  }

  private async run(project: { id: string; url: string; workspaceId: string }, finding: Finding, wasActive: boolean) {
    const { db, policy, logger } = this.deps;
    const log = logger.child({ project: project.id });
    const accounts = await projectAccounts(db, this.deps.sealer, project.id, log);
    // Active again only where a scan may be active now (the domain may have lost its proof since).
    const active = wasActive && (await activeModeRefusal(policy, project.url, () => verifiedDomainsOf(db, project.workspaceId))) === null;
    const signal = AbortSignal.timeout(RECHECK_TIMEOUT_MS);
    try {
      return await (this.deps.recheck ?? recheckFinding)(
        project.url,
        finding,
        { render: this.deps.render, rateLimit: this.deps.rateLimit, active },
        { addressPolicy: policy, signal, noThrowaway: NO_THROWAWAY, ...(accounts.length ? { accounts } : {}) },
      );
    } catch (error) {
      if (signal.aborted) throw new HttpError(504, RECHECK_TEXTS.timedOut);
      throw error;
    }
  }
}
