import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { startTestServer } from '../testing/test-server';
import { callApi, signUp } from '../testing/http';

type Server = Awaited<ReturnType<typeof startTestServer>>;

/**
 * Kept list answers across two server instances on one PostgreSQL: a write through either instance, or by any other
 * process, reaches the other's next list answer through the database's change news, long before the kept answer
 * would expire (the ttl is a minute here, so only the news can explain a fresh answer).
 */
describe('list answers kept between changes', () => {
  let root: string;
  let database: FreshDatabase;
  let a: Server;
  let b: Server;
  let token: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'vibeeval-lists-'));
    database = await freshDatabase();
    // One data dir: both instances sign and accept the same tokens, as a team's servers share their secrets.
    const env = { DATABASE_URL: database.url, VIBEEVAL_DATA_DIR: join(root, 'data'), VIBEEVAL_LIST_CACHE_TTL_MS: '60000', VIBEEVAL_SCAN_CONCURRENCY: '0' };
    a = await startTestServer(env);
    b = await startTestServer(env);
    token = (await signUp(a.origin, 'lists')).token;
  }, 120_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const call = async (server: Server, method: string, path: string, body?: unknown) => {
    const answer = await callApi(server.origin, method, path, { token, body });
    expect(answer.status, `${method} ${path}`).toBeLessThan(300);
    return answer.json;
  };
  const statuses = async (server: Server) => ((await call(server, 'GET', '/projects')) as { status: string }[]).map((p) => p.status);
  const within = async (ms: number, check: () => Promise<boolean>) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline;) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  };

  it('answers a writer at once, and the other instance as soon as the change is committed', async () => {
    expect(await statuses(a)).toEqual([]);
    expect(await statuses(b)).toEqual([]);
    const project = (await call(a, 'POST', '/project', { url: 'https://shop.example.com/' })) as { id: string };
    expect(await statuses(a)).toEqual(['active']);
    expect(await within(2_000, async () => (await statuses(b)).length === 1)).toBe(true);

    await call(b, 'PATCH', `/project/${project.id}`, { status: 'archived' });
    expect(await statuses(b)).toEqual(['archived']);
    expect(await within(2_000, async () => (await statuses(a))[0] === 'archived')).toBe(true);
  });

  it('keeps answers (a write that fires no change news is not seen) and drops them on a write by another process', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      expect(await statuses(a)).toEqual(['archived']);
      // With triggers off (replica mode) the database sends no news: the kept answer stays.
      await client.query(`SET session_replication_role = replica`);
      await client.query(`UPDATE projects SET status = 'completed'`);
      await client.query(`SET session_replication_role = origin`);
      expect(await statuses(a)).toEqual(['archived']);
      // A worker's write (another process) sends the news through the trigger.
      await client.query(`UPDATE projects SET status = 'active'`);
      expect(await within(2_000, async () => (await statuses(a))[0] === 'active')).toBe(true);
      expect(await within(2_000, async () => (await statuses(b))[0] === 'active')).toBe(true);
    } finally {
      await client.end();
    }
  });
});
