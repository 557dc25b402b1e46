import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Accounts of local mode (hosted mode keeps its users in Supabase). */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash'),
  /** When the address was proven the owner's: a confirmation or recovery link followed, or a provider vouched for it. */
  emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
  /** Set on an account made with an unproven address once a provider's verified identity for it arrived. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  userMetadata: jsonb('user_metadata')
    .$type<Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  providers: text('providers')
    .array()
    .notNull()
    .default(sql`ARRAY['email']::text[]`),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A signed-in device; access tokens carry its id and die with it. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  },
  (t) => [index('auth_sessions_user_id_idx').on(t.userId)],
);

/** Refresh tokens, stored as SHA-256 hashes; each is used once and replaced by its child. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    revoked: boolean('revoked').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_session_id_idx').on(t.sessionId)],
);

/** Single-use tokens sent by mail (recovery, confirmation, adoption) and PKCE auth codes, stored as hashes. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['recovery', 'signup', 'pkce_code', 'adopt'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** For 'adopt' (migration 0018): the account that receives the set-aside account `userId`'s records. */
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** For PKCE: the client's code challenge (S256 or plain) and what the code stands for. */
    codeChallenge: text('code_challenge'),
    codeChallengeMethod: text('code_challenge_method'),
    authenticationMethod: text('authentication_method'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('one_time_tokens_user_id_idx').on(t.userId)],
);

/** An account's identity at an external provider (Google): one account per (provider, subject). */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_identities_provider_subject_idx').on(t.provider, t.subject), index('user_identities_user_id_idx').on(t.userId)],
);

/**
 * A sign-in with a provider between the redirect to it and its return: looked up by the state's hash and deleted
 * as it is read, so each state works once. The verifier and nonce are ours, for the provider's side of the flow.
 */
export const oauthFlows = pgTable('oauth_flows', {
  id: uuid('id').primaryKey().defaultRandom(),
  provider: text('provider').notNull(),
  stateHash: text('state_hash').notNull().unique(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  /** Where the client asked to return (already checked). */
  redirectTo: text('redirect_to').notNull(),
  /** The client's own PKCE challenge: present = it gets a one-time code, absent = the session in the fragment. */
  codeChallenge: text('code_challenge'),
  codeChallengeMethod: text('code_challenge_method'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Counters of rate-limiter-flexible (sign-in and mail limits), shared by every server instance. */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

/** A site a workspace tests. `user_id` is the member who made it (local or hosted Supabase account); every query filters by `workspace_id`. */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    url: text('url').notNull(),
    status: text('status').notNull().default('active'),
    instructionText: text('instruction_text'),
    /** Test credentials, sealed with AES-256-GCM (server/projects/sealed.ts); never logged. */
    secretInstructionSealed: text('secret_instruction_sealed'),
    numPages: integer('num_pages').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastTest: timestamp('last_test', { withTimezone: true }),
    /** Public id of the project in the monitoring script's data-site attribute (not a secret: it sits in the site's HTML). */
    siteToken: text('site_token')
      .notNull()
      .unique()
      .default(sql`'vst_' || substr(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 1, 24)`),
    /**
     * Scheduled re-scans (migration 0010): off, daily, weekly or monthly (the first monitor_weekday of the month; a
     * text column, so no migration added it), at monitor_hour (and monitor_weekday, 0 = Sunday) in monitor_timezone.
     */
    monitorFrequency: text('monitor_frequency', { enum: ['off', 'daily', 'weekly', 'monthly'] })
      .notNull()
      .default('off'),
    monitorHour: smallint('monitor_hour').notNull().default(9),
    monitorWeekday: smallint('monitor_weekday').notNull().default(1),
    monitorTimezone: text('monitor_timezone').notNull().default('UTC'),
    /** When the schedule last made a build: at most one per scheduled hour, however many servers tick. */
    monitorLastAt: timestamp('monitor_last_at', { withTimezone: true }),
    /** Active mode (migration 0019): scans may send the few probes that act; on a shared server only on a verified domain. */
    activeMode: boolean('active_mode').notNull().default(false),
    /** When a member confirmed having permission to test the site (migration 0019); the desktop app asks while unset. */
    permissionConfirmedAt: timestamp('permission_confirmed_at', { withTimezone: true }),
  },
  // With the id: the keyset of the paginated list (server/pagination.ts), rows created in one instant included.
  (t) => [
    index('projects_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('projects_monitor_idx')
      .on(t.monitorFrequency)
      .where(sql`monitor_frequency <> 'off'`),
  ],
);

/** One run of the scanner over a project's site; `result` holds the engine's ScanResult. */
export const scans = pgTable(
  'scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    state: text('state', { enum: ['queued', 'running', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    url: text('url').notNull(),
    numPages: integer('num_pages').notNull(),
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    score: integer('score'),
    grade: text('grade'),
    headerGrade: text('header_grade'),
    counts: jsonb('counts').$type<Record<string, number>>(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Touched every few seconds while a worker runs the scan; a stale one means the worker died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** Check workers stopped or lost, and processes that died while check code ran (migration 0014); two fail the scan. */
    checkStrikes: integer('check_strikes').notNull().default(0),
    /** Set while check code runs (migration 0014): an orphaned scan with it set died in its checks. */
    checksStartedAt: timestamp('checks_started_at', { withTimezone: true }),
    /** Asked to run in active mode (migration 0019): the project's mode or the API's options.active; the job still gates it. */
    active: boolean('active').notNull().default(false),
    /** What started the scan (migration 0023): manual, schedule, site_change or api (common/scan-history.ts). */
    trigger: text('trigger', { enum: ['manual', 'schedule', 'site_change', 'api'] })
      .notNull()
      .default('manual'),
  },
  (t) => [
    index('scans_project_idx').on(t.projectId, t.queuedAt),
    // The public API's list of a workspace's scans, newest first (migration 0012).
    index('scans_workspace_queued_idx').on(t.workspaceId, t.queuedAt, t.id),
    // At most one queued or running scan per project: two Run Test presses cannot start two scans.
    uniqueIndex('scans_one_active_per_project')
      .on(t.projectId)
      .where(sql`state in ('queued', 'running')`),
  ],
);

/** What happened, as it happened: scan lifecycle, findings, the page loads and requests a scan made. */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    scanId: uuid('scan_id'),
    /** For the requests a scan made: the attempt that made them (a retry replaces an earlier attempt's). */
    scanAttempt: integer('scan_attempt'),
    eventName: text('event_name').notNull(),
    url: text('url').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    extra: jsonb('extra').$type<Record<string, unknown>>(),
  },
  (t) => [
    // With the id: the keyset of the paginated lists; a batch of a scan's requests shares one timestamp.
    index('events_workspace_time_idx').on(t.workspaceId, t.occurredAt, t.id),
    // The account's deletion deletes its maker's events by user_id (migration 0012 keeps this one).
    index('events_user_time_idx').on(t.userId, t.occurredAt, t.id),
    index('events_project_time_idx').on(t.projectId, t.occurredAt, t.id),
    index('events_scan_attempt_idx')
      .on(t.scanId, t.scanAttempt)
      .where(sql`scan_attempt is not null`),
  ],
);

/** A generated report (security from a scan; performance, accessibility, analytics measured for it). */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    // A project's reports go with it: they describe its site and hold its findings.
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    scanId: uuid('scan_id').references(() => scans.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['security', 'performance', 'accessibility', 'analytics'] }).notNull(),
    url: text('url').notNull(),
    state: text('state', { enum: ['queued', 'running', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    /** The audit result for performance, accessibility and analytics; security reads its scan's result. */
    content: jsonb('content').$type<Record<string, unknown>>(),
    totalIssues: integer('total_issues'),
    error: text('error'),
    /** Times a worker took the job (migration 0017): bounds how often a job whose worker keeps dying runs again. */
    attempts: integer('attempts').notNull().default(0),
    /** Set while running (migration 0017); a stale one means the worker died and the job is taken over. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('reports_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id)],
);

/**
 * Quick scans asked for from the public site (POST /v2/vibe-scanner): no account, the report goes to `email`.
 * The row keeps the result, so the report stays retrievable (signed link) when the mail cannot be delivered.
 */
export const publicScans = pgTable(
  'public_scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    email: text('email').notNull(),
    state: text('state', { enum: ['queued', 'running', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    grade: text('grade'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    mailState: text('mail_state', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    mailError: text('mail_error'),
    mailAttempts: integer('mail_attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** As on scans (migration 0014). */
    checkStrikes: integer('check_strikes').notNull().default(0),
    checksStartedAt: timestamp('checks_started_at', { withTimezone: true }),
  },
  (t) => [index('public_scans_pending_idx').on(t.state, t.createdAt), index('public_scans_mail_idx').on(t.mailState, t.createdAt)],
);

/** Binary data (PNG screenshots, trace zips): node-postgres reads and writes bytea as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** A browser test scenario: recorded steps replayed in headless Chromium, exported as a Playwright test. */
export const scenarios = pgTable(
  'scenarios',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    // A project's scenarios go with it: they test its site with its credentials.
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    website: text('website').notNull(),
    /** The validated steps (common/scenarios.ts stepSchema). */
    actions: jsonb('actions').$type<unknown[]>().notNull(),
    summarizedActions: text('summarized_actions'),
    scenarioCode: text('scenario_code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('scenarios_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id), index('scenarios_project_idx').on(t.projectId)],
);

/** One run of a scenario, claimed by a worker like a scan (heartbeat, attempts), with its evidence. */
export const scenarioRuns = pgTable(
  'scenario_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scenarioId: uuid('scenario_id')
      .notNull()
      .references(() => scenarios.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    /** The run's lifecycle, named as every leased job's (server/jobs/lease.ts); the API calls it `status`. */
    state: text('state', { enum: ['queued', 'running', 'passed', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    failedStep: integer('failed_step'),
    error: text('error'),
    steps: jsonb('steps')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    consoleErrors: jsonb('console_errors')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    failedRequests: jsonb('failed_requests')
      .$type<{ url: string; method: string; failure: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    screenshot: bytea('screenshot'),
    trace: bytea('trace'),
    /** The Run All that queued the run (migration 0021): its member gets one summary mail for the whole batch. */
    batchId: uuid('batch_id'),
    /** Set on the batch's first run when the batch's summary mail was claimed (once per batch). */
    batchMailedAt: timestamp('batch_mailed_at', { withTimezone: true }),
  },
  (t) => [
    index('scenario_runs_scenario_idx').on(t.scenarioId, t.createdAt),
    index('scenario_runs_workspace_idx').on(t.workspaceId),
    index('scenario_runs_batch_idx')
      .on(t.batchId)
      .where(sql`batch_id is not null`),
    // One run at a time per scenario: two Run presses (or Run and Run All) cannot start two.
    uniqueIndex('scenario_runs_one_active')
      .on(t.scenarioId)
      .where(sql`state in ('queued', 'running')`),
  ],
);

/**
 * A key for the public API (/v1) and the MCP endpoint: 'vb_live_' plus 26 letters and digits, kept only as its
 * SHA-256 (server/api-keys/keys.ts). Revoking deletes the row, so the key stops working at once.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    name: text('name').notNull(),
    /** Hex SHA-256 of the whole key. */
    keyHash: text('key_hash').notNull().unique(),
    /** The key's last four characters, to tell keys apart in the list ('vb_live_…a1B2'). */
    lastFour: text('last_four').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id)],
);

/** Requests made to the public API per workspace and UTC day, shared by every server instance (daily plan limits); `user_id` is the member whose request opened the day. */
export const apiUsage = pgTable(
  'api_usage',
  {
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    /** The UTC day, 'YYYY-MM-DD'. */
    day: text('day').notNull(),
    requests: integer('requests').notNull().default(0),
  },
  (t) => [uniqueIndex('api_usage_workspace_day_idx').on(t.workspaceId, t.day)],
);

/** Where a user's events are delivered, signed per Standard Webhooks with the endpoint's own secret. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    url: text('url').notNull(),
    /** The 'whsec_…' signing secret, sealed (server/projects/sealed.ts); shown once, when the webhook is created. */
    secretSealed: text('secret_sealed').notNull(),
    /** What a delivery's body is (migration 0021): 'standard' (signed Standard Webhooks JSON), 'slack', 'discord' or 'teams'. */
    format: text('format', { enum: ['standard', 'slack', 'discord', 'teams'] })
      .notNull()
      .default('standard'),
    createdAt: createdAt(),
  },
  (t) => [index('webhooks_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id)],
);

/** One event to deliver to one webhook; retried with backoff until it succeeds or its attempts run out. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    /** One of WEBHOOK_EVENT_TYPES (common/webhooks.ts). */
    eventType: text('event_type').notNull(),
    /** The webhook-id header: the same on every attempt, so receivers can drop duplicates. */
    messageId: text('message_id').notNull().unique(),
    /** The exact JSON body sent (bounded by the emitter). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_webhook_created_idx').on(t.webhookId, t.createdAt, t.id),
    index('webhook_deliveries_pending_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_workspace_idx').on(t.workspaceId),
  ],
);

/** One try of a delivery: what the receiver answered (status, time, an excerpt of its body) or why it failed. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    /** Why no status came back (timeout, refused address, connection error). */
    error: text('error'),
    /** The first bytes of the answer's body, as text. */
    responseExcerpt: text('response_excerpt'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

/** One report of the monitoring script whose content hash differed from the project's newest build. */
export const continuousBuilds = pgTable(
  'continuous_builds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    buildHash: text('build_hash').notNull(),
    /** success, warning, error or other; 'other' until the re-scan that judges the build has finished. */
    status: text('status').notNull().default('other'),
    url: text('url').notNull(),
    createdAt: createdAt(),
    /** What made the build (migration 0010): the monitoring script's report or the project's schedule. */
    trigger: text('trigger', { enum: ['script', 'schedule'] })
      .notNull()
      .default('script'),
    /** The re-scan that judges the build; null until queued, or when that scan was deleted. */
    scanId: uuid('scan_id').references(() => scans.id, { onDelete: 'set null' }),
    /** What the re-scan found compared with the scan before it (common/continuous.ts buildChangesSchema). */
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('continuous_builds_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('continuous_builds_project_created_idx').on(t.projectId, t.createdAt),
    index('continuous_builds_scan_idx').on(t.scanId),
  ],
);

/** Monitoring reports received per workspace and calendar month (UTC): the usage meter of the continuous testing screen. */
export const continuousUsage = pgTable(
  'continuous_usage',
  {
    userId: uuid('user_id').notNull(),
    /** The workspace the record belongs to (migration 0012); every query is scoped by it. `user_id` is the member who made it. */
    workspaceId: uuid('workspace_id').notNull(),
    month: date('month').notNull(),
    reports: integer('reports').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'continuous_usage_pkey', columns: [t.workspaceId, t.month] })],
);

/** Prices of the plans (migration 0011): the local provider's own; with Stripe, a copy of its prices. */
export const billingPlans = pgTable('billing_plans', {
  priceId: text('price_id').primaryKey(),
  productId: text('product_id').notNull(),
  productName: text('product_name').notNull(),
  productDescription: text('product_description'),
  unitAmount: integer('unit_amount').notNull(),
  currency: text('currency').notNull(),
  /** 'month' or 'year'; null for a one-time (lifetime) price. */
  interval: text('interval'),
  provider: text('provider', { enum: ['local', 'stripe'] }).notNull(),
  active: boolean('active').notNull().default(true),
  position: smallint('position').notNull().default(0),
});

/** Subscriptions of a user; only status 'active' counts as current (common/billing.ts). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    /** 'sub_local_…' for the local provider, Stripe's id otherwise. */
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    provider: text('provider', { enum: ['local', 'stripe'] }).notNull(),
    status: text('status').notNull(),
    priceId: text('price_id').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A downgrade that takes effect when the period ends. */
    pendingPriceId: text('pending_price_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId, t.createdAt),
    index('subscriptions_period_end_idx')
      .on(t.currentPeriodEnd)
      .where(sql`status = 'active'`),
  ],
);

/** The payment provider's customer of a user (Stripe: one customer per user). */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    userId: uuid('user_id').notNull(),
    provider: text('provider', { enum: ['local', 'stripe'] }).notNull(),
    customerId: text('customer_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'billing_customers_pkey', columns: [t.userId, t.provider] }), uniqueIndex('billing_customers_customer_idx').on(t.provider, t.customerId)],
);

/** Notification preferences (absent row: the defaults, email on and webhooks off). */
export const userPreferences = pgTable('user_preferences', {
  userId: uuid('user_id').primaryKey(),
  emailNotifications: boolean('email_notifications').notNull().default(true),
  webhookNotifications: boolean('webhook_notifications').notNull().default(false),
  /** The workspace last chosen (PUT /workspaces/last); null: the personal one (migration 0025). */
  lastWorkspaceId: uuid('last_workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A workspace: projects and everything under them belong to one, and its members share them (migration 0012). */
export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The member who owns it; its plan is the owner's plan. */
    ownerId: uuid('owner_id').notNull(),
    /** Every user's own workspace, made with the account; its id is the user's id. Cannot be left or shared. */
    personal: boolean('personal').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workspaces_owner_idx').on(t.ownerId)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** The member's sign-in address as last seen (hosted accounts live in Supabase, so it is kept here). */
    email: text('email').notNull().default(''),
    role: text('role', { enum: ['owner', 'member'] }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'workspace_members_pkey', columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId, t.joinedAt),
    uniqueIndex('workspace_members_one_owner_idx')
      .on(t.workspaceId)
      .where(sql`role = 'owner'`),
  ],
);

/** An invitation mailed to an address: signed, expiring, single use; only the SHA-256 of its secret is kept. */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invitedBy: uuid('invited_by').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: uuid('accepted_by'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('workspace_invitations_workspace_idx').on(t.workspaceId, t.createdAt, t.id)],
);

/** A domain a workspace proves it controls (migration 0019, server/domains/); verified covers its subdomains. */
export const verifiedDomains = pgTable(
  'verified_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull(),
    /** The member who added it. */
    userId: uuid('user_id').notNull(),
    /** Lower-case host name without a trailing dot. */
    domain: text('domain').notNull(),
    /** The value to serve (not a secret: it is published by the proof itself). */
    token: text('token').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /** Why the last verification failed, as shown to the workspace. */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('verified_domains_workspace_domain_idx').on(t.workspaceId, t.domain), index('verified_domains_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id)],
);

/** A member's decision about one finding of a project, by fingerprint (server/triage/, migration 0020). */
export const findingDecisions = pgTable(
  'finding_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    /** false_positive or accepted_risk (common/triage.ts). */
    decision: text('decision').notNull(),
    reason: text('reason').notNull(),
    /** Accepted risk only: when the decision stops applying. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The member who decided (the latest one, when a decision is changed). */
    decidedBy: uuid('decided_by').notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('finding_decisions_project_fingerprint_idx').on(t.projectId, t.fingerprint),
    index('finding_decisions_project_decided_idx').on(t.projectId, t.decidedAt, t.id),
  ],
);

/**
 * A 'Check again' on one finding of a project (migration 0025): the finding as its scan found it, leased by the job
 * queue while it runs (server/jobs/lease.ts), and the answer. At most one queued or running per finding.
 */
export const findingRechecks = pgTable(
  'finding_rechecks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The workspace the record belongs to; every query is scoped by it. `user_id` is the member who asked. */
    workspaceId: uuid('workspace_id').notNull(),
    userId: uuid('user_id').notNull(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The completed scan the finding was found in. */
    scanId: uuid('scan_id'),
    fingerprint: text('fingerprint').notNull(),
    checkId: text('check_id').notNull(),
    title: text('title').notNull(),
    url: text('url').notNull(),
    /** The scan was active: so is the check again, where the domain still allows it. */
    active: boolean('active').notNull().default(false),
    state: text('state', { enum: ['queued', 'running', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** The answer once completed: fixed, still_there or unknown (common/rechecks.ts). */
    status: text('status', { enum: ['fixed', 'still_there', 'unknown'] }),
    reason: text('reason'),
    durationMs: integer('duration_ms'),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('finding_rechecks_one_active')
      .on(t.projectId, t.fingerprint)
      .where(sql`state in ('queued', 'running')`),
    index('finding_rechecks_project_created_idx').on(t.projectId, t.createdAt, t.id),
  ],
);
