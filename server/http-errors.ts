import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The product API's error answers: `{detail}` with the status. A failed body or query check is a 400 carrying the
 * schema's first message (the same words the forms show); an error with `retryAfterSeconds` adds Retry-After;
 * anything unexpected is logged and answered without its internals.
 */
export function detailErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) return reply.code(400).send({ detail: error.validation[0]?.message ?? error.message });
  const status = error.statusCode ?? 500;
  const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter) void reply.header('retry-after', String(retryAfter));
  if (status >= 500) request.log.error(error);
  return reply.code(status).send({ detail: status >= 500 ? 'Internal server error' : error.message });
}
