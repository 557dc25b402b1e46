/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-explicit-any -- the test reads JSON answers loosely and asserts their shapes */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventStream } from '../../common/event-stream';
import { liveMessageSchema, projectScanResponseSchema, projectSchema, type LiveMessage } from '../../common/projects';
import { findingTally } from '../../common/scan';
import { startTestServer } from '../testing/test-server';
import { callApi, signUp } from '../testing/http';
import { until } from '../testing/until';

let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  // A small site to scan: two pages, no security headers.
  site = http.createServer((req, res) => {
    if (req.url === '/about') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!doctype html><title>About</title><a href="/">Home</a>');
    }
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html', server: 'nginx/1.18.0' });
    res.end('<!doctype html><title>Shop</title><a href="/about">About</a>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startTestServer({ VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0' });
});
afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

let counter = 0;
/** A new account's `api(method, path, body?)`: the answer's status and JSON body (read freely by the tests). */
async function account() {
  const { token } = await signUp(server.origin, `owner${counter++}`);

  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const answer = await callApi(server.origin, method, path, { token, body });
    return { status: answer.status, body: answer.json };
  };
}

const waitFor = <T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000) => until('the probe', probe, timeoutMs, 200);

describe('project API', () => {
  it('creates, lists, reads, updates and deletes projects of the signed-in user only', async () => {
    const api = await account();
    const other = await account();
    const created = await api('POST', '/project', { url: siteUrl, status: 'active', instruction_text: 'Shop', secret_instruction: 'user: a@b.c / pass: hunter22', num_pages: 3 });
    expect(created.status).toBe(201);
    const project = projectSchema.parse(created.body);
    expect(project).toMatchObject({
      url: siteUrl,
      status: 'active',
      instruction_text: 'Shop',
      secret_instruction: 'user: a@b.c / pass: hunter22',
      num_pages: 3,
      last_test: null,
      latest_scan: null,
    });

    expect((await api('GET', '/projects')).body.map((p: { id: string }) => p.id)).toEqual([project.id]);
    expect((await other('GET', '/projects')).body).toEqual([]);
    // Another user's project does not exist for them.
    expect(await other('GET', `/project/${project.id}`)).toEqual({ status: 404, body: { detail: 'Project not found' } });
    expect((await other('PATCH', `/project/${project.id}`, { status: 'archived' })).status).toBe(404);
    expect((await other('DELETE', `/project/${project.id}`)).status).toBe(404);
    expect((await other('PATCH', `/project_test/${project.id}`)).status).toBe(404);
    expect((await other('GET', `/events/project/${project.id}`)).status).toBe(404);

    const updated = await api('PATCH', `/project/${project.id}`, { status: 'completed', num_pages: 5, last_test: '2026-11-21T10:00:00.000Z' });
    expect(updated.body).toMatchObject({ status: 'completed', num_pages: 5, last_test: '2026-11-21T10:00:00.000Z' });
    expect((await api('DELETE', `/project/${project.id}`)).body).toEqual({ message: 'Project deleted' });
    expect((await api('GET', `/project/${project.id}`)).status).toBe(404);
  });

  it('says what is wrong with invalid bodies', async () => {
    const api = await account();
    expect(await api('POST', '/project', { url: 'not a url' })).toEqual({ status: 400, body: { detail: 'Please enter a valid URL' } });
    expect(await api('POST', '/project', { url: siteUrl, instruction_text: 'x'.repeat(1001) })).toEqual({
      status: 400,
      body: { detail: 'Instructions cannot exceed 1000 characters' },
    });
    expect(await api('POST', '/project', { url: siteUrl, num_pages: 0 })).toEqual({ status: 400, body: { detail: 'Number of pages must be at least 1' } });
    const { body } = await api('POST', '/project', { url: siteUrl });
    expect(body).toMatchObject({ status: 'active', num_pages: 1 });
    expect((await api('PATCH', `/project/${body.id}`, { owner: 'me' })).status).toBe(400);
    expect((await api('GET', '/project/not-a-uuid')).status).toBe(404);
  });

  it('takes one or two test accounts in the Credentials field and refuses a third or an unreadable line without echoing it', async () => {
    const api = await account();
    const two = 'alice@example.com S3cret-one\nbob@example.com / S3cret-two';
    const { status, body } = await api('POST', '/project', { url: siteUrl, secret_instruction: two });
    expect(status).toBe(201);
    const third = await api('POST', '/project', { url: siteUrl, secret_instruction: `${two}\ncarol@example.com Th1rd-secret` });
    expect(third).toEqual({ status: 400, body: { detail: 'Credentials line 3: a third account: a scan signs in as at most 2 accounts' } });
    const unreadable = await api('PATCH', `/project/${body.id}`, { secret_instruction: 'alice@example.com S3cret-one\nLonely-Secret' });
    expect(unreadable).toEqual({
      status: 400,
      body: { detail: 'Credentials line 2: cannot read an account: write one account per line as "email password" or "email / password"' },
    });
    expect((await api('GET', `/project/${body.id}`)).body.secret_instruction).toBe(two);
  });

  it("keeps a scan's test-account passwords out of every project answer but the owner's own Credentials field", async () => {
    const api = await account();
    const passwords = ['S3cret-project-one', 'S3cret-project-two'];
    const credentials = `alice@example.com ${passwords[0]}\nbob@example.com / ${passwords[1]}`;
    const { body: project } = await api('POST', '/project', { url: siteUrl, secret_instruction: credentials });
    expect((await api('PATCH', `/project_test/${project.id}`)).status).toBe(200);
    await waitFor(async () => {
      const { body } = await api('GET', `/project/${project.id}/scan`);
      return body.scan?.state === 'completed' || body.scan?.state === 'failed' ? body : undefined;
    });
    // The owner reads the field back (shown masked, with a reveal toggle); nothing else in any answer holds a password.
    const answers = [
      (await api('GET', '/projects')).body.map(({ secret_instruction: field, ...rest }: { secret_instruction: string }) => (expect(field).toBe(credentials), rest)),
      (({ secret_instruction: _field, ...rest }) => rest)((await api('GET', `/project/${project.id}`)).body),
      (await api('GET', `/project/${project.id}/scan`)).body,
      (await api('GET', `/events/project/${project.id}`)).body,
      (await api('GET', '/events/recent?limit=30')).body,
    ];
    expect(JSON.stringify(answers)).toContain('Scan completed');
    for (const answer of answers) for (const password of passwords) expect(JSON.stringify(answer)).not.toContain(password);
  });

  it('runs a real scan as a job, once at a time, with live progress, events and a signed report', async () => {
    const api = await account();
    const { body: project } = await api('POST', '/project', { url: siteUrl, instruction_text: 'Shop', num_pages: 2 });

    // Live stream first, so progress is seen.
    const { body: ticket } = await api('POST', '/live/ticket');
    const messages: LiveMessage[] = [];
    const controller = new AbortController();
    const stream = fetch(`${server.origin}/live?ticket=${ticket.ticket}`, { signal: controller.signal })
      .then(async (response) => {
        expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
        await readEventStream(response.body as unknown as AsyncIterable<Uint8Array>, { onEvent: ({ data }) => messages.push(liveMessageSchema.parse(JSON.parse(data))) });
      })
      .catch(() => undefined);

    const first = await api('PATCH', `/project_test/${project.id}`);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Project test has been started.');
    const second = await api('PATCH', `/project_test/${project.id}`);
    expect(second).toEqual({ status: 409, body: { detail: 'A test of this project is already running.' } });

    const done = await waitFor(async () => {
      const { body } = await api('GET', `/project/${project.id}/scan`);
      const view = projectScanResponseSchema.parse(body);
      return view.scan?.state === 'completed' || view.scan?.state === 'failed' ? view : undefined;
    });
    expect(done.scan?.error).toBeNull();
    expect(done.scan?.state).toBe('completed');
    expect(done.result?.pages.map((page) => new URL(page.url).pathname).sort()).toEqual(['/', '/about']);
    expect(done.result?.findings.some((finding) => finding.checkId === 'server-version-disclosure')).toBe(true);
    expect(done.scan?.grade).toMatch(/^[A-F][+-]?$/);

    const { body: detail } = await api('GET', `/project/${project.id}`);
    expect(detail.last_test).not.toBeNull();
    expect(detail.latest_scan).toMatchObject({ state: 'completed', grade: done.scan?.grade });

    // Events: the site's own (lifecycle, findings) by default; the scanner's page views and requests on asking.
    type Listed = { event_name: string; source: string; extra: { description: string } };
    const kindsOf = (listed: Listed[]) => new Set(listed.map((event) => event.event_name));
    const { body: events } = await api('GET', `/events/project/${project.id}?limit=500`);
    expect(kindsOf(events).has('page_view')).toBe(false);
    expect(new Set(events.map((event: Listed) => event.source))).toEqual(new Set(['site']));
    expect(events.some((event: Listed) => /Scan completed: grade/.test(event.extra.description))).toBe(true);
    const { body: recent } = await api('GET', '/events/recent?limit=500');
    expect(kindsOf(recent).has('page_view')).toBe(false);
    expect(recent.length).toBeGreaterThanOrEqual(3);
    const { body: scanner } = await api('GET', `/events/recent?limit=500&source=scan&project=${project.id}`);
    expect(kindsOf(scanner).has('page_view') && kindsOf(scanner).has('api_call')).toBe(true);
    expect(scanner.every((event: Listed) => event.source === 'scan')).toBe(true);
    const { body: all } = await api('GET', `/events/project/${project.id}?limit=500&source=all`);
    expect(kindsOf(all)).toEqual(new Set(['other', 'page_view', 'api_call', 'error']));
    expect(all).toHaveLength(events.length + scanner.length);

    // Filters: type, project, time range; paginated as before.
    const { body: pageViews } = await api('GET', '/events/recent?source=scan&type=page_view&limit=500');
    expect(pageViews.length).toBeGreaterThan(0);
    expect(pageViews.every((event: Listed) => event.event_name === 'page_view')).toBe(true);
    const { body: otherProject } = await api('GET', `/events/recent?source=all&project=${crypto.randomUUID()}`);
    expect(otherProject).toEqual([]);
    const { body: future } = await api('GET', '/events/recent?source=all&from=2999-01-01');
    expect(future).toEqual([]);
    // Bare dates: `from` at the day's start, `to` through the day's end.
    const days = all.map((event: { timestamp: string }) => event.timestamp.slice(0, 10)).sort();
    const { body: inRange } = await api('GET', `/events/recent?source=all&limit=500&from=${days[0]}&to=${days.at(-1)}`);
    expect(inRange).toHaveLength(all.length);
    const { body: beforeRange } = await api('GET', `/events/recent?source=all&limit=500&to=${all.at(-1).timestamp}`);
    expect(beforeRange).toEqual([]);
    const { body: firstTwo } = await api('GET', '/events/recent?source=scan&limit=2');
    expect(firstTwo).toHaveLength(2);

    // Live: progress and the final state arrived.
    await waitFor(async () => (messages.some((m) => m.type === 'scan.state' && m.scan.state === 'completed') ? true : undefined), 10_000);
    expect(messages.some((m) => m.type === 'scan.progress' && m.progress.phase === 'crawl')).toBe(true);
    expect(messages.some((m) => m.type === 'event')).toBe(true);
    controller.abort();
    await stream;

    // The security report: a signed link that works without a token, and fails when tampered with.
    const { body: links } = await api('GET', '/report_links/recent');
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ url: siteUrl, type: 'security', project_id: project.id });
    // The dashboard's words and split are the public API's: issues (critical, high, medium) and warnings (low).
    const tally = findingTally(done.result!.counts);
    expect({ issues: links[0].total_issues, warnings: links[0].warnings }).toEqual(tally);
    expect(tally.issues + tally.warnings).toBeGreaterThan(0);
    const { body: report } = await api('GET', `/reports/${links[0].id}`);
    expect({ issues: report.total_issues, warnings: report.warnings }).toEqual(tally);
    const view = await fetch(links[0].report_url);
    expect(view.status).toBe(200);
    expect(await view.text()).toContain('vibeeval');
    const tampered = links[0].report_url.replace(/sig=./, (match: string) => (match.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await fetch(tampered)).status).toBe(403);
    const expired = links[0].report_url.replace(/exp=\d+/, 'exp=1000');
    expect((await fetch(expired)).status).toBe(403);
    const preview = await fetch(`${server.origin}/report-preview?signed_url=${encodeURIComponent(links[0].report_url)}`);
    const page = await preview.text();
    expect(preview.status).toBe(200);
    expect(page).toContain('<iframe');
    for (const format of ['html', 'csv', 'json', 'sarif']) {
      const href = new RegExp(`href="([^"]+/export/${format}[^"]*)"`).exec(page)?.[1]?.replaceAll('&amp;', '&');
      expect(href, format).toBeDefined();
      const exported = await fetch(`${server.origin}${href}`);
      expect(exported.status, format).toBe(200);
      expect(exported.headers.get('content-disposition')).toMatch(/attachment; filename="vibeeval-/);
    }
  });
});

describe('report generation', () => {
  async function waitReport(api: Awaited<ReturnType<typeof account>>, id: string) {
    return waitFor(async () => {
      const { body } = await api('GET', `/reports/${id}`);
      return body.state === 'completed' || body.state === 'failed' ? body : undefined;
    }, 90_000);
  }

  it('generates the four report types from real measurements of the site', async () => {
    const api = await account();
    const { body: project } = await api('POST', '/project', { url: siteUrl, instruction_text: 'Shop', num_pages: 2 });

    // Security with no finished scan yet: a scan starts and the report waits for it.
    const security = await api('POST', '/reports', { project_id: project.id, type: 'security' });
    expect(security.status).toBe(202);
    expect(security.body.state).toBe('queued');
    const securityDone = await waitReport(api, security.body.id);
    expect(securityDone).toMatchObject({ state: 'completed', type: 'security' });
    expect((await fetch(securityDone.report_url)).status).toBe(200);

    const analytics = await api('POST', '/reports', { project_id: project.id, type: 'analytics' });
    const analyticsDone = await waitReport(api, analytics.body.id);
    expect(analyticsDone.state).toBe('completed');
    const analyticsHtml = await (await fetch(analyticsDone.report_url)).text();
    expect(analyticsHtml).toMatch(/page_view|Page view/i);
    // Real visits only: the scan's own page loads are not the site's visitors.
    const { body: scanPageViews } = await api('GET', `/events/project/${project.id}?source=scan&type=page_view`);
    expect(scanPageViews.length).toBeGreaterThan(0);
    const analyticsJson: any = await (await fetch(analyticsDone.report_url.replace('/view?', '/export/json?'))).json();
    expect(analyticsJson.byKind.page_view).toBe(0);
    expect(analyticsJson.byKind.other).toBeGreaterThan(0);

    for (const type of ['performance', 'accessibility'] as const) {
      const started = await api('POST', '/reports', { project_id: project.id, type });
      expect(started.status).toBe(202);
      const done = await waitReport(api, started.body.id);
      expect(done.error).toBeNull();
      expect(done.state).toBe('completed');
      const csv = await fetch(done.report_url.replace('/view?', '/export/csv?'));
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    }
    const { body: recent } = await api('GET', '/report_links/recent');
    expect(new Set(recent.map((link: { type: string }) => link.type))).toEqual(new Set(['security', 'analytics', 'performance', 'accessibility']));
    // Another user cannot read or generate them.
    const other = await account();
    expect((await other('GET', `/reports/${security.body.id}`)).status).toBe(404);
    expect((await other('POST', '/reports', { project_id: project.id, type: 'analytics' })).status).toBe(404);
  }, 180_000);
});
