// The MCP endpoint: Streamable HTTP at /mcp (POST messages, GET the server's event stream, DELETE the session),
// authenticated with an API key (`Authorization: Bearer vb_live_…`), the tools acting as the key's user.
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiKeyAuth } from '../api-keys/auth';
import { callerOf, guardPublicApi, type ApiAccessCheck } from '../public-api/routes';
import type { UsageMeter } from '../public-api/usage';
import { McpSessions, type McpOwner, type SessionLimits } from './sessions';
import { createMcpServer, type McpToolDeps } from './tools';

export interface McpRouteDeps extends McpToolDeps {
  /** The public API's key check (cached, revocation at once, last used): /mcp takes the same keys as /v1. */
  auth: ApiKeyAuth;
  /** The public API's daily allowance: each request to /mcp counts as one /v1 request. */
  usage: UsageMeter;
  /** Refuses a user whose plan has no API access (the plan's 403), before today's allowance is counted. */
  apiAccess: ApiAccessCheck;
  sessionLimits?: SessionLimits;
}

export const MCP_PATH = '/mcp';
/** JSON-RPC messages are small; a scan's answer goes the other way. */
const MCP_BODY_LIMIT = 256 * 1024;
const SESSION_HEADER = 'mcp-session-id';

/**
 * One JSON-RPC 2.0 message (batches left the protocol in 2025-06-18), as strict as the SDK's own check, so a
 * malformed message gets a 400 naming the field rather than the transport's bare parse error.
 */
const bodySchema = z
  .strictObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string().max(200), z.int()]).optional(),
    method: z.string().min(1).max(200).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.int(), message: z.string().max(10_000), data: z.unknown().optional() }).optional(),
  })
  .refine(
    (m) =>
      (m.method !== undefined && m.result === undefined && m.error === undefined) ||
      (m.method === undefined && m.params === undefined && m.id !== undefined && (m.result === undefined) !== (m.error === undefined)),
    'body: not a JSON-RPC request, notification or response (a method, or an id with a result or an error)',
  );
const headersSchema = z.looseObject({ [SESSION_HEADER]: z.string().max(200).optional(), 'mcp-protocol-version': z.string().max(40).optional() });

/** A JSON-RPC error answered without a transport, with the `detail` every error of this server carries. */
function rpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null, detail: message });
}

/**
 * What the transport would refuse with a bare JSON-RPC error, refused here first with a detail: the Accept header
 * the Streamable HTTP transport requires, and an unknown protocol version.
 */
function refusal(request: FastifyRequest, reply: FastifyReply, accepts: string[]) {
  const accept = request.headers.accept ?? '';
  const missing = accepts.filter((type) => !accept.includes(type) && !accept.includes('*/*'));
  if (missing.length) return rpcError(reply, 406, -32000, `accept: must accept ${accepts.join(' and ')}`);
  const version = request.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return rpcError(reply, 400, -32000, `mcp-protocol-version: ${version.slice(0, 40)} is not supported (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  return null;
}

/** The /mcp routes; register them outside the dashboard's bearer-token guard (they check their own key). */
export function mcpRoutes(deps: McpRouteDeps) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const sessions = new McpSessions(deps.sessionLimits);
    app.addHook('preClose', () => sessions.closeAll());

    // Before the body is read: no key (or no allowance left today), no work; the same guard as /v1.
    guardPublicApi(app, deps.auth, deps.usage, deps.apiAccess);

    /** Hands the request to the session's transport, which writes the answer (JSON or an event stream) itself. */
    const handOver = async (request: FastifyRequest, reply: FastifyReply, transport: StreamableHTTPServerTransport, body?: unknown) => {
      // The transport writes the answer itself, past Fastify's reply: the headers set so far (RateLimit, security
      // headers, CORS) go onto the raw response first.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      await transport.handleRequest(request.raw, reply.raw, body);
    };

    const openSession = async (request: FastifyRequest, reply: FastifyReply, owner: McpOwner, body: unknown) => {
      const server = createMcpServer(deps, owner);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id): void => sessions.add(id, { transport, server, userId: owner.userId, workspaceId: owner.workspaceId, lastSeen: Date.now() }),
        onsessionclosed: (id) => sessions.remove(id),
      });
      transport.onclose = () => sessions.remove(transport.sessionId);
      await server.connect(transport);
      await handOver(request, reply, transport, body);
    };

    app.post(MCP_PATH, { bodyLimit: MCP_BODY_LIMIT, schema: { body: bodySchema, headers: headersSchema } }, async (request, reply) => {
      const caller = callerOf(request);
      const refused = refusal(request, reply, ['application/json', 'text/event-stream']);
      if (refused) return refused;
      const sessionId = request.headers[SESSION_HEADER];
      if (sessionId) {
        const session = sessions.get(sessionId, caller);
        if (!session) return rpcError(reply, 404, -32001, 'Session not found: initialize a new session.');
        return handOver(request, reply, session.transport, request.body);
      }
      if (!isInitializeRequest(request.body)) return rpcError(reply, 400, -32000, 'Bad Request: no Mcp-Session-Id header; start with an initialize request.');
      return openSession(request, reply, { userId: caller.userId, workspaceId: caller.workspaceId }, request.body);
    });

    const sessionOnly = async (request: FastifyRequest<{ Headers: z.infer<typeof headersSchema> }>, reply: FastifyReply) => {
      const caller = callerOf(request);
      const sessionId = request.headers[SESSION_HEADER];
      const refused = request.method === 'GET' ? refusal(request, reply, ['text/event-stream']) : null;
      if (refused) return refused;
      const session = sessionId ? sessions.get(sessionId, caller) : undefined;
      if (!sessionId) return rpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required.');
      if (!session) return rpcError(reply, 404, -32001, 'Session not found: initialize a new session.');
      return handOver(request, reply, session.transport);
    };
    app.get(MCP_PATH, { schema: { headers: headersSchema } }, sessionOnly);
    app.delete(MCP_PATH, { schema: { headers: headersSchema } }, sessionOnly);
  };
}
