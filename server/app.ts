import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import helmet from 'helmet';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NEXT_CURSOR_HEADER } from '../common/pagination';
import { WORKSPACE_HEADER } from '../common/workspaces';
import { PRERENDERED_PAGES, prerenderedPageFile } from '../common/prerender';
import { createBearerVerifier, requireUser } from './auth/guard';
import { openIdProvider } from './auth/google-provider';
import { ProviderSignIn } from './auth/provider-sign-in';
import { AuthRateLimits } from './auth/rate-limit';
import { authRoutes } from './auth/routes';
import { AuthService } from './auth/service';
import type { SessionEnds } from './auth/session-ends';
import { AccessTokens } from './auth/tokens';
import type { ListCache } from './changes/list-cache';
import type { Config } from './config';
import { trackConnections } from './connections';
import { CreationLimits, enforceCreationLimits } from './creation-limits';
import { databaseGate } from './database-gate';
import { clientErrorHandler, detailErrorHandler, frameworkErrorHandler } from './http-errors';
import { installInputGuards } from './http-input';
import type { Database } from './db';
import { accessLine, requestLoggerFactory } from './logging';
import type { Mailer } from './mail/mailer';
import type { Secrets } from './secrets';
import { requireWorkspace, WorkspaceAccess } from './workspaces/access';
import { VERSION } from './version';

export interface AppDeps {
  config: Config;
  database: Database;
  secrets: Secrets;
  mailer: Mailer;
  logger: FastifyBaseLogger;
  /** One line per answered request (server/logging.ts); the main logger when absent. */
  accessLog?: Pick<FastifyBaseLogger, 'info'>;
  /** Kept answers of list routes: a write through this instance drops its workspace's before the answer. */
  lists?: ListCache;
  /** Which workspace each product API request acts in (made here when absent). */
  workspaceAccess?: WorkspaceAccess;
  /** The news of ended sessions, shared with the live streams and the account's deletion (made here when absent). */
  sessionEnds?: SessionEnds;
  /** Product API routes, registered behind the bearer-token guard. */
  apiRoutes?: ((scope: FastifyInstance) => Promise<void> | void)[];
  /** Routes that authorize themselves (signed report links, the live stream's ticket). */
  publicRoutes?: ((scope: FastifyInstance) => Promise<void> | void)[];
}

/** The built renderer: the first `out/renderer` above this file (bundle in out/main/chunks, or the sources). */
function rendererDir(configured?: string): string | undefined {
  if (configured) return configured;
  const candidates: string[] = [];
  for (let dir = dirname(fileURLToPath(import.meta.url)), i = 0; i < 5; dir = dirname(dir), i++) {
    candidates.push(join(dir, 'out', 'renderer'), join(dir, 'renderer'));
  }
  return candidates.find((dir) => existsSync(join(dir, 'index.html')) && existsSync(join(dir, 'assets')));
}

/** Paths the API owns; anything else that is a GET for a page gets the renderer's index.html. */
const API_PREFIXES = ['/auth/', '/health', '/app-config', '/reports/', '/report-preview', '/live', '/v1/', '/v2/', '/mcp'];

/** Believes the nearest `hops` proxies (Fastify's types leave out the hop count its runtime takes). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp({ config, database, secrets, mailer, logger, accessLog = logger, lists, workspaceAccess, sessionEnds, apiRoutes = [], publicRoutes = [] }: AppDeps) {
  const app = Fastify({
    loggerInstance: logger,
    // One line per request, written when it is answered (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: 1024 * 1024,
    // Behind a reverse proxy (VIBEEVAL_TRUST_PROXY), request.ip is the client's, so per-IP limits count clients.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Keep-alive connections are closed when idle at shutdown; requests in flight run to the end.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Errors met before a route is chosen answer like every other error (http-errors.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Before any route: one JSON parser and the NUL and depth limits for every route; {detail} for every error.
  installInputGuards(app);
  app.setErrorHandler(detailErrorHandler);

  // While closing, answers carry `Connection: close`, so a keep-alive connection whose request was in
  // flight at shutdown ends with its response instead of holding the close until its idle timeout.
  // Connections without a request in flight are ended as the close begins (connections.ts says why Node's own
  // list is not enough).
  let closing = false;
  const connections = trackConnections(app.server);
  app.addHook('preClose', async () => {
    closing = true;
    connections.closeUnused();
  });
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done();
  });

  // Streams that stay open (live updates) or are taken over by their route log no completion: at debug level
  // every request is also logged when it arrives.
  // The hooks that every request runs through take `done` rather than returning a promise: no promise and no
  // extra turn of the microtask queue per hook.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.log.level === 'debug' || request.log.level === 'trace') request.log.debug({ req: request }, 'incoming request');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    accessLog.info(accessLine(request, reply.statusCode, reply.elapsedTime), 'request completed');
    done();
  });

  let listeningOrigin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') {
      const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
      listeningOrigin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    }
  });
  const origin = () => config.publicUrl ?? listeningOrigin;
  const listening = () => listeningOrigin;

  const connectSources = ["'self'", ...(config.hosted ? [config.hosted.url] : [])];
  // The security headers of every answer, set when the request arrives. The middleware is made once: per request it
  // only sets the headers its options produced.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Chakra (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: connectSources,
        // The Live Browser Demo (/vibe-loop, web mode) shows the site under test in an iframe. Not scoped to that
        // page: the app navigates client-side, so the CSP of whichever page was loaded first stays in force.
        // The frame itself is sandboxed (no top navigation, no popups) and another origin than ours.
        frameSrc: ["'self'", 'http:', 'https:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // Sign-in with a provider returns through a redirect; a strict referrer policy keeps tokens out of it.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)));
  await app.register(cors, {
    origin: config.corsOrigins,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'apikey', 'content-type', 'x-client-info', 'x-supabase-api-version', WORKSPACE_HEADER],
    maxAge: 600,
    // An OPTIONS request that is not a CORS preflight gets an empty answer rather than a bare-text 400.
    strictPreflight: false,
    // Lists carry their next page's cursor in headers (server/pagination.ts).
    exposedHeaders: [NEXT_CURSOR_HEADER, 'link', 'retry-after', 'ratelimit', 'ratelimit-policy', 'location'],
  });

  databaseGate(app, database);
  app.get(
    '/health',
    {
      schema: {
        response: {
          200: z.object({ status: z.literal('ok'), version: z.string(), database: z.object({ kind: z.string(), state: z.enum(['up', 'down']) }) }),
          503: z.object({ status: z.literal('degraded'), version: z.string(), database: z.object({ kind: z.string(), state: z.enum(['up', 'down']) }), detail: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      // While the supervisor brings the database back, its state decides (the same as the API's 503s).
      const availability = database.availability();
      const up = availability.state === 'up' && (await database.ping());
      const database_ = { kind: database.kind, state: up ? ('up' as const) : ('down' as const) };
      if (up) return { status: 'ok' as const, version: VERSION, database: database_ };
      const detail = availability.state === 'down' ? availability.detail : 'The database does not answer; checking whether it is still there.';
      return reply.code(503).send({ status: 'degraded' as const, version: VERSION, database: database_, detail });
    },
  );

  // The renderer reads this before creating its supabase-js client: our own auth, or a hosted project's.
  app.get('/app-config', async () => ({
    supabaseUrl: config.hosted?.url ?? origin(),
    supabaseAnonKey: config.hosted?.anonKey ?? 'local',
    version: VERSION,
    mode: config.hosted ? ('supabase' as const) : ('local' as const),
  }));

  const tokens = new AccessTokens(secrets.jwtSecret, config.jwtExpirySeconds);
  const service = new AuthService(database.db, tokens, { confirmEmail: config.auth.confirmEmail, sessionRecheckMs: config.auth.sessionRecheckMs }, sessionEnds);
  const limits = new AuthRateLimits(database.pool, config.signinLimits);
  await app.register(authRoutes, {
    prefix: '/auth/v1',
    service,
    tokens,
    pool: database.pool,
    limits,
    mailer,
    origin,
    allowedOrigins: config.corsOrigins,
    confirmEmail: config.auth.confirmEmail,
    google: config.google ? { provider: openIdProvider(config.google, config.scans.addressPolicy), signIn: new ProviderSignIn(database.db, 'google') } : null,
  });

  const verify = createBearerVerifier(tokens, service, config.hosted);
  await app.register(async (scope) => {
    requireUser(scope, verify);
    requireWorkspace(scope, workspaceAccess ?? new WorkspaceAccess(database.pool));
    enforceCreationLimits(scope, new CreationLimits(database.pool, config.creationLimits), (request) => request.user?.id);
    scope.setErrorHandler(detailErrorHandler);
    // The database's change news reaches this process a moment after commit; the writer's next read must not wait.
    if (lists) {
      scope.addHook('onSend', (request, _reply, _payload, done) => {
        if (request.method !== 'GET' && request.method !== 'HEAD' && request.workspace) lists.invalidate(request.workspace.id);
        done();
      });
    }
    for (const routes of apiRoutes) await routes(scope);
  });
  for (const routes of publicRoutes) await app.register(async (scope) => routes(scope));

  const renderer = rendererDir(config.rendererDir);
  if (renderer) {
    // preCompressed: the build writes .br and .gz beside each asset (electron.vite.config.ts).
    await app.register(fastifyStatic, { root: renderer, wildcard: false, index: false, maxAge: '1h', immutable: true, preCompressed: true });
    // Every file under assets/ has its content's hash in its name (the bundler's, and the start script's in
    // scripts/build-plugins.ts): a new build makes new names, so a browser may keep these for good.
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/assets/') && reply.statusCode === 200) void reply.header('cache-control', 'public, max-age=31536000, immutable');
    });
  } else {
    app.log.warn('the built renderer was not found: run `npm run build`; the API works without it');
  }
  // The pages this build prerendered (see common/prerender.ts), found once.
  const prerendered = new Set(renderer ? PRERENDERED_PAGES.map(({ renderAt }) => prerenderedPageFile(renderAt)!).filter((file) => existsSync(join(renderer, file))) : []);
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !API_PREFIXES.some((p) => path.startsWith(p)) && !path.startsWith('/assets/');
    if (isPage && renderer) {
      // A prerendered page paints before its scripts run; any other page gets the app's index.html.
      const page = prerenderedPageFile(path);
      const file = page && prerendered.has(page) ? page : 'index.html';
      return reply.header('Cache-Control', 'no-cache').sendFile(file, renderer, { maxAge: 0, immutable: false });
    }
    return reply.code(404).send({ detail: 'Not Found' });
  });

  return { app, origin, listening };
}
