import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { FRAMING_CHECK_PATH, framingCheckQuerySchema, framingCheckSchema } from '../../common/live-browser';
import type { AddressPolicy } from '../../engine/retrieval/address-policy';
import { detailErrorHandler } from '../http-errors';
import { takePoint } from '../rate-limit';
import { checkFraming } from './framing-check';
import { HttpError } from '../http-errors';

export interface FramingCheckLimits {
  perIp: number;
  windowSeconds: number;
}

export interface LiveBrowserRouteDeps {
  pool: pg.Pool;
  limits: FramingCheckLimits;
  policy: AddressPolicy;
  /** The server's origin, where /vibe-loop (the page holding the frame) is served. */
  origin: () => string;
  /** Test hook: a shorter fetch timeout. */
  timeoutMs?: number;
}

/**
 * The web mode of the Live Browser Demo: a page cannot read another site's headers, so it asks the server whether
 * a site lets itself be shown in a frame (GET /v2/live-browser/framing?url=...). Public like the public scan
 * call, so it is counted per client IP in PostgreSQL (shared by a team's instances), and the site is fetched
 * through the address policy.
 */
export function liveBrowserRoutes({ pool, limits, policy, origin, timeoutMs }: LiveBrowserRouteDeps) {
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: 'framing_check_ip',
    points: limits.perIp,
    duration: limits.windowSeconds,
  });
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.setErrorHandler(detailErrorHandler);
    app.get(FRAMING_CHECK_PATH, { schema: { querystring: framingCheckQuerySchema, response: { 200: framingCheckSchema } } }, async (request, reply) => {
      const retryAfter = await takePoint(limiter, request.ip);
      if (retryAfter !== null) throw new HttpError(429, 'Too many checks. Please try again in a minute.', retryAfter);
      const answer = await checkFraming(request.query.url, { policy, embedderOrigin: origin(), timeoutMs });
      return reply.header('cache-control', 'no-store').send(answer);
    });
  };
}
