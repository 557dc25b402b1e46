import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continuousBuildSchema, type ContinuousBuild } from '../../common/continuous';
import { readEventStream } from '../../common/event-stream';
import { liveMessageSchema, type LiveMessage } from '../../common/projects';
import { startWebhookHarness, until, type TestUser, type WebhookHarness } from '../webhooks/testing';

// Continuous builds judged by real re-scans on a real server: a local site whose content the test changes between
// reports (clean, then an exposed .env (high), then a directory index (medium), then down), each report making a
// build whose re-scan is compared with the scan before it. The builds are read back from GET /continuous_builds,
// the judged ones also from the live stream and a webhook receiver that verifies their signatures.

type Mode = 'clean' | 'env' | 'listing';
let mode: Mode = 'clean';
let site: http.Server;
let siteUrl: string;
let h: WebhookHarness;

const PAGE = '<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1><p>Fresh bread daily.</p></body></html>';

function answer(path: string, res: http.ServerResponse): void {
  if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  if (mode === 'env' && path === '/.env') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('APP_NAME=shop\nDEBUG=false\nPORT=3000\nLOG_LEVEL=info\n');
  if (mode === 'listing' && path === '/uploads/') {
    return void res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><head><title>Index of /uploads/</title></head><body><h1>Index of /uploads/</h1><a href="../">../</a><a href="invoice-1.pdf">invoice-1.pdf</a></body></html>');
  }
  res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><p>Nothing here.</p>');
}

beforeAll(async () => {
  site = http.createServer((req, res) => answer((req.url ?? '/').split('?')[0]!, res));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  h = await startWebhookHarness({
    VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true',
    VIBEEVAL_SCAN_RENDER: 'false',
    VIBEEVAL_SCAN_RATE: '0',
    VIBEEVAL_SCAN_CONCURRENCY: '2',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
    LOG_LEVEL: 'error', // the down site's failed scan is expected
  });
}, 60_000);
afterAll(async () => {
  await h?.stop();
  if (site.listening) await new Promise<void>((resolve) => site.close(() => resolve()));
});

async function json<T>(user: TestUser, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await h.call(user, method, path, body);
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
  return answer.json as T;
}

/** A one-page project of the local site, its site token, and a finished first scan when `baseline`. */
async function project(user: TestUser, baseline: boolean): Promise<{ id: string; siteToken: string }> {
  const { id } = await json<{ id: string }>(user, 'POST', '/project', { url: siteUrl, num_pages: 1 });
  const { site_token: siteToken } = await json<{ site_token: string }>(user, 'GET', `/project/${id}`);
  if (baseline) {
    await json(user, 'PATCH', `/project_test/${id}`);
    await until(
      'the baseline scan',
      async () => {
        const { scan } = await json<{ scan: { state: string } | null }>(user, 'GET', `/project/${id}/scan`);
        return scan?.state === 'completed' || scan?.state === 'failed' ? scan : undefined;
      },
      30_000,
    );
  }
  return { id, siteToken };
}

/** Reports a hash as the monitoring script would; the new build's id. */
async function report(siteToken: string, hash: string): Promise<string> {
  const response = await fetch(`${h.server.origin}/continuous-testing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: siteUrl.slice(0, -1) },
    body: JSON.stringify({ site_token: siteToken, hash, hostname: '127.0.0.1' }),
  });
  const body = (await response.json()) as { build_id?: string; changed?: boolean };
  expect(response.status).toBe(202);
  return body.build_id ?? '';
}

async function builds(user: TestUser, projectId: string): Promise<ContinuousBuild[]> {
  const list = await json<unknown[]>(user, 'GET', `/continuous_builds?project_id=${projectId}`);
  return list.map((item) => continuousBuildSchema.parse(item));
}

/** The newest build of the project once its re-scan has judged it. */
async function judged(user: TestUser, projectId: string, hash: string): Promise<ContinuousBuild> {
  return until(
    `the build ${hash} judged`,
    async () => {
      const [newest] = await builds(user, projectId);
      return newest?.build_hash === hash && newest.finished_at ? newest : undefined;
    },
    30_000,
  );
}

/** The user's live stream, collected until `stop()`. */
async function listen(user: TestUser): Promise<{ messages: LiveMessage[]; stop(): void }> {
  const { ticket } = await json<{ ticket: string }>(user, 'POST', '/live/ticket');
  const messages: LiveMessage[] = [];
  const controller = new AbortController();
  const response = await fetch(`${h.server.origin}/live?ticket=${ticket}`, { signal: controller.signal });
  readEventStream(response.body as unknown as AsyncIterable<Uint8Array>, { onEvent: ({ data }) => messages.push(liveMessageSchema.parse(JSON.parse(data))) }).catch(
    () => undefined,
  );
  return { messages, stop: () => controller.abort() };
}

describe('continuous builds judged by re-scans', () => {
  it("joins the scan already queued or running instead of queueing a second one, and runs the project's scenarios", async () => {
    const user = (await h.userWithWebhook('/joined')).user;
    const { id, siteToken } = await project(user, false);
    const scenario = await json<{ id: string }>(user, 'POST', '/scenarios', { project_id: id, website: siteUrl, actions: [{ type: 'expect_title', text: 'Shop' }] });
    const { scan_id: running } = await json<{ scan_id: string }>(user, 'PATCH', `/project_test/${id}`);
    const buildId = await report(siteToken, '0a0a0a0a');
    const [made] = await builds(user, id);
    expect(made).toMatchObject({ id: buildId, scan_id: running });
    // Scenario runs wait in the queue here (no scenario workers in this server).
    const listed = await json<{ id: string; last_run: { status: string } | null }[]>(user, 'GET', '/scenarios');
    expect(listed).toMatchObject([{ id: scenario.id, last_run: { status: 'queued' } }]);
    // Without a scan before it, everything the first scan finds is new; it is judged all the same.
    const done = await judged(user, id, '0a0a0a0a');
    expect(done.scan_id).toBe(running);
    expect(done.changes?.previous_scan_id).toBeNull();
    expect(['success', 'warning', 'error']).toContain(done.status);
  }, 30_000);

  it('judges each new hash by a re-scan: success, error for a new high finding, warning for a new medium one, error when the site is down', async () => {
    const { user } = await h.userWithWebhook('/builds');
    const { id, siteToken } = await project(user, true);
    const live = await listen(user);

    // Nothing changed on the site: nothing new against the baseline scan.
    const a = await report(siteToken, 'aaaaaaaa');
    const success = await judged(user, id, 'aaaaaaaa');
    expect(success).toMatchObject({ id: a, status: 'success', trigger: 'script', project_id: id });
    expect(success.scan_id).not.toBeNull();
    expect(success.changes).toMatchObject({ new_findings: [], new_count: 0, fixed_count: 0, error: null });
    expect(success.changes?.previous_scan_id).not.toBeNull();
    expect(success.changes?.previous_scan_id).not.toBe(success.scan_id);

    // The deploy exposes a .env file: a new high finding.
    mode = 'env';
    const b = await report(siteToken, 'bbbbbbbb');
    const error = await judged(user, id, 'bbbbbbbb');
    expect(error).toMatchObject({ id: b, status: 'error' });
    expect(error.scan_id).not.toBe(success.scan_id);
    expect(error.changes?.previous_scan_id).toBe(success.scan_id);
    expect(error.changes?.new_findings).toEqual([expect.objectContaining({ title: 'Environment file exposed', severity: 'high' })]);
    expect(error.changes?.new_count).toBe(1);
    const scan = await json<{ scan: { id: string; state: string } }>(user, 'GET', `/project/${id}/scan`);
    expect(scan.scan).toMatchObject({ id: error.scan_id, state: 'completed' });

    // The .env is gone and a directory index appears: a new medium finding, the high one fixed.
    mode = 'listing';
    await report(siteToken, 'cccccccc');
    const warning = await judged(user, id, 'cccccccc');
    expect(warning.status).toBe('warning');
    expect(warning.changes?.new_findings).toEqual([expect.objectContaining({ title: 'Directory listing enabled', severity: 'medium' })]);
    expect(warning.changes?.fixed_count).toBe(1);

    // The site is down: the re-scan fails for good and the build is an error carrying the reason.
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
    await report(siteToken, 'dddddddd');
    const broken = await judged(user, id, 'dddddddd');
    expect(broken.status).toBe('error');
    expect(broken.changes?.error).toMatch(/Could not reach/);
    expect(broken.changes?.new_findings).toEqual([]);

    // Each build went out twice on the live stream (made, then judged), the judged ones once to the webhook, signed.
    const pushed = () => live.messages.flatMap((message) => (message.type === 'continuous.build' ? [message.build] : []));
    await until('the last judged build on the live stream', () => pushed().some((build) => build.build_hash === 'dddddddd' && build.finished_at));
    live.stop();
    expect(
      pushed()
        .filter((build) => build.id === b)
        .map((build) => [build.status, build.scan_id]),
    ).toEqual([
      ['other', error.scan_id],
      ['error', error.scan_id],
    ]);
    const hooks = await until('four continuous_build.completed deliveries', () => {
      const got = h.bodies('/builds').filter((entry) => (entry.verified as { type?: string } | null)?.type === 'continuous_build.completed');
      return got.length >= 4 ? got : undefined;
    });
    expect(hooks).toHaveLength(4);
    const events = hooks.map((entry) => (entry.verified as { data: Record<string, unknown> }).data);
    expect(events.find((data) => data.build_hash === 'bbbbbbbb')).toMatchObject({
      build_id: b,
      project_id: id,
      status: 'error',
      scan_id: error.scan_id,
      url: siteUrl,
      new_count: 1,
      new_findings: [{ title: 'Environment file exposed', severity: 'high', fingerprint: error.changes!.new_findings[0]!.fingerprint }],
    });
    expect(events.map((data) => data.status).sort()).toEqual(['error', 'error', 'success', 'warning']);
  }, 55_000);
});
