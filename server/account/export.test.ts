import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_EXPORT_SECTIONS } from '../../common/preferences';
import { signUp } from '../testing/http';
import { personalWorkspace } from '../testing/workspace-rows';
import { EXPORT_SOURCES } from './export';
import { SECRET_MARKER, startAccountHarness, type AccountHarness, type User } from './testing';

// GET /account/export on a real server: the head (email, both settings), every section of the user's own
// records and nothing secret, the attachment's name, and the stream: a large account is never held at once.

let h: AccountHarness;
beforeAll(async () => {
  h = await startAccountHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

const collectGarbage: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
const liveHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

/**
 * Downloads the export as a stream, keeping only its size. Halfway the reader stops taking bytes: the server fills
 * the socket's buffers and waits (backpressure); what it holds then, after a full garbage collection, is measured
 * against the heap before the request. The server runs in this process, so its heap is this heap.
 */
async function streamedExport(user: User): Promise<{ bytes: number; heldWhilePaused: number }> {
  const base = liveHeap();
  const response = await fetch(`${h.server.origin}/account/export`, { headers: { authorization: `Bearer ${user.token}` } });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let bytes = 0;
  let held = 0;
  let paused = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (!paused && bytes > 2_000_000) {
      paused = true;
      await new Promise((resolve) => setTimeout(resolve, 400));
      held = liveHeap() - base;
    }
  }
  if (!paused) held = liveHeap() - base;
  return { bytes, heldWhilePaused: held };
}

describe('GET /account/export', () => {
  it('downloads a JSON file that opens with the email and the two settings and holds every section, nothing secret', async () => {
    const a = await h.fullAccount('export');
    const other = await h.fullAccount('export-other');
    await h.call(a.user, 'PATCH', '/preferences', { email_notifications: false });
    const decided = await h.call(a.user, 'PUT', `/project/${a.projectId}/decisions/abcdefabcdefabcd`, { decision: 'false_positive', reason: 'Test values only' });
    expect(decided.status, decided.text).toBe(200);
    await h.pool.query(
      `insert into finding_rechecks (workspace_id, user_id, project_id, fingerprint, check_id, title, url, state, status, finished_at)
       values ($1, $1, $2, 'abcdefabcdefabcd', 'exposed-env-file', 'Exposed .env file', 'https://example.com/.env', 'completed', 'fixed', now())`,
      [a.user.id, a.projectId],
    );
    const answer = await h.call(a.user, 'GET', '/account/export');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toContain('application/json');
    const document = answer.json as Record<string, unknown[]> & { email: string };
    expect(Object.keys(document)).toEqual(['email', 'email_notifications', 'webhook_notifications', 'exported_at', ...ACCOUNT_EXPORT_SECTIONS]);
    expect(document).toMatchObject({ email: a.user.email, email_notifications: false, webhook_notifications: true });
    const ids = (section: string) => (document[section] as { id: string }[]).map((row) => row.id);
    expect(ids('projects')).toEqual([a.projectId]);
    expect(ids('scans')).toEqual([a.scanId]);
    expect(ids('reports')).toEqual([a.reportId]);
    expect(ids('scenarios')).toEqual([a.scenarioId]);
    expect(ids('scenario_runs')).toHaveLength(1);
    // The run's lifecycle keeps the name the export and the API give it, whatever the column is called.
    expect(Object.keys(document.scenario_runs![0]!)).toEqual(expect.arrayContaining(['status']));
    expect(Object.keys(document.scenario_runs![0]!)).not.toContain('state');
    expect(ids('webhooks')).toEqual([a.webhook.id]);
    expect(document.finding_decisions).toEqual([
      expect.objectContaining({ project_id: a.projectId, fingerprint: 'abcdefabcdefabcd', decision: 'false_positive', reason: 'Test values only', decided_by: a.user.id }),
    ]);
    expect(document.finding_rechecks).toEqual([expect.objectContaining({ project_id: a.projectId, fingerprint: 'abcdefabcdefabcd', title: 'Exposed .env file', status: 'fixed' })]);
    expect(document.api_keys).toEqual([expect.objectContaining({ id: a.key.id, name: 'export key', last_four: a.key.key.slice(-4) })]);
    expect(document.subscriptions).toEqual([expect.objectContaining({ status: 'active', price_id: 'price_local_pro_month' })]);
    expect((document.events as { scan_id: string | null }[]).some((event) => event.scan_id === a.scanId)).toBe(true);
    for (const secret of [
      SECRET_MARKER,
      a.webhook.secret,
      a.key.key,
      'secret_instruction_sealed',
      'secret_sealed',
      'key_hash',
      '"screenshot"',
      other.projectId,
      other.user.email,
    ]) {
      expect(answer.text.includes(secret), secret).toBe(false);
    }
  });

  it('the download is an attachment named vibeeval-data-<date>.json', async () => {
    const user = await signUp(h.server.origin, 'export-name');
    const response = await fetch(`${h.server.origin}/account/export`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="vibeeval-data-${new Date().toISOString().slice(0, 10)}.json"`);
    const empty = (await response.json()) as Record<string, unknown>;
    expect(empty).toMatchObject({ email: user.email, email_notifications: true, webhook_notifications: false, projects: [], events: [] });
  });

  it('no exported column looks like a secret', async () => {
    for (const source of Object.values(EXPORT_SOURCES)) {
      const { rows } = await h.pool.query<{ column_name: string }>('select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1', [
        source.table,
      ]);
      const exported = rows.map((row) => row.column_name).filter((name) => !source.omit.includes(name));
      expect(exported.length, source.table).toBeGreaterThan(2);
      expect(
        exported.filter((name) => /secret|sealed|key_hash|password|refresh_token|token_hash|screenshot|trace/.test(name)),
        source.table,
      ).toEqual([]);
    }
  });

  it('streams a large account: thousands of events, memory bounded like a small account', async () => {
    const small = await signUp(h.server.origin, 'export-small');
    const large = await signUp(h.server.origin, 'export-large');
    const EVENTS = 6000;
    const filler = 'x'.repeat(2000);
    for (const user of [small, large]) await personalWorkspace(h.pool, user.id, user.email);
    await h.pool.query(
      `insert into events (workspace_id, user_id, event_name, url, extra) select $1, $1, 'page_load', 'https://shop.example/' || g, jsonb_build_object('n', g, 'filler', $2::text) from generate_series(1, $3) g`,
      [large.id, filler, EVENTS],
    );
    await h.pool.query(
      `insert into events (workspace_id, user_id, event_name, url, extra) select $1, $1, 'page_load', 'https://shop.example/' || g, jsonb_build_object('n', g) from generate_series(1, 10) g`,
      [small.id],
    );
    await streamedExport(small); // warm-up: the route's code paths compiled before measuring
    const smallRun = await streamedExport(small);
    const largeRun = await streamedExport(large);
    // The reference: what a handler that read the whole account before answering would hold (its rows as objects).
    const before = liveHeap();
    const whole = (await h.pool.query('select to_jsonb(e) as row from events e where user_id = $1', [large.id])).rows;
    const loaded = liveHeap() - before;
    expect(whole).toHaveLength(EVENTS);
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    console.log(
      `account export: small account ${smallRun.bytes} B, held ${mb(smallRun.heldWhilePaused)}; large (${EVENTS} events) ${mb(largeRun.bytes)}, held while paused ${mb(largeRun.heldWhilePaused)}; ` +
        `the large account's events loaded at once ${mb(loaded)} (ratio held/loaded ${(largeRun.heldWhilePaused / loaded).toFixed(3)})`,
    );
    expect(largeRun.bytes).toBeGreaterThan(EVENTS * 2000);
    // Held at once: a page of rows and the socket's buffers, a small part of the account loaded whole.
    expect(largeRun.heldWhilePaused).toBeLessThan(loaded / 3);
    // Complete and in order, every event once.
    const parsed = (await (await fetch(`${h.server.origin}/account/export`, { headers: { authorization: `Bearer ${large.token}` } })).json()) as {
      events: { extra: { n: number } }[];
    };
    expect(parsed.events).toHaveLength(EVENTS);
    expect(new Set(parsed.events.map((event) => event.extra.n)).size).toBe(EVENTS);
  }, 30_000);
});
