// MCP sessions of this server process. Sessions (not the stateless mode) because a client's cancellation arrives
// as its own POST and must reach the tool call it cancels; each session belongs to the member of the key that
// opened it, in that key's workspace. In team mode behind a load balancer, /mcp needs sticky sessions (or one instance answering it).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Who an MCP session acts for: the API key's member, in the key's workspace. */
export interface McpOwner {
  userId: string;
  workspaceId: string;
}

export interface McpSession extends McpOwner {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
}

export interface SessionLimits {
  /** Sessions one user may hold open; opening one more closes their least recently used. */
  perUser: number;
  /** A session unused this long is closed (agents reconnect on their own: the spec's 404 answer). */
  idleMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { perUser: 20, idleMs: 30 * 60_000 };

export class McpSessions {
  readonly #sessions = new Map<string, McpSession>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS) {
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(60_000, limits.idleMs)).unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /**
   * The session with this id if it belongs to this member in this workspace (another user's session, or one
   * opened with a key of another workspace, does not exist for them).
   */
  get(id: string, owner: McpOwner): McpSession | undefined {
    const session = this.#sessions.get(id);
    if (!session || session.userId !== owner.userId || session.workspaceId !== owner.workspaceId) return undefined;
    session.lastSeen = Date.now();
    return session;
  }

  add(id: string, session: McpSession): void {
    const own = [...this.#sessions.entries()].filter(([, s]) => s.userId === session.userId).sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    for (const [oldId] of own.slice(0, Math.max(0, own.length - this.limits.perUser + 1))) void this.close(oldId);
    this.#sessions.set(id, session);
  }

  /** Forgets the session (its transport closed itself). */
  remove(id: string | undefined): void {
    if (id) this.#sessions.delete(id);
  }

  async close(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    await session?.server.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#sessions.keys()].map((id) => this.close(id)));
  }

  #sweep(): void {
    const before = Date.now() - this.limits.idleMs;
    for (const [id, session] of this.#sessions) if (session.lastSeen < before) void this.close(id);
  }
}
