import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from './fresh-database';

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('freshDatabase()', () => {
  it('clones the migrated template into databases of their own, several at once, and drops them', async () => {
    const databases = await Promise.all(Array.from({ length: 4 }, () => freshDatabase()));
    try {
      expect(new Set(databases.map((database) => database.url)).size).toBe(4);
      await query(databases[0]!.url, `INSERT INTO users (id, email) VALUES (gen_random_uuid(), 'only-here@example.com')`);
      for (const [i, database] of databases.entries()) {
        const [{ n }] = (await query<{ n: number }>(database.url, `SELECT count(*)::int AS n FROM users WHERE email = 'only-here@example.com'`)) as [{ n: number }];
        expect(n).toBe(i === 0 ? 1 : 0);
      }
    } finally {
      await Promise.all(databases.map((database) => database.drop()));
    }
    await expect(query(databases[0]!.url, 'SELECT 1')).rejects.toThrow(/does not exist/);
  });

  it('makes an empty database for tests of the migrations', async () => {
    const database = await freshDatabase({ migrated: false });
    try {
      expect(await query(database.url, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
