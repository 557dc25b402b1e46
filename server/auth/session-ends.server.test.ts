import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { callApi, rawRequest, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

/** How long each instance trusts a session it has checked: far longer than the news of a session's end may take. */
const RECHECK_MS = 60_000;

/**
 * Two server instances on one PostgreSQL (team mode): a session ended through one (the account deleted, a global
 * sign-out, a password change) is refused by the other long before the other would look its kept answer up again
 * (set to a minute here, VIBEEVAL_SESSION_RECHECK_MS): only the database's news of the session's end can explain the
 * refusal, however long that news takes on a busy machine.
 */
describe('sessions ended on another instance', () => {
  let root: string;
  let database: FreshDatabase;
  let pool: pg.Pool;
  let a: Server;
  let b: Server;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'vibeeval-sessions-'));
    database = await freshDatabase();
    // One data dir: both instances sign and accept the same tokens, as a team's servers share their secrets.
    const env = { DATABASE_URL: database.url, VIBEEVAL_DATA_DIR: join(root, 'data'), VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SESSION_RECHECK_MS: String(RECHECK_MS) };
    a = await startTestServer(env);
    b = await startTestServer(env);
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await a?.stop();
    await b?.stop();
    await database?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const call = (server: Server, token: string, method: string, path: string, body?: unknown) => callApi(server.origin, method, path, { token, body });

  /** Checks the token on `b` (kept there from now on), runs `end` on `a`, and answers how soon `b` refused it (ms), or null. */
  async function refusedOnB(token: string, end: () => Promise<void>): Promise<number | null> {
    const kept = Date.now();
    expect((await call(b, token, 'GET', '/projects')).status).toBe(200);
    await end();
    // b's kept answer would be asked again RECHECK_MS after `kept`: a refusal well before that came from the news.
    while (Date.now() - kept < RECHECK_MS / 3) {
      if ((await call(b, token, 'GET', '/projects')).status === 401) return Date.now() - kept;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  }

  it('refuses a deleted account on the other instance at once, and makes no rows for it there', async () => {
    const user = await signUp(a.origin, 'deleted-elsewhere');
    const refused = await refusedOnB(user.token, async () => {
      expect((await call(a, user.token, 'DELETE', '/account', { email: user.email })).status).toBe(204);
    });
    expect(refused).not.toBeNull();
    expect((await call(b, user.token, 'POST', '/project', { url: 'https://example.com/' })).status).toBe(401);
    const left = await pool.query(
      `select 1 from workspaces where id = $1 union all select 1 from workspace_members where user_id = $1
       union all select 1 from projects where user_id = $1 union all select 1 from users where id = $1`,
      [user.id],
    );
    expect(left.rowCount).toBe(0);
  }, 30_000);

  it('refuses a globally signed-out session on the other instance at once', async () => {
    const user = await signUp(a.origin, 'signed-out-elsewhere');
    const refused = await refusedOnB(user.token, async () => {
      expect((await call(a, user.token, 'POST', '/auth/v1/logout?scope=global', {})).status).toBe(204);
    });
    expect(refused).not.toBeNull();
  }, 30_000);

  it('refuses the other sessions on the other instance at once after a password change', async () => {
    const user = await signUp(a.origin, 'password-elsewhere');
    const body = JSON.stringify({ email: user.email, password: 'secret123' });
    const signIn = await rawRequest(a.origin, {
      method: 'POST',
      path: '/auth/v1/token?grant_type=password',
      headers: { 'content-type': 'application/json', apikey: 'local' },
      body,
    });
    const other = (signIn.json as { access_token: string }).access_token;
    const refused = await refusedOnB(other, async () => {
      expect((await call(a, user.token, 'PUT', '/auth/v1/user', { password: 'secret456' })).status).toBe(200);
    });
    expect(refused).not.toBeNull();
    expect((await call(b, user.token, 'GET', '/projects')).status).toBe(200);
  }, 30_000);
});
