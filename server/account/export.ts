import { Readable } from 'node:stream';
import type pg from 'pg';
import { ACCOUNT_EXPORT_SECTIONS, type Preferences } from '../../common/preferences';

// GET /account/export writes the JSON document as it reads the rows: each section is read in pages (keyset on
// its time column and id, along the user's own index where there is one), and each page is written before the
// next is read, so a large account never sits in memory at once. Rows are `to_jsonb(row)` minus the columns
// that must not leave: sealed credentials and secrets, key hashes, binary screenshots and traces.

// The records are those of the user's personal workspace (its id is the user's id); shared workspaces' records
// belong to their teams and are not the person's to take. The last section lists the user's memberships.

/** The sections read from one table each; `workspaces` (the memberships) is written apart. */
type Section = Exclude<(typeof ACCOUNT_EXPORT_SECTIONS)[number], 'workspaces'>;

interface SectionSource {
  table: string;
  /** The time column of the keyset (with id): the order of the user's index. */
  time: string;
  /** Columns never exported. */
  omit: string[];
  /** Rows per page: smaller for tables whose rows carry whole results. */
  page: number;
  /** Rows of the user's personal workspace (`workspace_id`), or of the person (`user_id`: subscriptions). */
  scope?: 'workspace' | 'user';
  /** Columns exported under another name: the name the export gave them before the column was renamed. */
  renamed?: Record<string, string>;
}

/** Every table of the export and what it leaves out; a test checks no column of these looks like a secret. */
export const EXPORT_SOURCES: Record<Section, SectionSource> = {
  projects: { table: 'projects', time: 'created_at', omit: ['secret_instruction_sealed'], page: 200 },
  scans: { table: 'scans', time: 'queued_at', omit: [], page: 20 },
  events: { table: 'events', time: 'occurred_at', omit: [], page: 250 },
  reports: { table: 'reports', time: 'created_at', omit: [], page: 20 },
  scenarios: { table: 'scenarios', time: 'created_at', omit: [], page: 200 },
  // Its `state` (migration 0021) stays `status` in the export, as in the API.
  scenario_runs: { table: 'scenario_runs', time: 'created_at', omit: ['screenshot', 'trace'], page: 100, renamed: { state: 'status' } },
  webhooks: { table: 'webhooks', time: 'created_at', omit: ['secret_sealed'], page: 200 },
  api_keys: { table: 'api_keys', time: 'created_at', omit: ['key_hash'], page: 200 },
  continuous_builds: { table: 'continuous_builds', time: 'created_at', omit: [], page: 200 },
  // Triage: who marked which finding as a false positive or an accepted risk, and why.
  finding_decisions: { table: 'finding_decisions', time: 'decided_at', omit: [], page: 500 },
  // Check again: which finding was checked again, when, and the answer.
  finding_rechecks: { table: 'finding_rechecks', time: 'created_at', omit: [], page: 500 },
  subscriptions: { table: 'subscriptions', time: 'created_at', omit: [], page: 100, scope: 'user' },
};

/** The rows of one section, page after page. */
async function* sectionRows(pool: pg.Pool, userId: string, source: SectionSource): AsyncGenerator<unknown[]> {
  const omit = ['user_id', 'workspace_id', ...source.omit];
  const owner = source.scope === 'user' ? 'user_id' : 'workspace_id';
  const row = Object.entries(source.renamed ?? {}).reduce(
    (expr, [column, as]) => `(${expr} - '${column}') || jsonb_build_object('${as}', t.${column})`,
    'to_jsonb(t) - $2::text[]',
  );
  let after: { time: string; id: string } | undefined;
  for (;;) {
    // Table and column names come from EXPORT_SOURCES above, never from the request.
    const { rows } = await pool.query<{ row: unknown; k_time: string; k_id: string }>(
      `select ${row} as row, t.${source.time}::text as k_time, t.id::text as k_id
         from ${source.table} t
        where t.${owner} = $1 ${after ? `and (t.${source.time}, t.id::text) > ($3::timestamptz, $4)` : ''}
        order by t.${source.time}, t.id::text
        limit ${source.page}`,
      after ? [userId, omit, after.time, after.id] : [userId, omit],
    );
    if (rows.length) yield rows.map((r) => r.row);
    if (rows.length < source.page) return;
    const last = rows[rows.length - 1]!;
    after = { time: last.k_time, id: last.k_id };
  }
}

/** The workspaces the user is a member of, with their role (a person is in few: read at once). */
async function memberships(pool: pg.Pool, userId: string): Promise<unknown[]> {
  const { rows } = await pool.query<{ row: unknown }>(
    `select jsonb_build_object('workspace_id', w.id, 'name', w.name, 'personal', w.personal, 'role', m.role, 'joined_at', m.joined_at) as row
       from workspace_members m join workspaces w on w.id = m.workspace_id
      where m.user_id = $1 order by w.personal desc, m.joined_at, w.id`,
    [userId],
  );
  return rows.map((r) => r.row);
}

/** The document's chunks: the head ({email, the two settings, exported_at}), then each section as a JSON array. */
export async function* exportChunks(pool: pg.Pool, user: { id: string; email: string }, preferences: Preferences, now = new Date()): AsyncGenerator<string> {
  const head = {
    email: user.email,
    email_notifications: preferences.email_notifications,
    webhook_notifications: preferences.webhook_notifications,
    exported_at: now.toISOString(),
  };
  yield JSON.stringify(head).slice(0, -1);
  for (const section of ACCOUNT_EXPORT_SECTIONS) {
    yield `,${JSON.stringify(section)}:[`;
    if (section === 'workspaces') {
      yield (await memberships(pool, user.id)).map((row) => JSON.stringify(row)).join(',');
      yield ']';
      continue;
    }
    let first = true;
    for await (const rows of sectionRows(pool, user.id, EXPORT_SOURCES[section])) {
      yield (first ? '' : ',') + rows.map((row) => JSON.stringify(row)).join(',');
      first = false;
    }
    yield ']';
  }
  yield '}\n';
}

/** The export as a byte stream that reads the next page only when the client has taken the previous one. */
export function exportStream(pool: pg.Pool, user: { id: string; email: string }, preferences: Preferences): Readable {
  return Readable.from(exportChunks(pool, user, preferences), { objectMode: false, highWaterMark: 64 * 1024 });
}

/** The file name of the download: vibeeval-data-<date>.json. */
export function exportFileName(now = new Date()): string {
  return `vibeeval-data-${now.toISOString().slice(0, 10)}.json`;
}
