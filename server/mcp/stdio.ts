// `vibeeval mcp`: an MCP server on stdio (for Cursor, Claude Code) that forwards to a running vibeeval server's
// /mcp. The tools live on that server only; this bridge passes tools/list and tools/call through, with the caller's
// progress token on each progress notification and the caller's cancellation. stdout carries the protocol only;
// every message of ours goes to stderr.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, CallToolResultSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { API_KEY_PATTERN } from '../../common/api-keys';
import { safeMessage } from '../log-scrub';
import { VERSION } from '../version';

export const DEFAULT_VIBEEVAL_URL = 'http://127.0.0.1:8787';

/** Exit codes of `vibeeval mcp`. */
export const MCP_EXIT = { ok: 0, usage: 2, unreachable: 3, refused: 4 } as const;

/** A tool call may wait for a whole scan (10 minutes on the server) plus the answer's way back. */
const CALL_TIMEOUT_MS = 11 * 60_000;

export interface BridgeSettings {
  url: URL;
  apiKey: string;
}

/** The server URL and key from the environment, or the message saying what is missing. */
export function bridgeSettings(env: NodeJS.ProcessEnv): BridgeSettings | { error: string } {
  const apiKey = env.VIBEEVAL_API_KEY?.trim();
  if (!apiKey) return { error: "VIBEEVAL_API_KEY is not set: create an API key on the dashboard's API page and pass it in the MCP server's env." };
  if (!API_KEY_PATTERN.test(apiKey)) return { error: 'VIBEEVAL_API_KEY does not look like a vibeeval API key (vb_live_ followed by 26 letters and digits).' };
  const base = env.VIBEEVAL_URL?.trim() || DEFAULT_VIBEEVAL_URL;
  let url: URL;
  try {
    url = new URL('mcp', base.endsWith('/') ? base : `${base}/`);
  } catch {
    return { error: `VIBEEVAL_URL is not a URL: ${base}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: `VIBEEVAL_URL must be http:// or https://: ${base}` };
  return { url, apiKey };
}

/** Opens an MCP session with the server; throws with the reason (unreachable, key refused). */
export async function connectUpstream({ url, apiKey }: BridgeSettings): Promise<Client> {
  const client = new Client({ name: 'vibeeval-mcp-stdio', version: VERSION });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  return client;
}

/** Why connecting failed, for stderr, and the exit code that goes with it. */
export function describeFailure(error: unknown, url: URL): { message: string; code: number } {
  if (error instanceof StreamableHTTPError && error.code === 401) {
    return { message: `the vibeeval server at ${url.origin} refused the API key (revoked or unknown): create a new one on the dashboard's API page.`, code: MCP_EXIT.refused };
  }
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${safeMessage(error.cause)}` : '';
  return {
    message: `cannot reach the vibeeval server at ${url.origin} (${safeMessage(error)}${cause}). Start it with 'npx vibeeval serve' or set VIBEEVAL_URL.`,
    code: MCP_EXIT.unreachable,
  };
}

/**
 * The stdio side: forwards tools/list and tools/call to `upstream()`, which reconnects when the server forgot the
 * session (a restart, an idle timeout: the server answers 404).
 */
export function createBridgeServer(upstream: () => Promise<Client>, reconnect: () => Promise<Client>): Server {
  const server = new Server({ name: 'vibeeval', version: VERSION }, { capabilities: { tools: {} } });
  const retrying = async <T>(call: (client: Client) => Promise<T>): Promise<T> => {
    try {
      return await call(await upstream());
    } catch (error) {
      if (!(error instanceof StreamableHTTPError && error.code === 404)) throw error;
      return call(await reconnect());
    }
  };
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) => retrying((client) => client.listTools(request.params, { signal: extra.signal })));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const token = request.params._meta?.progressToken;
    const { _meta: _dropped, ...params } = request.params;
    return retrying(
      (client) =>
        client.callTool(params, CallToolResultSchema, {
          signal: extra.signal,
          timeout: CALL_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          // Our own token goes upstream (the SDK sets it); the caller's goes back down with each notification.
          onprogress:
            token === undefined
              ? undefined
              : (progress) => void extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken: token } }).catch(() => undefined),
        }) as Promise<CallToolResult>,
    );
  });
  return server;
}

/** Runs `vibeeval mcp` until stdin closes; returns the exit code. */
export async function runStdioBridge(env: NodeJS.ProcessEnv = process.env, stderr: NodeJS.WritableStream = process.stderr): Promise<number> {
  const settings = bridgeSettings(env);
  if ('error' in settings) {
    stderr.write(`vibeeval mcp: ${settings.error}\n`);
    return MCP_EXIT.usage;
  }
  let client: Client;
  try {
    client = await connectUpstream(settings);
  } catch (error) {
    const failure = describeFailure(error, settings.url);
    stderr.write(`vibeeval mcp: ${failure.message}\n`);
    return failure.code;
  }
  const reconnect = async () => {
    await client.close().catch(() => undefined);
    client = await connectUpstream(settings);
    return client;
  };
  const server = createBridgeServer(async () => client, reconnect);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  stderr.write(`vibeeval mcp: connected to ${settings.url.origin}; serving MCP on stdio\n`);
  process.stdin.once('end', () => void server.close());
  await closed;
  await client.close().catch(() => undefined);
  return MCP_EXIT.ok;
}
