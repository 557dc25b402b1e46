import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partlyMigrated, type PartlyMigrated } from '../testing/fresh-database';

// Migration 0015 on a database that the migrations before it made: sign-up used to mark every address confirmed.
// Only the addresses someone proved stay confirmed.

let migrated: PartlyMigrated;
let pool: pg.Pool;

beforeAll(async () => {
  migrated = await partlyMigrated(14);
  pool = migrated.pool;
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
  await migrated.migrateUpTo(15);
}, 120_000);

afterAll(() => migrated?.close());

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
