// The team benchmark (npm run bench:team): one PostgreSQL server (Debian's, started by scripts/team/postgres.mjs),
// one `vibeeval serve` that only queues (VIBEEVAL_SCAN_CONCURRENCY=0) and 1, 2 and 4 `vibeeval worker` processes
// (one scan at a time each), each round queuing the same number of scans of a small local fixture site through the
// API. It prints scans per minute per worker count, the scaling ratios, and what the queue costs per job: the
// hand-off from pg-boss's claim to the scan's own start, the idle time of the workers per job, and the database
// transactions and time per job (pg_stat_database), from which a deployment of many workers can be sized.
// Arguments: --scans N (100), --pages N (3 pages a scan), --workers 1,2,4.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startFixtureSite } from '../../tests/fixtures/sites';
import { startPostgres } from '../team/postgres.mjs';

interface Options {
  scans: number;
  pages: number;
  workers: number[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { scans: 100, pages: 3, workers: [1, 2, 4] };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1] ?? '';
    if (argv[i] === '--scans') options.scans = Number(value);
    else if (argv[i] === '--pages') options.pages = Number(value);
    else if (argv[i] === '--workers') options.workers = value.split(',').map(Number);
    else throw new Error(`unknown argument ${argv[i]} (use --scans N, --pages N, --workers 1,2,4)`);
    i++;
  }
  const whole = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
  if (!whole(options.scans, 1000) || !whole(options.pages, 50) || !options.workers.every((n) => whole(n, 16))) {
    throw new Error('--scans 1..1000, --pages 1..50, --workers a list of 1..16');
  }
  return options;
}

const ROOT = join(process.env.VIBEEVAL_FIXTURES_DIR ?? join(__dirname, '..', '..', 'tests', 'fixtures'), '..', '..');
const CLI = join(ROOT, 'bin', 'vibeeval.cjs');

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

interface Proc {
  child: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts `vibeeval serve|worker` on the shared database; resolves once it printed `ready`. */
function startCli(command: 'serve' | 'worker', env: Record<string, string>, ready: RegExp): Promise<Proc> {
  const dataDir = mkdtempSync(join(tmpdir(), `vibeeval-bench-team-${command}-`));
  const child = spawn(process.execPath, [CLI, command], {
    env: { ...process.env, LOG_LEVEL: 'warn', VIBEEVAL_DATA_DIR: dataDir, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`vibeeval ${command} did not start within 60 s:\n${out}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, dataDir, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`vibeeval ${command} exited (${code}) before it was ready:\n${out}`));
    });
  });
}

async function api(origin: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

interface DbStats {
  xacts: number;
  activeMs: number;
  at: number;
}

/** This database's committed transactions (each statement outside a transaction is one) and time spent in SQL. */
async function dbStats(client: pg.Client): Promise<DbStats> {
  // Backends report their counts about once a second; wait for the last ones.
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const { rows } = await client.query<{ xacts: string; active: number }>(
    'select xact_commit + xact_rollback as xacts, active_time as active from pg_stat_database where datname = current_database()',
  );
  return { xacts: Number(rows[0]!.xacts), activeMs: Number(rows[0]!.active), at: Date.now() };
}

interface Round {
  workers: number;
  scans: number;
  failed: number;
  wallSeconds: number;
  perMinute: number;
  meanScanMs: number;
  handoffMs: number[];
  waitToClaimMs: number[];
  idlePerJobMs: number;
  xactsPerJob: number;
  dbMsPerJob: number;
}

/** The scans' and their jobs' times, in ms since the epoch. */
async function jobTimes(client: pg.Client, ids: string[]) {
  const { rows } = await client.query<{ state: string; queued: number; started: number; finished: number; claimed: number | null; created: number | null }>(
    `select s.state,
            extract(epoch from s.queued_at) * 1000 as queued, extract(epoch from s.started_at) * 1000 as started,
            extract(epoch from s.finished_at) * 1000 as finished,
            extract(epoch from j.started_on) * 1000 as claimed, extract(epoch from j.created_on) * 1000 as created
       from scans s
       left join lateral (select started_on, created_on from pgboss.job where name = 'scan' and data->>'scanId' = s.id::text
                          order by started_on desc nulls last limit 1) j on true
      where s.id = any($1::uuid[])`,
    [ids],
  );
  return rows.map((row) => ({ ...row, queued: Number(row.queued), started: Number(row.started), finished: Number(row.finished), claimed: row.claimed === null ? null : Number(row.claimed), created: row.created === null ? null : Number(row.created) }));
}

async function runRound(workerCount: number, setup: { origin: string; token: string; projectIds: string[]; databaseUrl: string; client: pg.Client }): Promise<Round> {
  const { client } = setup;
  // Each round starts from an empty queue and no scans (the projects stay).
  await client.query("delete from reports; delete from events; delete from scans; delete from pgboss.job where name = 'scan'");
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () =>
      startCli('worker', { DATABASE_URL: setup.databaseUrl, VIBEEVAL_SCAN_CONCURRENCY: '1', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '1' }, /vibeeval worker is running/),
    ),
  );
  try {
    // What the idle processes cost the database (pg-boss polling), to take away from the round's figures.
    const idleStart = await dbStats(client);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idleEnd = await dbStats(client);
    const idleXactsPerMs = (idleEnd.xacts - idleStart.xacts) / (idleEnd.at - idleStart.at);
    const idleActivePerMs = (idleEnd.activeMs - idleStart.activeMs) / (idleEnd.at - idleStart.at);

    const before = await dbStats(client);
    const ids: string[] = [];
    await pool(setup.projectIds, 8, async (id) => {
      const queued = (await api(setup.origin, setup.token, 'PATCH', `/project_test/${id}`)) as { scan_id: string };
      ids.push(queued.scan_id);
    });
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const { rows } = await client.query<{ open: string }>("select count(*) as open from scans where id = any($1::uuid[]) and state in ('queued', 'running')", [ids]);
      if (Number(rows[0]!.open) === 0) break;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.open} scans still open after 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const after = await dbStats(client);
    const times = await jobTimes(client, ids);
    const first = Math.min(...times.map((t) => t.queued));
    const last = Math.max(...times.map((t) => t.finished));
    const wallMs = last - first;
    const busyMs = times.reduce((sum, t) => sum + (t.finished - t.started), 0);
    const spanMs = after.at - before.at;
    return {
      workers: workerCount,
      scans: times.length,
      failed: times.filter((t) => t.state !== 'completed').length,
      wallSeconds: wallMs / 1000,
      perMinute: (times.length / wallMs) * 60_000,
      meanScanMs: busyMs / times.length,
      handoffMs: times.filter((t) => t.claimed !== null).map((t) => t.started - t.claimed!),
      waitToClaimMs: times.filter((t) => t.claimed !== null && t.created !== null).map((t) => t.claimed! - t.created!),
      // While the queue is not empty every worker should be scanning: what is left of workers × wall is overhead.
      idlePerJobMs: (workerCount * wallMs - busyMs) / times.length,
      xactsPerJob: (after.xacts - before.xacts - idleXactsPerMs * spanMs) / times.length,
      dbMsPerJob: (after.activeMs - before.activeMs - idleActivePerMs * spanMs) / times.length,
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

function report(rounds: Round[], options: Options): void {
  const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  console.log(`\n${options.scans} scans of a ${options.pages}-page local site (no rendering), one serve (queues only), workers scanning one at a time; ${rounds.length} rounds on ${cpus().length} cores`);
  console.log('workers  scans/min  wall s  mean scan ms  claim→start ms (median / p95)  idle per job ms  db xacts/job  db ms/job  failed');
  for (const r of rounds) {
    console.log(
      `${String(r.workers).padStart(7)}  ${fmt(r.perMinute).padStart(9)}  ${fmt(r.wallSeconds).padStart(6)}  ${fmt(r.meanScanMs, 0).padStart(12)}  ${`${fmt(quantile(r.handoffMs, 0.5))} / ${fmt(quantile(r.handoffMs, 0.95))}`.padStart(29)}  ${fmt(r.idlePerJobMs, 0).padStart(15)}  ${fmt(r.xactsPerJob, 0).padStart(12)}  ${fmt(r.dbMsPerJob).padStart(9)}  ${r.failed}`,
    );
  }
  const one = rounds.find((r) => r.workers === 1);
  if (one) {
    for (const r of rounds.filter((round) => round.workers > 1)) console.log(`scaling ${r.workers}w/1w: ${fmt(r.perMinute / one.perMinute, 2)} (ideal ${r.workers})`);
  }
  const all = rounds.flatMap((r) => r.handoffMs);
  const dbMs = quantile(rounds.map((r) => r.dbMsPerJob), 0.5);
  const xacts = quantile(rounds.map((r) => r.xactsPerJob), 0.5);
  console.log(`queue overhead per job, all rounds: claim→start median ${fmt(quantile(all, 0.5))} ms, p95 ${fmt(quantile(all, 0.95))} ms; database ${fmt(xacts, 0)} transactions and ${fmt(dbMs)} ms of SQL time per job (medians of the rounds)`);
  if (Number.isFinite(dbMs) && dbMs > 0 && one) {
    // One PostgreSQL core serves 1000/dbMs jobs a second; a worker on its own machine runs 60000/meanScanMs a minute.
    const perWorker = 60_000 / one.meanScanMs;
    console.log(`projection: a worker on its own core does ~${fmt(perWorker)} scans/min of this site; 50 such workers ~${fmt(50 * perWorker, 0)}/min need ~${fmt((50 * perWorker * dbMs) / 60_000, 2)} PostgreSQL cores of SQL time`);
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
    console.error('bench:team needs the built server: run `npm run build` first.');
    process.exit(2);
  }
  const postgres = await startPostgres();
  const site = await startFixtureSite('generated', { pages: options.pages });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server: Proc | undefined;
  const client = new pg.Client({ connectionString: postgres.url });
  try {
    server = await startCli(
      'serve',
      // A bench user queues far more than a person would: the creation limit and the plan are out of its way.
      { DATABASE_URL: postgres.url, PORT: String(port), VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0', CREATE_MAX_PER_WINDOW: '100000', VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise' },
      /vibeeval is running at/,
    );
    await client.connect();
    const signup = await fetch(`${origin}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'local' },
      body: JSON.stringify({ email: `bench-team-${Date.now()}@example.com`, password: 'bench-team-secret' }),
    });
    const { access_token: token } = (await signup.json()) as { access_token: string };
    // One project per scan: a project runs one scan at a time.
    const projectIds: string[] = [];
    for (let i = 0; i < options.scans; i++) {
      const project = (await api(origin, token, 'POST', '/project', { url: `${site.origin}/page/0?client=${i}`, instruction_text: `Client ${i}`, num_pages: options.pages })) as { id: string };
      projectIds.push(project.id);
    }
    const rounds: Round[] = [];
    for (const workers of options.workers) {
      const round = await runRound(workers, { origin, token, projectIds, databaseUrl: postgres.url, client });
      console.log(`${workers} worker${workers === 1 ? '' : 's'}: ${round.scans} scans in ${round.wallSeconds.toFixed(1)} s (${round.perMinute.toFixed(1)}/min)`);
      rounds.push(round);
    }
    report(rounds, options);
    process.exitCode = rounds.every((r) => r.failed === 0 && r.scans === options.scans) ? 0 : 1;
  } finally {
    await client.end().catch(() => undefined);
    await server?.stop();
    await site.close();
    await postgres.stop();
  }
}

void main();
