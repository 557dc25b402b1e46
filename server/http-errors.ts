import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * Every error answer of the server, in one place: the product API's `{detail}`, the auth API's GoTrue shape
 * (`{code, error_code, msg}`, which supabase-js reads) with `detail` beside it, and the answers Fastify and Node
 * give before a route runs (bad URL encoding, an over-long path parameter, oversized headers). A 4xx always says
 * which field is wrong; a 5xx never says more than that something failed.
 */

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

const zodEnglish = z.locales.en().localeError;

/** True when zod wrote the message itself (it names no field); false for the schema's own texts, kept word for word. */
function isZodDefaultMessage(issue: ValidationIssue): boolean {
  if (!issue.message) return true;
  if (issue.keyword === 'invalid_type') {
    // The default text ends with the received type, computed from the input that zod does not keep in the issue.
    return issue.message.startsWith(`Invalid input: expected ${String(issue.params?.expected)}, received `);
  }
  const fallback = zodEnglish({ code: issue.keyword, ...issue.params } as unknown as Parameters<typeof zodEnglish>[0]);
  return issue.message === (typeof fallback === 'string' ? fallback : fallback?.message);
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

/** `/data/tags/0` in the body → `data.tags[0]`; the part itself (`body`, `query`) when the issue is about all of it. */
function fieldOf(instancePath: string, part: string | undefined): string {
  const segments = instancePath.split('/').filter(Boolean);
  if (segments.length === 0) return PART_NAMES[part ?? 'body'] ?? 'body';
  return segments.map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : i === 0 ? segment : `.${segment}`)).join('');
}

/** The first validation issue as the answer's text: the schema's own message, or zod's prefixed with the field. */
export function validationDetail(error: Pick<FastifyError, 'validation' | 'validationContext' | 'message'>): string {
  const issue = error.validation?.[0] as ValidationIssue | undefined;
  if (!issue) return error.message;
  const message = issue.message ?? 'Invalid input';
  return isZodDefaultMessage(issue) ? `${fieldOf(issue.instancePath, error.validationContext)}: ${message}` : message;
}

/** Fastify's own 4xx errors, worded to name what is wrong (its JSON parser's texts already name the body). */
const FRAMEWORK_DETAILS: Record<string, (error: FastifyError, request?: FastifyRequest) => string> = {
  FST_ERR_BAD_URL: () => 'url: the path is not valid percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: () => 'url: a path parameter is longer than 100 characters',
  FST_ERR_CTP_BODY_TOO_LARGE: (_error, request) => `body: larger than the limit of ${request?.routeOptions.bodyLimit ?? 'this route'} bytes`,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'content-length: does not match the size of the body',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_error, request) => `content-type: '${String(request?.headers['content-type'] ?? '').slice(0, 100)}' is not accepted; send application/json`,
};

/**
 * A refusal a service or route raises on purpose: the API's error handler answers it with its status and `detail`,
 * and with Retry-After when it carries `retryAfterSeconds`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The status and the text of any error a route or hook raised. */
export function describeError(error: FastifyError, request?: FastifyRequest): { status: number; detail: string } {
  if (error.validation) return { status: 400, detail: validationDetail(error) };
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (status >= 500) return { status, detail: 'Internal server error' };
  const framework = error.code ? FRAMEWORK_DETAILS[error.code] : undefined;
  if (framework) return { status, detail: framework(error, request) };
  // The JSON parser's own refusals (prototype poisoning) are about the body as a whole.
  if (error instanceof SyntaxError) return { status, detail: `body: ${error.message}` };
  return { status, detail: error.message };
}

/**
 * The product API's error answers: `{detail}` with the status. A failed body or query check is a 400 carrying the
 * schema's first message (the same words the forms show); an error with `retryAfterSeconds` adds Retry-After;
 * anything unexpected is logged and answered without its internals.
 */
export function detailErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, detail } = describeError(error, request);
  const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter) void reply.header('retry-after', String(retryAfter));
  if (status >= 500) request.log.error(error);
  // A plan's refusal carries what the screens need to offer the upgrade (common/plan-limits.ts).
  const plan = (error as { planLimit?: { plan_limit: string; tier: string } }).planLimit;
  return reply.code(status).send(plan && status === 403 ? { detail, ...plan } : { detail });
}

/** The auth API's error body: GoTrue's fields, which supabase-js reads, and `detail` like every other answer. */
export function authErrorBody(status: number, errorCode: string, message: string, extra: Record<string, unknown> = {}) {
  return { code: status, error_code: errorCode, msg: message, detail: message, ...extra };
}

/** GoTrue's error code for a request refused before its route ran. */
function authErrorCode(error: FastifyError, status: number): string {
  if (error.validation || error.code === 'FST_ERR_BAD_URL') return 'validation_failed';
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) return 'bad_json';
  if (status >= 500) return 'unexpected_failure';
  return (error as { field?: string }).field ? 'validation_failed' : 'bad_request';
}

/** The answer to an error under /auth/v1 that is not one of the auth service's own. */
export function authErrorAnswer(error: FastifyError, request: FastifyRequest) {
  const { status, detail } = describeError(error, request);
  const message = status >= 500 ? 'Unexpected failure, please check server logs for more information' : detail;
  return { status, body: authErrorBody(status, authErrorCode(error, status), message) };
}

/**
 * Fastify's `frameworkErrors`: errors found while routing, before any route or scope is chosen (a path that is
 * not valid percent-encoding, a path parameter over the router's length limit).
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (request.url.startsWith('/auth/v1/')) {
    const { status, body } = authErrorAnswer(error, request);
    void reply.code(status).send(body);
    return;
  }
  void detailErrorHandler(error, request, reply);
}

/** Node's parser errors, answered on the socket itself (no request exists yet); the connection is then closed. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers: the request line and headers exceed 16 KB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request: not received in time']
        : [400, `request: not a valid HTTP request (${error.code ?? 'parse error'})`];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
