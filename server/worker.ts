import { ConfigError, loadConfig } from './config';
import { ContinuousBuilds } from './continuous/builds';
import { ContinuousService } from './continuous/service';
import { openDatabase } from './db';
import { EventService } from './events/service';
import type { Jobs } from './jobs/queue';
import { startProcessJobs } from './jobs/wiring';
import { keepRunningOnUnhandledRejection } from './last-resort';
import { startLiveBus } from './live/bus';
import { createMailer } from './mail/mailer';
import { Sealer } from './projects/sealed';
import { ProjectService } from './projects/service';
import { ReportLinks } from './reports/links';
import { scenarioBrowserPool } from './scenarios/run-job';
import { ScenarioService } from './scenarios/service';
import { createLogger } from './logging';
import { loadSecrets, shareInstallSecrets } from './secrets';
import { WebhookDeliverer } from './webhooks/delivery';
import { AccountNotifier } from './account/notifier';
import { PreferencesStore } from './account/preferences';
import { join } from 'node:path';

/**
 * `vibeeval worker`: runs scans and report jobs from the shared queue, for a team's standalone server on
 * PostgreSQL (start as many as the team needs). It serves no HTTP; progress reaches browsers through the
 * servers' live streams (LISTEN/NOTIFY).
 */
export async function runWorker(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : (error as Error).message);
    process.exitCode = 1;
    return;
  }
  if (!config.databaseUrl) {
    console.error("vibeeval worker needs DATABASE_URL: workers share the server's PostgreSQL database (the embedded one belongs to a single app).");
    process.exitCode = 1;
    return;
  }
  const concurrency = Math.max(1, config.scans.concurrency);
  const logger = createLogger({ level: config.logLevel });
  const ownSecrets = await loadSecrets(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    embeddedDir: join(config.dataDir, 'pg'),
    embeddedPassword: ownSecrets.pgPassword,
    log: (level, message) => logger[level](message),
  });
  // The servers' keys, from the shared database: links in mail and sealed project secrets match theirs.
  const secrets = await shareInstallSecrets(database.pool, ownSecrets);
  const live = await startLiveBus(database.url, database.pool, (level, message) => logger[level](message));
  const origin = () => config.publicUrl ?? `http://${config.host}:${config.port}`;
  const links = new ReportLinks(secrets.linkSecret, origin);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir });
  const events = new EventService(database.db, live);
  const scenarioBrowsers = scenarioBrowserPool(undefined, config.scans.addressPolicy);
  const sealer = new Sealer(secrets.linkSecret);
  // The deliverer queues retries through the job queue, which is started with the deliverer's attempt runner.
  const queue: { enqueue?: (id: string, delay: number) => Promise<void> } = {};
  const webhooks = new WebhookDeliverer({
    db: database.db,
    sealer,
    policy: config.scans.addressPolicy,
    logger,
    config: config.webhooks,
    origin,
    enqueueAttempt: (id, delay) => (queue.enqueue ? queue.enqueue(id, delay) : Promise.reject(new Error('the job queue is not running'))),
  });
  // Jobs announce their events through the account's preferences: webhooks only when on, a mail when on.
  const notices = new AccountNotifier({ db: database.db, preferences: new PreferencesStore(database.db), webhooks, mailer, links, logger });
  // Scheduled builds made here queue their re-scans here; builds waiting for a scan this worker finishes are judged here.
  const started: { jobs?: Jobs } = {};
  const notRunning = () => Promise.reject(new Error('the job queue is not running'));
  const continuous = new ContinuousService(database.db);
  const builds = new ContinuousBuilds({
    db: database.db,
    projects: new ProjectService(database.db, database.pool, sealer, config.scans.addressPolicy),
    scenarios: new ScenarioService(database.db, sealer, config.scans.addressPolicy),
    events,
    live,
    enqueueScan: (id) => started.jobs?.enqueueScan(id) ?? notRunning(),
    enqueueScenarioRun: (id) => started.jobs?.enqueueScenarioRun(id) ?? notRunning(),
    webhooks: notices,
    logger,
  });
  continuous.starter = builds;
  // A worker always works: at least one scan and one scenario run at a time; billing periods are the servers'.
  const jobs = await startProcessJobs(
    { config, database, logger, events, live, links, mailer, sealer, notices, builds, continuous, webhooks, scenarioBrowsers, origin },
    { scans: concurrency, scenarios: Math.max(1, config.scenarios.concurrency) },
  );
  started.jobs = jobs;
  queue.enqueue = (id, delay) => jobs.enqueueWebhookAttempt(id, delay);
  webhooks.start();
  // Once working, nothing unforeseen may take the worker down (a failed start still ends the process).
  keepRunningOnUnhandledRejection((message) => logger.error(message));
  console.log(`vibeeval worker is running ${concurrency} scan${concurrency === 1 ? '' : 's'} at a time`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`vibeeval worker is stopping (${signal}); scans in progress go back to the queue`);
    setTimeout(() => process.exit(1), 20_000).unref();
    void (async () => {
      await jobs.stop();
      await webhooks.stop();
      await notices.stop();
      await scenarioBrowsers.close();
      mailer.close();
      await live.close();
      await database.close();
      process.exit(0);
    })();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
