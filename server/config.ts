import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { API_PLANS } from '../common/api-keys';
import { TIERS } from '../common/billing';
import { DEFAULT_CHECK_BUDGET } from '../engine/isolation/budget';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(
      z
        .string()
        .refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), {
          message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
        })
        .optional(),
    );

const port = z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'must be between 0 and 65535').max(65535, 'must be between 0 and 65535');

const positiveInt = (fallback: number) => z.coerce.number({ message: 'must be a number' }).int().positive().default(fallback);

const envSchema = z.object({
  PORT: port.default(8787),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** Public origin for links in mail; defaults to http://HOST:PORT. */
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  VIBEEVAL_DATA_DIR: z.string().trim().optional(),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().trim().default('vibeeval <no-reply@vibeeval.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Lifetime of access tokens in seconds (Supabase's default is 3600; ours is shorter). */
  JWT_EXPIRY: positiveInt(900),
  /** Extra origins allowed to call the API from a browser (comma separated), e.g. app://vibeeval. */
  VIBEEVAL_CORS_ORIGINS: z.string().default(''),
  /** Directory of the built renderer; defaults to out/renderer beside the server bundle. */
  VIBEEVAL_RENDERER_DIR: z.string().optional(),
  /** How long answers of list routes may be kept in memory between changes of the user's records; 0 = never kept. */
  VIBEEVAL_LIST_CACHE_TTL_MS: z.coerce.number({ message: 'must be a number' }).int().min(0).max(60_000).default(2_000),
  SIGNIN_MAX_PER_EMAIL: positiveInt(5),
  SIGNIN_MAX_PER_IP: positiveInt(20),
  SIGNIN_WINDOW_SECONDS: positiveInt(900),
  /** Sign-ups per client address and per address signed up for, in the window (each sends a mail). */
  SIGNUP_MAX_PER_IP: positiveInt(30),
  SIGNUP_MAX_PER_EMAIL: positiveInt(3),
  SIGNUP_WINDOW_SECONDS: positiveInt(3600),
  /**
   * Shared servers: sign-up mails a link that confirms the address, and password sign-in waits for it ("Email not
   * confirmed"). Off: the account signs in at once and its address stays unproven until a mailed link is followed.
   */
  VIBEEVAL_AUTH_CONFIRM_EMAIL: z.enum(['true', 'false', '1', '0']).default('false'),
  /**
   * How long a checked session is trusted before the database is asked again, in ms. A session ended on another
   * instance (team mode) is refused at once through the database's notifications, or after this at the latest.
   */
  VIBEEVAL_SESSION_RECHECK_MS: z.coerce.number({ message: 'must be a number' }).int().min(0).max(300_000).default(2_000),
  /**
   * Creations (projects, scans, reports, live tickets) one user may make per counter in the window: far above
   * what anyone does by hand, far below a script's flood.
   */
  CREATE_MAX_PER_WINDOW: positiveInt(60),
  CREATE_WINDOW_SECONDS: positiveInt(60),
  /** Scans this process runs at once; 0 = none (team mode, where `vibeeval worker` processes run them). */
  VIBEEVAL_SCAN_CONCURRENCY: z.coerce.number({ message: 'must be a number' }).int().min(0).max(32).default(2),
  /** May scans reach private and loopback addresses? Default: yes when the server listens on loopback only (a workstation). */
  VIBEEVAL_SCAN_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).optional(),
  /** Hosts or CIDR ranges scans may reach even when private addresses are refused (comma separated). */
  VIBEEVAL_SCAN_ALLOWLIST: z.string().default(''),
  /** Ceiling of requests per second per scanned host; unset = adaptive pacing only, 0 = no limit. */
  VIBEEVAL_SCAN_RATE: z.coerce.number({ message: 'must be a number' }).min(0).max(1000).optional(),
  /** CPU time one check may take on a scanned site, in ms (default: the engine's DEFAULT_CHECK_BUDGET). */
  VIBEEVAL_CHECK_BUDGET_MS: z.coerce.number({ message: 'must be a number' }).int().min(50).max(600_000).optional(),
  /** CPU time all checks of one scan may take together, in ms (default: the engine's DEFAULT_CHECK_BUDGET). */
  VIBEEVAL_SCAN_CHECKS_BUDGET_MS: z.coerce.number({ message: 'must be a number' }).int().min(50).max(3_600_000).optional(),
  /** Render pages in headless Chromium during scans when a browser is found. */
  VIBEEVAL_SCAN_RENDER: z.enum(['true', 'false', '1', '0']).default('true'),
  /** How long a webhook delivery waits for the receiver's answer, in ms. */
  VIBEEVAL_WEBHOOK_TIMEOUT_MS: z.coerce.number({ message: 'must be a number' }).int().min(100).max(60_000).default(10_000),
  /** Seconds before each retry of a failed webhook delivery (comma separated); attempts = 1 + their number. */
  VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5,30,120,600,1800,7200')
    .refine((v) => v.trim() === '' || v.split(',').every((s) => /^\s*\d{1,6}\s*$/.test(s)), 'must be whole seconds separated by commas')
    .transform((v) => (v.trim() === '' ? [] : v.split(',').map((s) => Number(s.trim()))))
    .refine((v) => v.length <= 20, 'at most 20 retries'),
  /** Scenario runs this process runs at once; 0 = none (the process only queues them). */
  VIBEEVAL_SCENARIO_CONCURRENCY: z.coerce.number({ message: 'must be a number' }).int().min(0).max(32).default(2),
  /** An OpenAI-compatible chat completions endpoint that proposes scenario steps; unset = proposals from the site alone. */
  VIBEEVAL_LLM_BASE_URL: optionalUrl(['http:', 'https:']),
  VIBEEVAL_LLM_API_KEY: z.string().trim().optional(),
  VIBEEVAL_LLM_MODEL: z.string().trim().optional(),
  /** Public-site quick scans (POST /v2/vibe-scanner) allowed per client IP and per email address in the window. */
  PUBLIC_SCAN_MAX_PER_IP: positiveInt(10),
  PUBLIC_SCAN_MAX_PER_EMAIL: positiveInt(5),
  PUBLIC_SCAN_WINDOW_SECONDS: positiveInt(3600),
  /** Pages a public quick scan crawls. */
  PUBLIC_SCAN_PAGES: positiveInt(5),
  /** The live browser's framing check (web mode): requests per client IP per window. */
  FRAMING_CHECK_MAX_PER_IP: positiveInt(30),
  FRAMING_CHECK_WINDOW_SECONDS: positiveInt(60),
  /**
   * Behind a reverse proxy: the proxies whose X-Forwarded-For the server believes, as a number of hops (`1` = the
   * proxy in front) or their addresses/CIDR ranges, comma separated. Unset: none, the peer is the client (every
   * per-IP limit would otherwise count the proxy's address for everyone).
   */
  VIBEEVAL_TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(\d{1,2}|[0-9a-fA-F.:/]+(,\s*[0-9a-fA-F.:/]+)*)?$/, 'must be a number of hops or addresses/CIDR ranges, comma separated')
    .default(''),
  /**
   * The public API's plan of accounts without an active subscription (unset: their tier's, none for Basic).
   * With a subscription the plan follows its tier (common/plan-limits.ts).
   */
  VIBEEVAL_API_PLAN: z.preprocess((value) => (value === '' ? undefined : value), z.enum(API_PLANS).optional()),
  /** Wrong API keys one client address may present in the window before its key checks are answered 429. */
  API_KEY_FAILURES_MAX_PER_IP: positiveInt(30),
  API_KEY_FAILURES_WINDOW_SECONDS: positiveInt(60),
  /** The tier whose limits apply to accounts without an active subscription. */
  VIBEEVAL_UNSUBSCRIBED_TIER: z.enum(TIERS).default('basic'),
  /** Who bills: 'local' (plans in the database, no payment collected) or 'stripe' (needs STRIPE_SECRET_KEY). */
  VIBEEVAL_BILLING: z.enum(['local', 'stripe']).default('local'),
  STRIPE_SECRET_KEY: z.string().trim().optional(),
  /** The signing secret (whsec_…) of the endpoint POST /stripe/webhook. */
  STRIPE_WEBHOOK_SECRET: z.string().trim().optional(),
  /** Another Stripe API origin (a local stand-in in tests); Stripe's own by default. */
  STRIPE_API_URL: optionalUrl(['http:', 'https:']),
  SUPABASE_URL: optionalUrl(['http:', 'https:']),
  SUPABASE_ANON_KEY: z.string().trim().optional(),
  SUPABASE_JWT_SECRET: z.string().trim().optional(),
  SUPABASE_JWKS_URL: optionalUrl(['http:', 'https:']),
  /** Sign-in with Google in local mode: the OAuth client registered at Google (both or neither). */
  GOOGLE_CLIENT_ID: z.string().trim().optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().optional(),
  /** The OpenID Connect issuer; another provider or a local stand-in in tests. */
  GOOGLE_ISSUER_URL: optionalUrl(['http:', 'https:']),
});

export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Fastify's trustProxy from VIBEEVAL_TRUST_PROXY: false, a hop count, or the trusted addresses. */
function trustProxyOf(value: string): false | number | string[] {
  if (value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((address) => address.trim());
}

function toConfig(env: z.infer<typeof envSchema>) {
  const dataDir = resolve(env.VIBEEVAL_DATA_DIR || join(homedir(), '.vibeeval'));
  const hosted = env.SUPABASE_URL
    ? {
        url: env.SUPABASE_URL.replace(/(?<!\/)\/+$/, ''),
        anonKey: env.SUPABASE_ANON_KEY ?? '',
        jwtSecret: env.SUPABASE_JWT_SECRET,
        jwksUrl: env.SUPABASE_JWKS_URL ?? `${env.SUPABASE_URL.replace(/(?<!\/)\/+$/, '')}/auth/v1/.well-known/jwks.json`,
      }
    : undefined;
  return {
    port: env.PORT,
    host: env.HOST,
    trustProxy: trustProxyOf(env.VIBEEVAL_TRUST_PROXY),
    publicUrl: env.PUBLIC_URL?.replace(/(?<!\/)\/+$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    logLevel: env.LOG_LEVEL,
    jwtExpirySeconds: env.JWT_EXPIRY,
    corsOrigins: env.VIBEEVAL_CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    rendererDir: env.VIBEEVAL_RENDERER_DIR,
    listCacheTtlMs: env.VIBEEVAL_LIST_CACHE_TTL_MS,
    signinLimits: {
      perEmail: env.SIGNIN_MAX_PER_EMAIL,
      perIp: env.SIGNIN_MAX_PER_IP,
      windowSeconds: env.SIGNIN_WINDOW_SECONDS,
      signUp: { perEmail: env.SIGNUP_MAX_PER_EMAIL, perIp: env.SIGNUP_MAX_PER_IP, windowSeconds: env.SIGNUP_WINDOW_SECONDS },
    },
    auth: {
      confirmEmail: env.VIBEEVAL_AUTH_CONFIRM_EMAIL === 'true' || env.VIBEEVAL_AUTH_CONFIRM_EMAIL === '1',
      sessionRecheckMs: env.VIBEEVAL_SESSION_RECHECK_MS,
    },
    creationLimits: { points: env.CREATE_MAX_PER_WINDOW, windowSeconds: env.CREATE_WINDOW_SECONDS },
    hosted,
    scans: {
      concurrency: env.VIBEEVAL_SCAN_CONCURRENCY,
      addressPolicy: {
        allowPrivate:
          env.VIBEEVAL_SCAN_ALLOW_PRIVATE !== undefined
            ? env.VIBEEVAL_SCAN_ALLOW_PRIVATE === 'true' || env.VIBEEVAL_SCAN_ALLOW_PRIVATE === '1'
            : ['127.0.0.1', 'localhost', '::1'].includes(env.HOST),
        allowList: env.VIBEEVAL_SCAN_ALLOWLIST.split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      },
      rateLimit: env.VIBEEVAL_SCAN_RATE,
      render: env.VIBEEVAL_SCAN_RENDER === 'true' || env.VIBEEVAL_SCAN_RENDER === '1',
      checkBudget: {
        perCheckMs: env.VIBEEVAL_CHECK_BUDGET_MS ?? DEFAULT_CHECK_BUDGET.perCheckMs,
        perScanMs: env.VIBEEVAL_SCAN_CHECKS_BUDGET_MS ?? DEFAULT_CHECK_BUDGET.perScanMs,
      },
    },
    webhooks: { timeoutMs: env.VIBEEVAL_WEBHOOK_TIMEOUT_MS, retrySchedule: env.VIBEEVAL_WEBHOOK_RETRY_SCHEDULE },
    scenarios: {
      concurrency: env.VIBEEVAL_SCENARIO_CONCURRENCY,
      /** Scenario runs keep a flat rate to the website: 10 per second unless VIBEEVAL_SCAN_RATE says otherwise. */
      rateLimit: env.VIBEEVAL_SCAN_RATE ?? 10,
      llm:
        env.VIBEEVAL_LLM_BASE_URL && env.VIBEEVAL_LLM_MODEL
          ? { baseUrl: env.VIBEEVAL_LLM_BASE_URL, apiKey: env.VIBEEVAL_LLM_API_KEY || null, model: env.VIBEEVAL_LLM_MODEL }
          : null,
    },
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            issuerUrl: env.GOOGLE_ISSUER_URL ?? 'https://accounts.google.com',
          }
        : null,
    publicScans: {
      perIp: env.PUBLIC_SCAN_MAX_PER_IP,
      perEmail: env.PUBLIC_SCAN_MAX_PER_EMAIL,
      windowSeconds: env.PUBLIC_SCAN_WINDOW_SECONDS,
      maxPages: Math.min(env.PUBLIC_SCAN_PAGES, 50),
    },
    api: {
      plan: env.VIBEEVAL_API_PLAN ?? null,
      keyFailures: { perClient: env.API_KEY_FAILURES_MAX_PER_IP, windowSeconds: env.API_KEY_FAILURES_WINDOW_SECONDS },
    },
    billing: {
      provider: env.VIBEEVAL_BILLING,
      unsubscribedTier: env.VIBEEVAL_UNSUBSCRIBED_TIER,
      stripe:
        env.VIBEEVAL_BILLING === 'stripe' ? { secretKey: env.STRIPE_SECRET_KEY ?? '', webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null, apiUrl: env.STRIPE_API_URL ?? null } : null,
    },
    framingChecks: { perIp: env.FRAMING_CHECK_MAX_PER_IP, windowSeconds: env.FRAMING_CHECK_WINDOW_SECONDS },
  };
}

/** Reads and validates the configuration; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = toConfig(result.data);
  // A guessed model name would fail on most providers: the model is named with the endpoint.
  if (result.data.VIBEEVAL_LLM_BASE_URL && !result.data.VIBEEVAL_LLM_MODEL) {
    throw new ConfigError('Invalid configuration:\n  VIBEEVAL_LLM_MODEL: required when VIBEEVAL_LLM_BASE_URL is set');
  }
  if (Boolean(result.data.GOOGLE_CLIENT_ID) !== Boolean(result.data.GOOGLE_CLIENT_SECRET)) {
    const missing = result.data.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID';
    throw new ConfigError(`Invalid configuration:\n  ${missing}: required when the other of GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET is set`);
  }
  if (config.billing.stripe && !config.billing.stripe.secretKey) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_SECRET_KEY: required when VIBEEVAL_BILLING is stripe');
  }
  if (config.hosted && !config.hosted.anonKey) {
    throw new ConfigError('Invalid configuration:\n  SUPABASE_ANON_KEY: required when SUPABASE_URL is set');
  }
  return config;
}
