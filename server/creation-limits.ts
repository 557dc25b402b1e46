import { plural } from '../common/plural';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { takePoint } from './rate-limit';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Opts a route into the per-user creation limit: the name of its counter ('project', 'scan', ...). Every
     * route that creates something (a row, a job, a ticket) sets it, so one account cannot flood the database.
     */
    creationLimit?: string;
  }
}

export interface CreationLimitConfig {
  /** Creations per user and per counter in each window. */
  points: number;
  windowSeconds: number;
}

/**
 * Per-user limits on creation routes, counted in PostgreSQL (table `rate_limits`, the one sign-in uses) so
 * every server instance of a team shares them. Each route's counter is its own: creating projects does not
 * use up scans. Plan limits (how many projects a plan holds) are another matter, checked by the routes.
 */
export class CreationLimits {
  readonly #limiters = new Map<string, RateLimiterPostgres>();

  constructor(
    private readonly pool: pg.Pool,
    readonly config: CreationLimitConfig,
  ) {}

  #limiter(name: string): RateLimiterPostgres {
    let limiter = this.#limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: `create_${name}`,
        points: this.config.points,
        duration: this.config.windowSeconds,
      });
      this.#limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Counts one creation; null when allowed, else the seconds until the next one may come. */
  take(name: string, userId: string): Promise<number | null> {
    return takePoint(this.#limiter(name), userId);
  }
}

/** The 429 answer's detail: what was refused and when to try again. */
export function creationLimitDetail(config: CreationLimitConfig, retryAfter: number): string {
  const window = config.windowSeconds === 60 ? 'a minute' : `${config.windowSeconds} seconds`;
  return `Too many requests: at most ${config.points} of these in ${window}. Try again in ${plural(retryAfter, 'second')}.`;
}

/**
 * Enforces `config.creationLimit` on the routes of a signed-in scope: 429 with Retry-After and `{detail}` once
 * a user is over the limit. Runs after the body is validated, so a refused body costs nothing.
 */
export function enforceCreationLimits(scope: FastifyInstance, limits: CreationLimits, userIdOf: (request: FastifyRequest) => string | undefined) {
  scope.addHook('preHandler', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const name = request.routeOptions.config.creationLimit;
    const userId = name ? userIdOf(request) : undefined;
    // Most routes have no limit: they pass on at once, without a promise.
    if (!name || !userId) return done();
    limits.take(name, userId).then((retryAfter) => {
      if (retryAfter === null) return done();
      reply
        .code(429)
        .header('retry-after', String(retryAfter))
        .send({ detail: creationLimitDetail(limits.config, retryAfter) });
    }, done);
  });
}
