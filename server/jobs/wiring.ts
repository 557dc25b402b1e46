import type { Logger } from 'pino';
import type { AccountNotifier } from '../account/notifier';
import type { Config } from '../config';
import type { ContinuousBuilds } from '../continuous/builds';
import { runMonitorTick } from '../continuous/schedule';
import type { ContinuousService } from '../continuous/service';
import type { Database } from '../db';
import type { EventService } from '../events/service';
import type { LiveBus } from '../live/bus';
import type { Mailer } from '../mail/mailer';
import type { Sealer } from '../projects/sealed';
import { runPublicScanJob } from '../public-scans/job';
import { runRecheckJob } from '../rechecks/job';
import { publicReportLink } from '../public-scans/routes';
import type { ReportLinks } from '../reports/links';
import { runScenarioJob, type ScenarioBrowserPool } from '../scenarios/run-job';
import type { WebhookDeliverer } from '../webhooks/delivery';
import { startJobs, type Jobs } from './queue';
import { runReportJob } from './report-job';
import { runScanJob } from './scan-job';

/** What the jobs of a process use, made once by the process (`vibeeval serve` or `vibeeval worker`). */
export interface JobParts {
  config: Config;
  database: Database;
  logger: Logger;
  events: EventService;
  live: LiveBus;
  links: ReportLinks;
  mailer: Mailer;
  sealer: Sealer;
  /** Announces the jobs' events through the account's preferences: webhooks only when on, a mail when on. */
  notices: AccountNotifier;
  /** Builds waiting for a scan this process finishes are judged here; scheduled builds queue their re-scans here. */
  builds: ContinuousBuilds;
  continuous: ContinuousService;
  webhooks: WebhookDeliverer;
  scenarioBrowsers: ScenarioBrowserPool;
  /** Where users reach the server: links in mail. */
  origin: () => string;
}

/** Checks again a process that runs scans runs at once. */
const RECHECKS_AT_ONCE = 2;

/** How much of the work this process takes on. */
export interface JobShare {
  /** Scans at once; 0 = this process runs no scans, reports, public scans, checks again or schedules (it only queues them). */
  scans: number;
  /** Scenario runs at once; 0 = none. */
  scenarios: number;
  /** Ends the billing periods that are over; absent = not in this process. */
  billingRollover?: () => Promise<unknown>;
}

/**
 * Starts the job queue of a process with a worker for each queue it takes on (server/jobs/queue.ts QUEUES): the one
 * wiring of the server and of `vibeeval worker`, which differ only in their share.
 */
export function startProcessJobs(parts: JobParts, share: JobShare): Promise<Jobs> {
  const { config, database, logger, events, live, links, mailer, sealer, notices, builds, continuous } = parts;
  const { db } = database;
  const policy = config.scans.addressPolicy;
  const scanning = share.scans > 0;
  const scanDeps = {
    db,
    events,
    live,
    logger,
    links,
    policy,
    rateLimit: config.scans.rateLimit,
    render: config.scans.render,
    checkBudget: config.scans.checkBudget,
    webhooks: notices,
    sealer,
    onScanFinished: (id: string) => builds.judgeScan(id),
  };
  const publicScanDeps = {
    db,
    mailer,
    logger,
    policy,
    rateLimit: config.scans.rateLimit,
    render: config.scans.render,
    checkBudget: config.scans.checkBudget,
    maxPages: config.publicScans.maxPages,
    reportLink: (id: string) => publicReportLink(links.signer, parts.origin(), id),
  };
  const recheckDeps = { db, events, logger, policy, sealer, rateLimit: config.scans.rateLimit, render: config.scans.render };
  const scenarioDeps = { db, live, logger, sealer, policy, rateLimit: config.scenarios.rateLimit, browser: () => parts.scenarioBrowsers.get(), webhooks: notices };
  return startJobs({
    database,
    logger,
    workers: {
      scan: { concurrency: share.scans, run: (id, context) => runScanJob(id, scanDeps, context) },
      report: { concurrency: scanning ? 1 : 0, run: (id, { signal }) => runReportJob(id, { db, events, live, links, logger, policy, webhooks: notices }, signal) },
      'public-scan': { concurrency: scanning ? 1 : 0, run: (id, context) => runPublicScanJob(id, publicScanDeps, context) },
      // A check again is one page and its check's probes, mostly waiting on the site: a few at once beside the scans.
      recheck: { concurrency: scanning ? RECHECKS_AT_ONCE : 0, run: (id, context) => runRecheckJob(id, recheckDeps, context) },
      'scenario-run': { concurrency: share.scenarios, run: (id, context) => runScenarioJob(id, scenarioDeps, context) },
      // Attempts are short (bounded by the delivery timeout) and mostly waiting on the network: a few at once.
      'webhook-delivery': { concurrency: 4, run: (id) => parts.webhooks.attempt(id) },
    },
    runMonitorTick: scanning ? () => runMonitorTick({ db, continuous, logger, builds }) : undefined,
    runBillingRollover: scanning ? share.billingRollover : undefined,
  });
}
