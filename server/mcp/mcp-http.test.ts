import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanResult } from '../../common/scan';
import { TRIAGE_TEXTS } from '../../common/triage';
import { generateApiKey } from '../api-keys/keys';
import { rawRequest, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { insertApiKey } from './testing';
import { scanSummary } from './tools';

// A site with a known hole: its .env is public, with a live-looking Stripe key and a database password.
const ENV_FILE = 'STRIPE_SECRET_KEY=sk_live_51Hh2kQJx8mYtZ3pLq9RwVnB4cD\nDATABASE_URL=postgres://admin:Sup3rS3cretPw@db.internal:5432/app\n';

let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;
let keyA: string;
let tokenA: string;
let keyB: string;
const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'vibeeval-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/.env') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(ENV_FILE);
    }
    // The account page needs a login: the scan cannot check it, and its answers must say so.
    if (req.url === '/account') return res.writeHead(401, { 'content-type': 'text/plain' }).end('Sign in first');
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Shop</title><h1>Shop</h1><a href="/account">Your account</a>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startTestServer({ VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0' });
  const database = server.databaseUrl;
  const userA = await signUp(server.origin, 'mcp-a');
  tokenA = userA.token;
  keyA = await insertApiKey(database, userA.id);
  keyB = await insertApiKey(database, (await signUp(server.origin, 'mcp-b')).id);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await server?.stop();
  await new Promise<void>((resolve) => site?.close(() => resolve()));
});

/** A finished scan without findings, as stored. */
function emptyResult(coverage?: ScanResult['coverage']): ScanResult {
  const counts = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  return {
    schemaVersion: 1,
    engineVersion: 'test',
    target: { url: 'https://app.example.test/', finalUrl: 'https://app.example.test/' },
    startedAt: '2026-11-24T12:00:00.000Z',
    finishedAt: '2026-11-24T12:00:05.000Z',
    durationMs: 5000,
    options: { maxPages: 1, render: true, active: false, timeoutMs: 15_000 },
    pages: [],
    rendering: { status: 'done' },
    score: 100,
    grade: 'A',
    headers: { score: 100, grade: 'A', tests: [] },
    counts,
    passed: [],
    findings: [],
    warnings: [],
    ...(coverage ? { coverage } : {}),
    stats: { requests: 3, bytes: 1000 },
  };
}

describe('the scan answer of a scan without findings', () => {
  it('does not read as all clear when a backend could not be checked, and ends with what was not checked', () => {
    const backend = {
      kind: 'supabase' as const,
      target: 'https://qzkvhyxbtnmwplrcadfe.supabase.co',
      checked: false,
      requests: 4,
      reason: 'every request failed (4 requests): the host refused the connection',
    };
    const coverage = { checksSkipped: [], fetched: { pages: 1, scripts: 3, scriptsFailed: 0 }, backends: { items: [backend], more: 0 } };
    const answer = scanSummary('0b3c8a52-7d7e-4f57-9a56-1c1f2d7e9a10', emptyResult(coverage));
    const lines = textOf(answer).split('\n');
    expect(lines).not.toContain('No findings.');
    expect(lines.slice(-4)).toEqual([
      'No findings in what could be checked, but not everything could be checked (see "Not checked" below).',
      'Coverage: 1 page and 3 scripts fetched; 1 backend found, 0 checked.',
      'Not checked:',
      `- The Supabase project ${backend.target} could not be checked: ${backend.reason}. Its data was not tested.`,
    ]);
    expect(answer.structuredContent).toMatchObject({ coverage, total_findings: 0 });
  });

  it('says "No findings." when everything could be checked, and that coverage was not recorded for an older result', () => {
    const checked = scanSummary('s', emptyResult({ checksSkipped: [], fetched: { pages: 2, scripts: 1, scriptsFailed: 0 } }));
    expect(textOf(checked).split('\n').slice(-2)).toEqual(['No findings.', 'Coverage: 2 pages and 1 script fetched.']);
    const older = scanSummary('s', emptyResult());
    expect(textOf(older).split('\n').at(-1)).toMatch(/^Coverage: not recorded for this scan \(it ran before coverage was recorded\)/);
    expect(older.structuredContent).toMatchObject({ coverage: null });
  });
});

describe('MCP over Streamable HTTP (/mcp)', () => {
  let scanId: string;
  let envFindingId: string;

  it('lists the six tools, each with a description and an input schema', async () => {
    const client = await connect(keyA);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['explain_finding', 'get_scan_findings', 'list_decisions', 'list_projects', 'scan_url', 'set_decision']);
    expect(tools.find((tool) => tool.name === 'set_decision')!.description).toContain('Only when the person you work for asks for it');
    const scanUrl = tools.find((tool) => tool.name === 'scan_url')!;
    expect(scanUrl.description).toContain('security');
    // url, or projectId for a signed-in scan of a project: neither alone is required, and no password field exists.
    expect(scanUrl.inputSchema.required ?? []).toEqual([]);
    expect(Object.keys(scanUrl.inputSchema.properties ?? {}).sort()).toEqual(['pages', 'projectId', 'url']);
  });

  it('scan_url runs a real scan to completion, sending progress, and answers grade, counts and findings', async () => {
    const client = await connect(keyA);
    const progress: Progress[] = [];
    const result = (await client.callTool({ name: 'scan_url', arguments: { url: siteUrl, pages: 2 } }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 120_000,
      resetTimeoutOnProgress: true,
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as {
      scan_id: string;
      grade: string;
      score: number;
      counts: { critical: number; high: number };
      findings: { id: string; check: string; severity: string; where: string }[];
    };
    expect(content.grade).toMatch(/^[A-F][+-]?$/);
    expect(content.counts.critical + content.counts.high).toBeGreaterThan(0);
    const env = content.findings.find((f) => f.check === 'exposed-env-file');
    expect(env?.where).toBe(`${siteUrl}.env`);
    expect(textOf(result)).toContain(`finding_id ${env!.id}`);
    // Progress went up to 100 of 100, strictly increasing, each with a message.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toMatchObject({ progress: 100, total: 100 });
    expect(progress.every((p, i) => i === 0 || p.progress > progress[i - 1]!.progress)).toBe(true);
    expect(progress.every((p) => typeof p.message === 'string' && p.message.length > 0)).toBe(true);
    scanId = content.scan_id;
    envFindingId = env!.id;
    // The scan's coverage comes with it, and the text ends with what could not be checked.
    expect((result.structuredContent as { coverage: unknown }).coverage).toMatchObject({
      checksSkipped: [],
      fetched: { pages: 2 },
      loginRequired: { items: [{ url: `${siteUrl}account`, status: 401 }], more: 0 },
    });
    expect(textOf(result).split('\n').slice(-3)).toEqual([
      expect.stringMatching(/^Coverage: 2 pages and 0 scripts fetched; nothing rendered in a browser/) as string,
      'Not checked:',
      `- 1 page needs a login and was not checked signed in: ${siteUrl}account.`,
    ]);
  }, 150_000);

  it('get_scan_findings gives the evidence as stored: secrets masked', async () => {
    const client = await connect(keyA);
    const result = (await client.callTool({ name: 'get_scan_findings', arguments: { scan_id: scanId } })) as CallToolResult;
    const content = result.structuredContent as { total: number; findings: { id: string; evidence: { request?: string; response?: string } }[] };
    const env = content.findings.find((f) => f.id === envFindingId)!;
    expect(env.evidence.request).toContain('/.env');
    expect(JSON.stringify(content)).not.toContain('Sup3rS3cretPw');
    expect(textOf(result)).not.toContain('sk_live_51Hh2kQJx8mYtZ3pLq9RwVnB4cD');
    expect(content.total).toBe(content.findings.length);
    expect(textOf(result).endsWith(`Not checked:\n- 1 page needs a login and was not checked signed in: ${siteUrl}account.`)).toBe(true);
  });

  it('get_scan_findings of a result stored before coverage was recorded: coverage null, and the text says it was not recorded', async () => {
    const database = new pg.Client({ connectionString: server.databaseUrl });
    await database.connect();
    try {
      await database.query(`update scans set result = result - 'coverage' where id = $1`, [scanId]);
    } finally {
      await database.end();
    }
    const client = await connect(keyA);
    const result = (await client.callTool({ name: 'get_scan_findings', arguments: { scan_id: scanId } })) as CallToolResult;
    expect((result.structuredContent as { coverage: unknown }).coverage).toBeNull();
    expect(textOf(result).split('\n').at(-1)).toMatch(/^Coverage: not recorded for this scan/);
  });

  it('explain_finding says what to change, where and how to verify, with the request to repeat', async () => {
    const client = await connect(keyA);
    const result = (await client.callTool({ name: 'explain_finding', arguments: { scan_id: scanId, finding_id: envFindingId } })) as CallToolResult;
    const text = textOf(result);
    expect(text).toContain('## What to change');
    expect(text).toContain('## Where');
    expect(text).toContain('public/');
    expect(text).toContain('rotate');
    expect(text).toContain('## How to verify');
    expect(text).toContain(`curl -s -i '${siteUrl}.env'`);
    expect(text).toContain('404');
    const unknown = (await client.callTool({ name: 'explain_finding', arguments: { scan_id: scanId, finding_id: 'f'.repeat(16) } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('Finding not found');
  });

  it("list_projects shows the user's project with its last scan", async () => {
    const client = await connect(keyA);
    const result = (await client.callTool({ name: 'list_projects', arguments: {} })) as CallToolResult;
    const { projects } = result.structuredContent as { projects: { url: string; name: string; last_scan: { id: string; grade: string } | null }[] };
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({ url: siteUrl, name: '127.0.0.1:' + new URL(siteUrl).port, last_scan: { id: scanId } });
    expect(projects[0]!.last_scan!.grade).toMatch(/^[A-F]/);
    // Every request to /mcp counts against the daily API allowance, as /v1 requests do (written within a second).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const usage = (await rawRequest(server.origin, { method: 'GET', path: '/api_usage', headers: { authorization: `Bearer ${tokenA}` } })).json as { used_today: number };
    expect(usage.used_today).toBeGreaterThanOrEqual(10);
  });

  it("another user's key sees none of it: 'Scan not found', no projects", async () => {
    const client = await connect(keyB);
    for (const [name, args] of [
      ['get_scan_findings', { scan_id: scanId }],
      ['explain_finding', { scan_id: scanId, finding_id: envFindingId }],
      ['get_scan_findings', { scan_id: 'not-a-uuid' }],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Scan not found');
    }
    const projects = (await client.callTool({ name: 'list_projects', arguments: {} })) as CallToolResult;
    expect((projects.structuredContent as { projects: unknown[] }).projects).toEqual([]);
  });

  it("scan_url scans the caller's project by its id (signed in as its stored accounts), and no one else's", async () => {
    const owner = await signUp(server.origin, 'mcp-c');
    const created = await rawRequest(server.origin, {
      method: 'POST',
      path: '/project',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${siteUrl}signed-in/`, secret_instruction: 'alice@example.com S3cret-mcp-pw' }),
    });
    const projectId = (created.json as { id: string }).id;
    const client = await connect(await insertApiKey(server.databaseUrl, owner.id));
    const result = (await client.callTool({ name: 'scan_url', arguments: { projectId, pages: 1 } }, undefined, { timeout: 120_000 })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ url: `${siteUrl}signed-in` }); // the address as stored: no trailing slash after a path
    expect(JSON.stringify(result)).not.toContain('S3cret-mcp-pw');
    // The project's history says the API started it.
    const history = await rawRequest(server.origin, { method: 'GET', path: `/project/${projectId}/scans`, headers: { authorization: `Bearer ${owner.token}` } });
    expect((history.json as { trigger: string }[]).map((scan) => scan.trigger)).toEqual(['api']);
    const stranger = await connect(keyB);
    const refused = (await stranger.callTool({ name: 'scan_url', arguments: { projectId } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('Project not found: use an id from list_projects.');
    const neither = (await client.callTool({ name: 'scan_url', arguments: {} })) as CallToolResult;
    expect(neither.isError).toBe(true);
    expect(textOf(neither)).toContain('Pass url, or projectId');
  }, 150_000);

  it('refuses a URL that is not a website as a tool error, and a bad cursor', async () => {
    const client = await connect(keyA);
    const bad = (await client.callTool({ name: 'scan_url', arguments: { url: 'ftp://example.com/' } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad).length).toBeGreaterThan(5);
    const cursor = (await client.callTool({ name: 'list_projects', arguments: { cursor: 'nonsense' } })) as CallToolResult;
    expect(cursor.isError).toBe(true);
    expect(textOf(cursor)).toContain('cursor is not valid');
  });

  it('answers 401 with WWW-Authenticate without a key, with an unknown key, and with a dashboard token', async () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const user = await signUp(server.origin, 'mcp-token');
    for (const authorization of [undefined, `Bearer ${generateApiKey()}`, `Bearer ${user.token}`]) {
      const answer = await rawRequest(server.origin, { method: 'POST', path: '/mcp', headers: { ...headers, ...(authorization ? { authorization } : {}) }, body: init });
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({ detail: expect.stringContaining('API key') as string });
    }
    const noKey = await fetch(`${server.origin}/mcp`, { method: 'GET' });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('www-authenticate')).toBe('Bearer');
    const badKey = await fetch(`${server.origin}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${generateApiKey()}` } });
    expect(badKey.status).toBe(401);
    expect(badKey.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('counts each request against the daily API allowance, shared with /v1: 429 with Retry-After and RateLimit once spent', async () => {
    const user = await signUp(server.origin, 'mcp-limit');
    const key = await insertApiKey(server.databaseUrl, user.id);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    // 90 requests to /mcp (no session: each answers 400, and counts) and 10 to /v1: the free plan's 100.
    for (let i = 0; i < 90; i += 10) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => rawRequest(server.origin, { method: 'POST', path: '/mcp', headers, body: list })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(400));
    }
    for (let i = 0; i < 10; i++) expect((await rawRequest(server.origin, { method: 'GET', path: '/v1/scans', headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const refused = await fetch(`${server.origin}/mcp`, { method: 'POST', headers, body: list });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toBe(`"daily";r=0;t=${refused.headers.get('retry-after')}`);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^Daily API limit reached: your plan allows 100 requests per day/);
    // Answers written by the MCP transport carry the RateLimit headers too.
    const other = await signUp(server.origin, 'mcp-limit-headers');
    const otherKey = await insertApiKey(server.databaseUrl, other.id);
    const streamed = await fetch(`${server.origin}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${otherKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('mcp-session-id')).toBeTruthy();
    expect(streamed.headers.get('ratelimit')).toMatch(/^"daily";r=99;t=\d+$/);
    await streamed.body?.cancel();
  });

  it("a session belongs to its key's user: another user's key gets 404 for it", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keyA}` } } });
    const client = new Client({ name: 'vibeeval-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': transport.sessionId!,
      'mcp-protocol-version': '2025-06-18',
    };
    const asB = await rawRequest(server.origin, { method: 'POST', path: '/mcp', headers: { ...headers, authorization: `Bearer ${keyB}` }, body: list });
    expect(asB.status).toBe(404);
    expect(asB.text).not.toContain('scan_url');
    const deleteAsB = await rawRequest(server.origin, { method: 'DELETE', path: '/mcp', headers: { ...headers, authorization: `Bearer ${keyB}` } });
    expect(deleteAsB.status).toBe(404);
    // The session still works for its owner.
    expect((await client.listTools()).tools).toHaveLength(6);
  });

  it('explain_finding says when a finding was suppressed and why', async () => {
    const projects = (await rawRequest(server.origin, { method: 'GET', path: '/v1/projects', headers: { authorization: `Bearer ${keyA}` } })).json as {
      projects: { id: string; url: string }[];
    };
    const projectId = projects.projects.find((p) => p.url === siteUrl)!.id;
    const decided = await rawRequest(server.origin, {
      method: 'PUT',
      path: `/v1/projects/${projectId}/decisions/${envFindingId}`,
      headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'accepted_risk', reason: 'Demo values only', expires_at: '2099-01-31' }),
    });
    expect(decided.status, decided.text).toBe(200);
    const client = await connect(keyA);
    const result = (await client.callTool({ name: 'explain_finding', arguments: { scan_id: scanId, finding_id: envFindingId } })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(/^Suppressed: marked as accepted risk until 2099-01-31, so it is left out of the score and counts\. Reason: Demo values only/);
    expect(textOf(result)).toContain('## What to change');
    expect((result.structuredContent as { suppression: unknown }).suppression).toEqual({
      decision: 'accepted_risk',
      reason: 'Demo values only',
      expires_at: '2099-01-31T23:59:59.999Z',
    });
  });

  it('set_decision and list_decisions change and list decisions as the dashboard does; another key finds no project', async () => {
    const projects = (await rawRequest(server.origin, { method: 'GET', path: '/v1/projects', headers: { authorization: `Bearer ${keyA}` } })).json as {
      projects: { id: string; url: string }[];
    };
    const projectId = projects.projects.find((p) => p.url === siteUrl)!.id;
    const client = await connect(keyA);
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

    const noReason = await call('set_decision', { project_id: projectId, finding_id: envFindingId, decision: 'false_positive' });
    expect(noReason.isError).toBe(true);
    expect(textOf(noReason)).toBe(TRIAGE_TEXTS.reasonRequired);
    const marked = await call('set_decision', { project_id: projectId, finding_id: envFindingId, decision: 'false_positive', reason: 'Test fixture values' });
    expect(marked.isError, textOf(marked)).toBeFalsy();
    expect(textOf(marked)).toContain(`- ${envFindingId}: False positive, by `);
    const listed = await call('list_decisions', { project_id: projectId });
    expect((listed.structuredContent as { decisions: Array<{ fingerprint: string; decision: string; reason: string }> }).decisions).toMatchObject([
      { fingerprint: envFindingId, decision: 'false_positive', reason: 'Test fixture values' },
    ]);
    expect(textOf(await call('set_decision', { project_id: projectId, finding_id: envFindingId, decision: 'reopen' }))).toContain('Reopened');
    expect(textOf(await call('list_decisions', { project_id: projectId }))).toBe('No finding of this project is marked as a false positive or an accepted risk.');

    const stranger = await connect(keyB);
    for (const [name, args] of [
      ['list_decisions', { project_id: projectId }],
      ['set_decision', { project_id: projectId, finding_id: envFindingId, decision: 'false_positive', reason: 'taken over' }],
    ] as const) {
      const refused = (await stranger.callTool({ name, arguments: args })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe('Project not found');
    }
  });
});
