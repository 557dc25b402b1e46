import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from './db';

/** Routes that answer without the database: the health check reports on it, the others serve configuration and files. */
const WITHOUT_DATABASE = new Set(['/health', '/app-config']);
/** Seconds a client is told to wait before trying again while the database is brought back. */
const RETRY_AFTER_SECONDS = 2;

function needsDatabase(request: FastifyRequest): boolean {
  const { url, config } = request.routeOptions;
  // No route: a page of the renderer or a 404; `config.file`: a file of the built renderer (@fastify/static).
  if (!url || WITHOUT_DATABASE.has(url)) return false;
  return !(config as { file?: unknown } | undefined)?.file;
}

function unavailable(reply: FastifyReply) {
  return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('content-type', 'application/json; charset=utf-8');
}

/**
 * While the database is away (being restarted or reconnected), routes that need it answer 503 with the reason
 * in `detail` at once, instead of waiting for a connection that cannot come; a request that was in flight when
 * it went away and failed with a 5xx is answered the same way. Register on the root instance before the routes.
 */
export function databaseGate(app: FastifyInstance, database: Pick<Database, 'availability' | 'check'>): void {
  // Callback hooks: a request while the database is up costs no promise here.
  app.addHook('onRequest', (request, reply, done) => {
    const availability = database.availability();
    if (availability.state === 'down' && needsDatabase(request)) {
      unavailable(reply).send(JSON.stringify({ detail: availability.detail }));
      return;
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode < 500 || reply.statusCode === 503 || !needsDatabase(request)) return done(null, payload);
    database.check().then((availability) => {
      if (availability.state === 'up') return done(null, payload);
      unavailable(reply);
      done(null, JSON.stringify({ detail: availability.detail }));
    }, done);
  });
}
