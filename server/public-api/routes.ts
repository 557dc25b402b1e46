import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ApiKeyAuth } from '../api-keys/auth';
import type { ApiKeyCaller } from '../api-keys/keys';
import type { ListCache } from '../changes/list-cache';
import { CreationLimits, enforceCreationLimits, type CreationLimitConfig } from '../creation-limits';
import { detailErrorHandler } from '../http-errors';
import { nextPageHeaders } from '../pagination';
import type pg from 'pg';
import { createV1ScanBodySchema, SECRET_BODY_FIELDS, SECRET_BODY_MESSAGE, v1IdParamsSchema, v1PageQuerySchema, v1ProjectListSchema, v1ScanSchema } from './schemas';
import type { PublicApiService } from './service';
import { rateLimitHeaders, type UsageMeter } from './usage';
import { openApiDocument } from './openapi';
import { HttpError } from '../http-errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key's caller on /v1 routes (null elsewhere). */
    apiCaller: ApiKeyCaller | null;
  }
}

/** Refuses a workspace whose plan has no API access (the plan's 403); server/billing/plan-gate.ts. */
export type ApiAccessCheck = (workspaceId: string) => Promise<unknown>;

export interface PublicApiRouteDeps {
  service: PublicApiService;
  auth: ApiKeyAuth;
  usage: UsageMeter;
  apiAccess: ApiAccessCheck;
  lists: ListCache;
  pool: pg.Pool;
  creationLimits: CreationLimitConfig;
  /** The server's public origin, for the OpenAPI document's `servers`. */
  origin: () => string;
  /** Further /v1 routes of other domains (triage), registered behind the same key guard and limits. */
  routes?: ((scope: FastifyInstance) => Promise<void> | void)[];
}

export function callerOf(request: FastifyRequest): ApiKeyCaller {
  if (!request.apiCaller) throw Object.assign(new Error('An API key is required'), { statusCode: 401 });
  return request.apiCaller;
}

/** Seconds and a sentence for the 429 of a spent daily allowance. */
function limitDetail(limit: number, retryAfter: number): string {
  const hours = Math.floor(retryAfter / 3600);
  const minutes = Math.ceil((retryAfter % 3600) / 60);
  return `Daily API limit reached: your plan allows ${limit} requests per day (UTC). It resets at midnight UTC, in ${hours} h ${minutes} min.`;
}

/**
 * The guard of every /v1 route (and of any other scope taking API keys, such as /mcp): a valid API key (else 401
 * with `WWW-Authenticate: Bearer`), a plan with API access (else the plan's 403, counting nothing), then one
 * request of today's plan allowance (429 with Retry-After once spent), with the RateLimit headers on every
 * answer. The plan and the allowance are those of the key's workspace, shared by all its keys. The caller is in
 * `request.apiCaller` (see `callerOf`).
 */
export function guardPublicApi(scope: FastifyInstance, auth: ApiKeyAuth, usage: UsageMeter, apiAccess: ApiAccessCheck) {
  scope.decorateRequest('apiCaller', null);
  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'OPTIONS') return;
    const caller = await auth.authenticate(request, reply);
    if (!caller) return reply;
    request.apiCaller = caller;
    await apiAccess(caller.workspaceId);
    const allowance = await usage.admit(caller.workspaceId, caller.userId);
    void reply.headers(rateLimitHeaders(allowance));
    if (!allowance.allowed) {
      return reply
        .code(429)
        .header('retry-after', String(allowance.resetSeconds))
        .send({ detail: limitDetail(allowance.limit!, allowance.resetSeconds) });
    }
  });
}

/** The public API (/v1): scans and projects of the API key's workspace, and its OpenAPI document. */
export function publicApiRoutes(deps: PublicApiRouteDeps) {
  const { service, auth, usage, lists } = deps;
  return async (root: FastifyInstance) => {
    root.get('/v1/openapi.json', async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(openApiDocument(deps.origin())));

    await root.register(async (scope) => {
      guardPublicApi(scope, auth, usage, deps.apiAccess);
      enforceCreationLimits(scope, new CreationLimits(deps.pool, deps.creationLimits), (request) => request.apiCaller?.userId);
      scope.setErrorHandler(detailErrorHandler);
      const app = scope.withTypeProvider<ZodTypeProvider>();

      app.get('/v1/scans', { schema: { querystring: v1PageQuerySchema } }, async (request, reply) => {
        const { workspaceId } = callerOf(request);
        const { limit, cursor } = request.query;
        const answer = await lists.get(workspaceId, `v1/scans?limit=${limit}&cursor=${cursor ?? ''}`, async () => {
          const page = await service.listScans(workspaceId, request.query);
          return { body: Buffer.from(JSON.stringify(page)), headers: nextPageHeaders(request, page.next_cursor) };
        });
        return reply.headers(answer.headers).type('application/json; charset=utf-8').send(answer.body);
      });

      app.post(
        '/v1/scans',
        {
          schema: { body: createV1ScanBodySchema, response: { 202: v1ScanSchema } },
          config: { creationLimit: 'scan' },
          // Before the schema's own "unrecognized key": the reason a password field is refused, said plainly.
          preValidation: async (request) => {
            const body = request.body;
            if (body && typeof body === 'object' && SECRET_BODY_FIELDS.some((field) => field in body)) throw new HttpError(400, SECRET_BODY_MESSAGE);
          },
        },
        async (request, reply) => {
          const scan = await service.createScan(callerOf(request), request.body);
          return reply.code(202).header('location', `/v1/scans/${scan.id}`).send(scan);
        },
      );

      app.get('/v1/scans/:id', { schema: { params: v1IdParamsSchema, response: { 200: v1ScanSchema } } }, async (request) =>
        service.getScan(callerOf(request).workspaceId, request.params.id),
      );

      app.get('/v1/projects', { schema: { querystring: v1PageQuerySchema, response: { 200: v1ProjectListSchema } } }, async (request, reply) => {
        const page = await service.listProjects(callerOf(request).workspaceId, request.query);
        void reply.headers(nextPageHeaders(request, page.next_cursor));
        return page;
      });

      for (const routes of deps.routes ?? []) await routes(scope);
    });
  };
}
