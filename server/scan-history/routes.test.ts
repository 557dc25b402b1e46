import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScanResult } from '../../common/scan';
import { SCAN_HISTORY_TEXTS, type ScanDiffResponse, type ScanHistoryItem } from '../../common/scan-history';
import { loadSampleResult, parseCsv } from '../../engine/report/__fixtures__/load';
import { insertApiKey } from '../mcp/testing';
import { apiCaller, callApi, signUp } from '../testing/http';
import { startTestServer, type TestServer } from '../testing/test-server';

// The scan history routes of the dashboard (/project/{id}/scans, /scans/diff) and of the public API
// (/v1/projects/{id}/scans...) against a real server and database: what started each scan, pages, the diff between
// any two completed scans of the project (and only of it), clear 400/404 answers, another workspace's project 404.

let server: TestServer;
let db: pg.Client;

beforeAll(async () => {
  // No scan workers: queued scans stay queued, and completed ones are written here.
  server = await startTestServer({ VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0', VIBEEVAL_API_PLAN: 'enterprise' });
  db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
}, 60_000);
afterAll(async () => {
  await db?.end();
  await server?.stop();
});

const call = apiCaller(() => server.origin);

async function projectOf(token: string, url = 'https://history.example.com/'): Promise<string> {
  const created = await call(token, 'POST', '/project', { url });
  expect(created.status, created.text).toBe(201);
  return (created.json as { id: string }).id;
}

/** A completed scan of the project, finished `minutesAgo` before now, with these results. */
async function completedScan(projectId: string, userId: string, result: ScanResult, minutesAgo: number, trigger = 'manual'): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into scans (project_id, user_id, workspace_id, url, num_pages, state, result, score, grade, counts, trigger, queued_at, finished_at)
     values ($1, $2, $2, $3, 1, 'completed', $4, $5, $6, $7, $8, now() - make_interval(mins => $9 + 1), now() - make_interval(mins => $9))
     returning id`,
    [projectId, userId, result.target.url, JSON.stringify(result), result.score, result.grade, JSON.stringify(result.counts), trigger, minutesAgo],
  );
  return rows[0]!.id;
}

/** The sample result, its first finding fixed and a new one found. */
function laterResult(sample: ScanResult): ScanResult {
  const [gone, ...kept] = sample.findings;
  const added = { ...gone!, fingerprint: 'abcdefabcdefabcd', title: 'A new hole', severity: 'high' as const };
  return { ...sample, findings: [...kept, added] };
}

describe('scan history routes', () => {
  it('lists every scan newest first with what started it, in pages', async () => {
    const user = await signUp(server.origin, 'history-list');
    const project = await projectOf(user.token);
    const sample = loadSampleResult();
    const scheduled = await completedScan(project, user.id, sample, 60, 'schedule');
    const changed = await completedScan(project, user.id, sample, 30, 'site_change');
    // Run Test from the dashboard: manual; the public API: api.
    expect((await call(user.token, 'PATCH', `/project_test/${project}`)).status).toBe(200);
    const history = (await call(user.token, 'GET', `/project/${project}/scans`)).json as ScanHistoryItem[];
    expect(history.map((scan) => [scan.state, scan.trigger])).toEqual([
      ['queued', 'manual'],
      ['completed', 'site_change'],
      ['completed', 'schedule'],
    ]);
    expect(history[1]).toMatchObject({ id: changed, grade: sample.grade, score: sample.score, counts: sample.counts, error: null });
    expect(history[2]!.id).toBe(scheduled);

    const first = await call(user.token, 'GET', `/project/${project}/scans?limit=2`);
    expect((first.json as ScanHistoryItem[]).map((scan) => scan.trigger)).toEqual(['manual', 'site_change']);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toEqual(expect.any(String));
    expect(((await call(user.token, 'GET', `/project/${project}/scans?limit=2&cursor=${cursor}`)).json as ScanHistoryItem[]).map((scan) => scan.id)).toEqual([scheduled]);
    expect((await call(user.token, 'GET', `/project/${project}/scans?limit=0`)).json).toEqual({ detail: 'limit: must be at least 1' });
    expect((await call(user.token, 'GET', `/project/${project}/scans?cursor=bogus`)).status).toBe(400);

    const key = await insertApiKey(server.databaseUrl, user.id);
    const other = await projectOf(user.token, 'https://api-history.example.com/');
    expect((await call(key, 'POST', '/v1/scans', { projectId: other })).status).toBe(202);
    expect(((await call(key, 'GET', `/v1/projects/${other}/scans`)).json as { scans: ScanHistoryItem[] }).scans.map((scan) => scan.trigger)).toEqual(['api']);
  });

  it("records a site change reported by the monitoring script as the re-scan's trigger", async () => {
    const user = await signUp(server.origin, 'history-site');
    const project = await projectOf(user.token, 'https://site-change.example.com/');
    const token = ((await call(user.token, 'GET', `/project/${project}`)).json as { site_token: string }).site_token;
    const report = await callApi(server.origin, 'POST', '/continuous-testing', {
      body: { site_token: token, hash: 'c0ffee02', hostname: 'site-change.example.com' },
      headers: { origin: 'https://site-change.example.com' },
    });
    expect(report.status, report.text).toBe(202);
    const scans = await vi.waitFor(
      async () => {
        const listed = (await call(user.token, 'GET', `/project/${project}/scans`)).json as ScanHistoryItem[];
        expect(listed).toHaveLength(1);
        return listed;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(scans[0]!.trigger).toBe('site_change');
  });

  it('shows what is new, fixed and unchanged between any two completed scans, latest against previous by default', async () => {
    const user = await signUp(server.origin, 'history-diff');
    const project = await projectOf(user.token);
    const path = `/project/${project}/scans/diff`;
    expect((await call(user.token, 'GET', path)).json).toEqual({ detail: SCAN_HISTORY_TEXTS.noCompleted });

    const sample = loadSampleResult();
    const earlier = await completedScan(project, user.id, sample, 60);
    // The first completed scan has nothing before it: every finding is new.
    const alone = (await call(user.token, 'GET', path)).json as ScanDiffResponse;
    expect(alone).toMatchObject({ from: null, to: { id: earlier }, counts: { new: sample.findings.length, fixed: 0, unchanged: 0 } });
    // Each listed finding says what was found, so two findings of one check on one page read apart.
    expect(alone.new.map((finding) => finding.detail)).toEqual(expect.arrayContaining(sample.findings.map((finding) => finding.detail)));

    const later = await completedScan(project, user.id, laterResult(sample), 10);
    const diff = (await call(user.token, 'GET', path)).json as ScanDiffResponse;
    expect(diff.from!.id).toBe(earlier);
    expect(diff.to.id).toBe(later);
    expect(diff.counts).toEqual({ new: 1, fixed: 1, unchanged: sample.findings.length - 1 });
    expect(diff.new.map((f) => [f.fingerprint, f.title])).toEqual([['abcdefabcdefabcd', 'A new hole']]);
    expect(diff.fixed.map((f) => f.fingerprint)).toEqual([sample.findings[0]!.fingerprint]);
    // Most severe first.
    expect(diff.unchanged[0]!.severity).toBe('critical');
    expect(diff.unchanged.at(-1)!.severity).toBe('info');

    // Any two, either way round: from the later to the earlier, the new one is 'fixed'.
    const backwards = (await call(user.token, 'GET', `${path}?from=${later}&to=${earlier}`)).json as ScanDiffResponse;
    expect(backwards.counts).toEqual({ new: 1, fixed: 1, unchanged: sample.findings.length - 1 });
    expect(backwards.fixed.map((f) => f.fingerprint)).toEqual(['abcdefabcdefabcd']);
    // `to` alone: compared with the completed scan before it.
    expect(((await call(user.token, 'GET', `${path}?to=${later}`)).json as ScanDiffResponse).from!.id).toBe(earlier);

    // A decided finding is neither new nor fixed.
    await call(user.token, 'PUT', `/project/${project}/decisions/abcdefabcdefabcd`, { decision: 'false_positive', reason: 'Test page' });
    expect(((await call(user.token, 'GET', path)).json as ScanDiffResponse).counts).toMatchObject({ new: 0, fixed: 1 });
  });

  it("says in the re-scan's reports what changed since the previous scan (HTML, JSON, SARIF, CSV)", async () => {
    const user = await signUp(server.origin, 'history-report');
    const project = await projectOf(user.token);
    const sample = loadSampleResult();
    const first = await completedScan(project, user.id, sample, 60);
    const later = await completedScan(project, user.id, laterResult(sample), 10);
    await db.query(
      `insert into reports (user_id, workspace_id, project_id, scan_id, type, url, state, total_issues, finished_at)
       values ($1, $1, $2, $3, 'security', $4, 'completed', 0, now() - interval '60 minutes'), ($1, $1, $2, $5, 'security', $4, 'completed', 0, now())`,
      [user.id, project, first, sample.target.url, later],
    );
    const links = (await call(user.token, 'GET', '/report_links/recent')).json as { id: string; report_url: string }[];
    expect(links).toHaveLength(2);
    // The history names each scan's report (newest scan first), and so does the diff.
    const history = (await call(user.token, 'GET', `/project/${project}/scans`)).json as ScanHistoryItem[];
    expect(history.map((scan) => scan.id)).toEqual([later, first]);
    expect(history.map((scan) => scan.report_id).sort()).toEqual(links.map((link) => link.id).sort());
    const diff = (await call(user.token, 'GET', `/project/${project}/scans/diff`)).json as ScanDiffResponse;
    expect([diff.to.report_id, diff.from?.report_id]).toEqual(history.map((scan) => scan.report_id));
    const [latest, earliest] = history.map((scan) => links.find((link) => link.id === scan.report_id));
    const html = await (await fetch(latest!.report_url)).text();
    expect(html).toContain('<h2>Since the previous scan</h2>');
    expect(html).toContain('1 new, 1 fixed');
    expect(html).toContain('A new hole');
    // The project's first scan has nothing to compare with.
    expect(await (await fetch(earliest!.report_url)).text()).not.toContain('Since the previous scan');
    const json = (await (await fetch(latest!.report_url.replace('/view?', '/export/json?'))).json()) as {
      sincePrevious: { new: number; fixed: number; newFingerprints: string[] };
    };
    expect(json.sincePrevious).toMatchObject({ new: 1, fixed: 1, newFingerprints: ['abcdefabcdefabcd'] });
    const sarif = (await (await fetch(latest!.report_url.replace('/view?', '/export/sarif?'))).json()) as {
      runs: { results: { baselineState: string; partialFingerprints: Record<string, string> }[]; properties: { fixedSincePreviousScan: { fingerprint: string }[] } }[];
    };
    const states: Record<string, string> = Object.fromEntries(sarif.runs[0]!.results.map((r) => [r.partialFingerprints['vibeevalFingerprint/v1']!, r.baselineState]));
    expect(states.abcdefabcdefabcd).toBe('new');
    expect(states[sample.findings[1]!.fingerprint]).toBe('unchanged');
    // The finding fixed since: in the run's property bag, not a result (GitHub would read it as an open alert).
    expect(states[sample.findings[0]!.fingerprint]).toBeUndefined();
    expect(sarif.runs[0]!.properties.fixedSincePreviousScan.map((fixed) => fixed.fingerprint)).toEqual([sample.findings[0]!.fingerprint]);
    // The CSV: a last 'change' column, and the fixed finding as a row marked fixed.
    const csv = await (await fetch(latest!.report_url.replace('/view?', '/export/csv?'))).text();
    const rows = parseCsv(csv).filter((row) => !row[0]!.startsWith('#'));
    expect(rows[0]!.at(-1)).toBe('change');
    const change = (fingerprint: string) => rows.find((row) => row[9] === fingerprint)?.at(-1);
    expect([change('abcdefabcdefabcd'), change(sample.findings[1]!.fingerprint), change(sample.findings[0]!.fingerprint)]).toEqual(['new', 'unchanged', 'fixed']);
    expect(csv).toContain('# Since the previous scan (');
  });

  it('refuses bad ids, scans of another project, scans without results and one scan twice, saying why', async () => {
    const user = await signUp(server.origin, 'history-bad');
    const project = await projectOf(user.token);
    const other = await projectOf(user.token, 'https://other-history.example.com/');
    const sample = loadSampleResult();
    const mine = await completedScan(project, user.id, sample, 30);
    const theirs = await completedScan(other, user.id, sample, 20);
    expect((await call(user.token, 'PATCH', `/project_test/${project}`)).status).toBe(200);
    const queued = ((await call(user.token, 'GET', `/project/${project}/scans`)).json as ScanHistoryItem[])[0]!.id;
    const path = `/project/${project}/scans/diff`;
    const answers: [string, number, unknown][] = [
      [`${path}?from=nope&to=${mine}`, 400, 'from: must be a scan id'],
      [`${path}?to=${mine}&extra=1`, 400, expect.any(String)],
      [`${path}?from=${theirs}&to=${mine}`, 404, SCAN_HISTORY_TEXTS.notFound],
      [`${path}?from=${mine}&to=${queued}`, 400, SCAN_HISTORY_TEXTS.notCompleted('to')],
      [`${path}?from=${mine}&to=${mine}`, 400, 'from and to must be two different scans'],
      [`${path}?from=${mine}`, 400, 'from and to must be two different scans'],
    ];
    for (const [url, status, detail] of answers) {
      const answer = await call(user.token, 'GET', url);
      expect([answer.status, answer.json], url).toEqual([status, { detail }]);
    }
  });

  it('works with an API key under /v1, and another workspace’s project is 404 on every route', async () => {
    const owner = await signUp(server.origin, 'history-owner');
    const stranger = await signUp(server.origin, 'history-stranger');
    const project = await projectOf(owner.token);
    const sample = loadSampleResult();
    const earlier = await completedScan(project, owner.id, sample, 60);
    const later = await completedScan(project, owner.id, laterResult(sample), 5);
    const key = await insertApiKey(server.databaseUrl, owner.id);
    const strangerKey = await insertApiKey(server.databaseUrl, stranger.id);

    const page = (await call(key, 'GET', `/v1/projects/${project}/scans?limit=1`)).json as { scans: ScanHistoryItem[]; next_cursor: string | null };
    expect(page.scans.map((scan) => scan.id)).toEqual([later]);
    expect(page.next_cursor).toEqual(expect.any(String));
    const diff = (await call(key, 'GET', `/v1/projects/${project}/scans/diff?from=${earlier}&to=${later}`)).json as ScanDiffResponse;
    expect(diff.counts).toEqual({ new: 1, fixed: 1, unchanged: sample.findings.length - 1 });

    const attempts: [string, string][] = [
      [stranger.token, `/project/${project}/scans`],
      [stranger.token, `/project/${project}/scans/diff?to=${later}`],
      [strangerKey, `/v1/projects/${project}/scans`],
      [strangerKey, `/v1/projects/${project}/scans/diff?to=${later}`],
    ];
    for (const [token, path] of attempts) expect((await call(token, 'GET', path)).json, path).toEqual({ detail: 'Project not found' });
    // The stranger's own project cannot reach the owner's scans either.
    const strangers = await projectOf(stranger.token);
    expect((await call(stranger.token, 'GET', `/project/${strangers}/scans/diff?from=${earlier}&to=${later}`)).json).toEqual({ detail: SCAN_HISTORY_TEXTS.notFound });
  });
});
