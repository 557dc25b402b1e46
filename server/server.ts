import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { buildApp } from './app';
import { AccountNotifier } from './account/notifier';
import { PreferencesStore } from './account/preferences';
import { accountRoutes } from './account/routes';
import { continuousPublicRoutes, continuousRoutes } from './continuous/routes';
import { domainRoutes } from './domains/routes';
import { DomainService } from './domains/service';
import { systemTxtResolver, type VerifierOptions } from './domains/verify';
import { monitorScriptRoutes } from './continuous/script-route';
import { MonitoringService } from './continuous/monitoring';
import { ContinuousBuilds } from './continuous/builds';
import { ContinuousService } from './continuous/service';
import { ListCache } from './changes/list-cache';
import { loadConfig, type Config } from './config';
import { openDatabase } from './db';
import { EventService } from './events/service';
import type { Jobs } from './jobs/queue';
import { renderStoredAudit } from './jobs/report-job';
import { startProcessJobs } from './jobs/wiring';
import { SessionEnds } from './auth/session-ends';
import { startLiveBus, type LiveBus } from './live/bus';
import { liveStreamRoutes, liveTicketRoutes } from './live/routes';
import { createMailer } from './mail/mailer';
import { projectRoutes } from './projects/routes';
import { Sealer } from './projects/sealed';
import { ProjectService } from './projects/service';
import { liveBrowserRoutes } from './live-browser/routes';
import { publicScanRoutes } from './public-scans/routes';
import { PublicScanService } from './public-scans/service';
import { ReportLinks } from './reports/links';
import { publicReportRoutes, reportRoutes } from './reports/routes';
import { createAccessLogger, createLogger, standardOutput } from './logging';
import { openScenarioBrowser } from '../engine/scenarios';
import { scenarioBrowserPool } from './scenarios/run-job';
import { scenarioRoutes } from './scenarios/routes';
import { ScenarioService } from './scenarios/service';
import { loadSecrets, shareInstallSecrets } from './secrets';
import { ApiKeyAuth } from './api-keys/auth';
import { apiKeyRoutes } from './api-keys/routes';
import { ApiKeyService } from './api-keys/service';
import { publicApiRoutes } from './public-api/routes';
import { PublicApiService } from './public-api/service';
import { PlanGate } from './billing/plan-gate';
import { billingRoutes, planRoutes, stripeWebhookRoutes } from './billing/routes';
import type { BillingService } from './billing/service';
import { createBilling } from './billing/setup';
import { planLimitsRoutes } from './billing/limits-route';
import { UsageMeter } from './public-api/usage';
import { CreationLimits } from './creation-limits';
import { mcpRoutes } from './mcp/route';
import { WebhookDeliverer } from './webhooks/delivery';
import { webhookRoutes } from './webhooks/routes';
import { WebhookService } from './webhooks/service';
import { WorkspaceAccess } from './workspaces/access';
import { Invitations } from './workspaces/invitations';
import { workspaceRoutes } from './workspaces/routes';
import { suppressionsOf, TriageService } from './triage/service';
import { triagePublicRoutes, triageRoutes } from './triage/routes';
import { RecheckService } from './rechecks/service';
import { recheckRoutes } from './rechecks/routes';
import { ScanHistoryService } from './scan-history/service';
import { scanHistoryPublicRoutes, scanHistoryRoutes } from './scan-history/routes';
import { WorkspaceService } from './workspaces/service';

export interface RunningServer {
  /** Where users reach it: PUBLIC_URL when set, else the address it listens on. */
  origin: string;
  /** The address it listens on (with PORT=0, the port the system gave it). */
  listening: string;
  config: Config;
  /** Stops accepting requests, lets those in flight finish, then stops the database. */
  close(): Promise<void>;
}

/** Starts the whole backend: secrets, database (embedded or DATABASE_URL), mail, HTTP. */
export async function startServer(
  env: NodeJS.ProcessEnv = process.env,
  {
    logDestination,
    domainVerifier,
  }: { logDestination?: DestinationStream; /** Tests: a stand-in DNS resolver and where domains' sites answer. */ domainVerifier?: Omit<VerifierOptions, 'policy'> } = {},
): Promise<RunningServer> {
  const config = loadConfig(env);
  const destination = logDestination ?? standardOutput();
  const logger = createLogger({ level: config.logLevel, destination });
  const ownSecrets = await loadSecrets(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    embeddedDir: join(config.dataDir, 'pg'),
    embeddedPassword: ownSecrets.pgPassword,
    log: (level, message) => logger[level](message),
  });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir });
  let live: LiveBus | undefined;
  let jobs: Jobs | undefined;
  let apiKeyAuth: ApiKeyAuth | undefined;
  let usage: UsageMeter | undefined;
  let deliverer: WebhookDeliverer | undefined;
  let notifier: AccountNotifier | undefined;
  let billing: BillingService | undefined;
  // One browser for the scenario runs of this process, opened by the first run.
  const scenarioBrowsers = scenarioBrowserPool(undefined, config.scans.addressPolicy);
  const shutdown = async () => {
    await jobs?.stop();
    await deliverer?.stop();
    await notifier?.stop();
    await scenarioBrowsers.close();
    await apiKeyAuth?.close();
    await usage?.close();
    await live?.close();
    mailer.close();
    await database.close();
  };
  let built;
  try {
    // Team mode: every instance signs and seals with the install's keys kept in the shared database.
    const secrets = config.databaseUrl ? await shareInstallSecrets(database.pool, ownSecrets) : ownSecrets;
    const bus = await startLiveBus(database.url, database.pool, (level, message) => logger[level](message));
    live = bus;
    // Links in reports and mail need the origin, known once the server listens.
    let origin = () => config.publicUrl ?? `http://${config.host}:${config.port}`;
    const links = new ReportLinks(secrets.linkSecret, () => origin());
    const sealer = new Sealer(secrets.linkSecret);
    // Which workspace each request acts in; membership changes call its forget().
    const workspaceAccess = new WorkspaceAccess(database.pool);
    // Sessions ended by any process on the database: kept session answers are dropped, live streams close.
    const sessionEnds = new SessionEnds();
    bus.watchSessionEnds((end) => sessionEnds.emit(end));
    // Every plan limit (projects, scenarios, API, report formats, schedules) is decided by the account's plan.
    const planGate = new PlanGate(database.pool, { unsubscribedTier: config.billing.unsubscribedTier, unsubscribedApiPlan: config.api.plan });
    const projects = new ProjectService(database.db, database.pool, sealer, config.scans.addressPolicy, planGate);
    const events = new EventService(database.db, live);
    const lists = new ListCache({ ttlMs: config.listCacheTtlMs });
    bus.watchChanges(
      (workspaceId) => lists.invalidate(workspaceId),
      (listening) => lists.setListening(listening),
    );
    const webhooks = new WebhookDeliverer({
      db: database.db,
      sealer,
      policy: config.scans.addressPolicy,
      logger,
      config: config.webhooks,
      origin: () => origin(),
      enqueueAttempt: (id, delay) => (jobs ? jobs.enqueueWebhookAttempt(id, delay) : Promise.reject(new Error('the job queue is not running'))),
    });
    deliverer = webhooks;
    // Jobs announce their events through the account's preferences: webhooks only when on, a mail when on.
    const preferences = new PreferencesStore(database.db);
    const notices = (notifier = new AccountNotifier({ db: database.db, preferences, webhooks, mailer, links, logger }));
    const scenarioService = new ScenarioService(database.db, sealer, config.scans.addressPolicy, planGate);
    const continuous = new ContinuousService(database.db);
    // A new build (reported or scheduled) queues its re-scan and scenario runs; it is judged when that scan ends.
    const builds = new ContinuousBuilds({
      db: database.db,
      projects,
      scenarios: scenarioService,
      events,
      live: bus,
      enqueueScan: (id) => (jobs ? jobs.enqueueScan(id) : Promise.reject(new Error('the job queue is not running'))),
      enqueueScenarioRun: (id) => (jobs ? jobs.enqueueScenarioRun(id) : Promise.reject(new Error('the job queue is not running'))),
      webhooks: notices,
      logger,
    });
    continuous.starter = builds;
    jobs = await startProcessJobs(
      { config, database, logger, events, live: bus, links, mailer, sealer, notices, builds, continuous, webhooks, scenarioBrowsers, origin: () => origin() },
      { scans: config.scans.concurrency, scenarios: config.scenarios.concurrency, billingRollover: async () => billing?.rollover() },
    );
    webhooks.start();
    const started = jobs;
    const keyAuth = (apiKeyAuth = new ApiKeyAuth(database.pool, database.url, { membership: workspaceAccess, failures: config.api.keyFailures }));
    await keyAuth.start();
    // Plan changes are notified like scans: through the notifier, which obeys the user's webhook preference.
    const billingService = (billing = createBilling({ config: config.billing, db: database.db, planGate, events, webhooks: notices, logger }));
    const meter = (usage = new UsageMeter(database.pool, async (workspaceId) => (await planGate.planOf(workspaceId)).apiPlan));
    const apiAccess = (workspaceId: string) => planGate.assertApiAccess(workspaceId);
    const monitoring = new MonitoringService(database.db);
    const domains = new DomainService(database.db, { policy: config.scans.addressPolicy, resolver: systemTxtResolver(), ...domainVerifier });
    const triage = new TriageService(database.db, projects);
    const rechecks = new RecheckService({ db: database.db, projects, logger, enqueue: (id) => started.enqueueRecheck(id) });
    const scanHistory = new ScanHistoryService({ db: database.db, pool: database.pool, projects, suppressions: (projectId) => suppressionsOf(database.db, projectId) });
    const reportDeps = { db: database.db, projects, jobs, live, links, renderAudit: renderStoredAudit, plan: planGate };
    const forgetMember = (userId: string) => workspaceAccess.forget(userId);
    const forgetAccount = (userId: string) => {
      planGate.forget(userId);
      workspaceAccess.forget(userId);
      // Here at once; the other instances hear of each of its sessions from the database.
      sessionEnds.emit({ userId });
    };
    const workspaceService = new WorkspaceService({ pool: database.pool, plans: planGate, forgetMember, revokeApiKey: (hash) => keyAuth.revoked(hash) });
    const invitations = new Invitations({ pool: database.pool, plans: planGate, mailer, workspaces: workspaceService, origin: () => origin(), forgetMember });
    built = await buildApp({
      config,
      database,
      secrets,
      mailer,
      logger,
      accessLog: createAccessLogger({ level: config.logLevel, destination }),
      lists,
      workspaceAccess,
      sessionEnds,
      apiRoutes: [
        projectRoutes({ projects, events, jobs, live, lists, suppressions: (projectId) => suppressionsOf(database.db, projectId) }),
        reportRoutes(reportDeps),
        liveTicketRoutes(links.signer),
        apiKeyRoutes({ keys: new ApiKeyService(database.pool), auth: keyAuth, usage: meter, apiAccess }),
        scenarioRoutes({
          scenarios: scenarioService,
          live,
          enqueueRun: (id) => started.enqueueScenarioRun(id),
          policy: config.scans.addressPolicy,
          rateLimit: config.scenarios.rateLimit,
          llm: config.scenarios.llm,
          openBrowser: () => openScenarioBrowser({ policy: config.scans.addressPolicy }),
        }),
        continuousRoutes(continuous, monitoring, planGate),
        planLimitsRoutes(planGate, database.db),
        billingRoutes(billingService),
        webhookRoutes({
          webhooks: new WebhookService(database.db, sealer, config.scans.addressPolicy),
          policy: config.scans.addressPolicy,
          timeoutMs: config.webhooks.timeoutMs,
          origin: () => origin(),
          onSaved: async (workspaceId) => preferences.patch(await notices.ownerIdOf(workspaceId), { webhook_notifications: true }),
        }),
        workspaceRoutes({ workspaces: workspaceService, invitations }),
        domainRoutes(domains),
        triageRoutes(triage),
        recheckRoutes(rechecks),
        scanHistoryRoutes(scanHistory),
        accountRoutes({
          pool: database.pool,
          preferences,
          revokeApiKey: (hash) => keyAuth.revoked(hash),
          forgetUser: forgetAccount,
          settleUser: (userId) => meter.forget(userId),
          closeBilling: async (userId) => void (await billingService.closeAccount(userId)),
        }),
      ],
      publicRoutes: [
        publicReportRoutes(reportDeps, config.corsOrigins),
        liveStreamRoutes(links.signer, live, workspaceAccess, {
          alive: async (userId, sessionId) => (await database.pool.query('select 1 from auth_sessions where id = $1 and user_id = $2', [sessionId, userId])).rowCount === 1,
          ends: sessionEnds,
        }),
        publicScanRoutes({
          service: new PublicScanService(database.db, database.pool, config.publicScans),
          signer: links.signer,
          policy: config.scans.addressPolicy,
          enqueue: (id) => started.enqueuePublicScan(id),
        }),
        publicApiRoutes({
          service: new PublicApiService({ pool: database.pool, projects, events, jobs, live, lists, policy: config.scans.addressPolicy }),
          auth: keyAuth,
          usage: meter,
          apiAccess,
          lists,
          pool: database.pool,
          creationLimits: config.creationLimits,
          origin: () => origin(),
          routes: [triagePublicRoutes(triage), scanHistoryPublicRoutes(scanHistory)],
        }),
        liveBrowserRoutes({ pool: database.pool, limits: config.framingChecks, policy: config.scans.addressPolicy, origin: () => origin() }),
        continuousPublicRoutes({ service: continuous, monitoring, pool: database.pool }),
        monitorScriptRoutes(),
        planRoutes(billingService),
        stripeWebhookRoutes(billingService),
        mcpRoutes({
          db: database.db,
          projects,
          jobs: started,
          events,
          live: bus,
          limits: new CreationLimits(database.pool, config.creationLimits),
          logger,
          auth: keyAuth,
          usage: meter,
          apiAccess,
          triage,
        }),
      ],
    });
    origin = built.origin;
    built.app.addHook('onClose', shutdown);
    await built.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if (built) await built.app.close();
    else await shutdown();
    throw error;
  }
  const { app, origin, listening } = built;
  return { origin: origin(), listening: listening(), config, close: () => app.close() };
}
