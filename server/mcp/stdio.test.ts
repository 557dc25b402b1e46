import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-keys/keys';
import { signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { bridgeSettings, createBridgeServer, MCP_EXIT } from './stdio';
import { insertApiKey } from './testing';

const CLI = join(__dirname, '..', '..', 'bin', 'vibeeval.cjs');

/** Runs `vibeeval mcp` with its stdin closed at once; its exit code and stderr. */
function runMcp(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, 'mcp'], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe('vibeeval mcp settings', () => {
  it('needs a key of the right shape and an http(s) URL; the URL defaults to the local server', () => {
    const key = generateApiKey();
    expect(bridgeSettings({})).toEqual({ error: expect.stringContaining('VIBEEVAL_API_KEY is not set') as string });
    expect(bridgeSettings({ VIBEEVAL_API_KEY: 'sk-123' })).toEqual({ error: expect.stringContaining('does not look like') as string });
    expect(bridgeSettings({ VIBEEVAL_API_KEY: key, VIBEEVAL_URL: 'ftp://x' })).toEqual({ error: expect.stringContaining('must be http') as string });
    const settings = bridgeSettings({ VIBEEVAL_API_KEY: key }) as { url: URL; apiKey: string };
    expect(settings.url.href).toBe('http://127.0.0.1:8787/mcp');
    expect((bridgeSettings({ VIBEEVAL_API_KEY: key, VIBEEVAL_URL: 'https://scan.example.com/base' }) as { url: URL }).url.href).toBe('https://scan.example.com/base/mcp');
  });
});

describe('the stdio bridge forwards', () => {
  it("progress with the caller's token, and the caller's cancellation", async () => {
    // Upstream: a tool that reports progress, then waits until it is cancelled.
    const upstreamServer = new McpServer({ name: 'upstream', version: '1' });
    let upstreamToken: string | number | undefined;
    const cancelled = new Promise<void>((resolve) => {
      upstreamServer.registerTool('slow', { description: 'waits' }, async (extra) => {
        upstreamToken = extra._meta?.progressToken;
        for (const progress of [10, 20])
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: upstreamToken!, progress, total: 100, message: `step ${progress}` } });
        await new Promise<void>((done) => extra.signal.addEventListener('abort', () => done()));
        resolve();
        return { content: [] };
      });
    });
    const [upClient, upServer] = InMemoryTransport.createLinkedPair();
    await upstreamServer.connect(upServer);
    const upstream = new Client({ name: 'bridge', version: '1' });
    await upstream.connect(upClient);

    const bridge = createBridgeServer(
      async () => upstream,
      async () => upstream,
    );
    const [callerSide, bridgeSide] = InMemoryTransport.createLinkedPair();
    await bridge.connect(bridgeSide);
    const caller = new Client({ name: 'agent', version: '1' });
    await caller.connect(callerSide);

    expect((await caller.listTools()).tools.map((tool) => tool.name)).toEqual(['slow']);
    const controller = new AbortController();
    const seen: Progress[] = [];
    const call = caller.callTool({ name: 'slow', arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: (progress) => {
        seen.push(progress);
        if (seen.length === 2) controller.abort();
      },
    });
    await expect(call).rejects.toThrow();
    await cancelled;
    expect(seen.map((p) => [p.progress, p.message])).toEqual([
      [10, 'step 10'],
      [20, 'step 20'],
    ]);
    expect(upstreamToken).toBeDefined();
    await caller.close();
    await upstream.close();
  });
});

describe('the stdio bridge reconnects', () => {
  it('when the server has forgotten the session (404), once, and answers from the new session', async () => {
    const upstreamServer = new McpServer({ name: 'upstream', version: '1' });
    upstreamServer.registerTool('ping', { description: 'pong' }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
    const [upClient, upServer] = InMemoryTransport.createLinkedPair();
    await upstreamServer.connect(upServer);
    const fresh = new Client({ name: 'bridge', version: '1' });
    await fresh.connect(upClient);
    // The old session: every call fails as the HTTP transport reports a 404.
    const stale = {
      listTools: () => Promise.reject(new StreamableHTTPError(404, 'Session not found')),
      callTool: () => Promise.reject(new StreamableHTTPError(404, 'Session not found')),
    } as unknown as Client;
    let reconnects = 0;
    const bridge = createBridgeServer(
      async () => stale,
      async () => {
        reconnects++;
        return fresh;
      },
    );
    const [callerSide, bridgeSide] = InMemoryTransport.createLinkedPair();
    await bridge.connect(bridgeSide);
    const caller = new Client({ name: 'agent', version: '1' });
    await caller.connect(callerSide);
    expect((await caller.listTools()).tools.map((tool) => tool.name)).toEqual(['ping']);
    expect(await caller.callTool({ name: 'ping', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'pong' }] });
    expect(reconnects).toBe(2);
    await caller.close();
    await fresh.close();
  });
});

describe('vibeeval mcp against a running server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let key: string;
  let projectUrl: string;

  beforeAll(async () => {
    // Server mode: the address policy refuses private and loopback targets.
    server = await startTestServer({ VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false' });
    const user = await signUp(server.origin, 'mcp-stdio');
    key = await insertApiKey(server.databaseUrl, user.id);
    projectUrl = 'http://93.184.215.14/'; // a public literal: no DNS needed
    const created = await fetch(`${server.origin}/project`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: projectUrl, instruction_text: 'Shop' }),
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists the tools and calls list_projects over stdio, with nothing but protocol on stdout', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { PATH: process.env.PATH ?? '', VIBEEVAL_URL: server.origin, VIBEEVAL_API_KEY: key },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        'explain_finding',
        'get_scan_findings',
        'list_decisions',
        'list_projects',
        'scan_url',
        'set_decision',
      ]);
      const result = (await client.callTool({ name: 'list_projects', arguments: {} })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ projects: [{ url: projectUrl, name: 'Shop', last_scan: null }] });
      const missing = (await client.callTool({ name: 'get_scan_findings', arguments: { scan_id: '00000000-0000-4000-8000-000000000000' } })) as CallToolResult;
      expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Scan not found' }] });
      const refused = (await client.callTool({ name: 'scan_url', arguments: { url: 'http://127.0.0.1:8080/' } })) as CallToolResult;
      expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/private or loopback/) as string }] });
    } finally {
      await client.close();
    }
    expect(stderr).toContain(`connected to ${server.origin}`);
    expect(stderr).not.toContain(key);
  });

  it('says on stderr, with its exit code, when the key is refused or the server is unreachable', async () => {
    // Three processes at once: each spends most of its time loading.
    const [refused, unreachable, missing] = await Promise.all([
      runMcp({ VIBEEVAL_URL: server.origin, VIBEEVAL_API_KEY: generateApiKey() }),
      runMcp({ VIBEEVAL_URL: 'http://127.0.0.1:1', VIBEEVAL_API_KEY: generateApiKey() }),
      runMcp({}),
    ]);
    expect(refused.code).toBe(MCP_EXIT.refused);
    expect(refused.stderr).toContain('refused the API key');
    expect(refused.stdout).toBe('');
    expect(unreachable.code).toBe(MCP_EXIT.unreachable);
    expect(unreachable.stderr).toContain('cannot reach the vibeeval server at http://127.0.0.1:1');
    expect(missing.code).toBe(MCP_EXIT.usage);
    expect(missing.stderr).toContain('VIBEEVAL_API_KEY is not set');
  });
});
