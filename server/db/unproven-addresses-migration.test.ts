import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';

// Migration 0015 on a database that the migrations before it made: sign-up used to mark every address confirmed.
// Only the addresses someone proved stay confirmed.

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

let dir: string;
let database: FreshDatabase;
let pool: pg.Pool;

async function migrateUpTo(folder: string, lastIdx: number) {
  const journal = JSON.parse(await readFile(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number }[] };
  await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.idx <= lastIdx) }));
  await migrate(drizzle(pool), { migrationsFolder: folder });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vibeeval-migration-0015-'));
  database = await freshDatabase({ migrated: false });
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // The database's drop at the end tells a connection still closing that it ends: expected, not an error of the test.
  pool.on('error', () => undefined);
  const folder = join(dir, 'migrations');
  await cp(MIGRATIONS, folder, { recursive: true });
  await migrateUpTo(folder, 14);
  await pool.query(
    `INSERT INTO users (email, password_hash, email_confirmed_at, providers) VALUES
       ('signed-up@example.com', 'h', now(), ARRAY['email']),
       ('recovered@example.com', 'h', now(), ARRAY['email']),
       ('asked-only@example.com', 'h', now(), ARRAY['email']),
       ('google@example.com', NULL, now(), ARRAY['google']),
       ('linked@example.com', 'h', now(), ARRAY['email', 'google'])`,
  );
  const token = (email: string, used: boolean, hash: string) =>
    pool.query(
      `INSERT INTO one_time_tokens (user_id, kind, token_hash, expires_at, used_at)
       SELECT id, 'recovery', $2, now() + interval '1 hour', CASE WHEN $3 THEN now() END FROM users WHERE email = $1`,
      [email, hash, used],
    );
  await token('recovered@example.com', true, 'used');
  await token('asked-only@example.com', false, 'unused');
  await migrateUpTo(folder, 15);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('migration 0015', () => {
  it('keeps confirmed only the addresses proven by a recovery link followed or vouched for by Google', async () => {
    const { rows } = await pool.query<{ email: string; confirmed: boolean; disabled_at: Date | null }>(
      'SELECT email, email_confirmed_at IS NOT NULL AS confirmed, disabled_at FROM users ORDER BY email',
    );
    expect(rows.map(({ email, confirmed }) => [email, confirmed])).toEqual([
      ['asked-only@example.com', false],
      ['google@example.com', true],
      ['linked@example.com', true],
      ['recovered@example.com', true],
      ['signed-up@example.com', false],
    ]);
    expect(rows.every((row) => row.disabled_at === null)).toBe(true);
  });
});
