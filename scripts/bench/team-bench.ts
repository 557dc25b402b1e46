// The team benchmark (npm run bench:team): one PostgreSQL server (Debian's, started by scripts/team/postgres.mjs),
// one `vibeeval serve` that only queues (VIBEEVAL_SCAN_CONCURRENCY=0) and 1, 2 and 4 `vibeeval worker` processes
// (one scan at a time each), each round queuing the same number of scans of a small local fixture site through the
// API. It prints scans per minute per worker count, the scaling ratios, and what the queue costs per job: the
// hand-off from pg-boss's claim to the scan's own start, the idle time of the workers per job, and the database
// transactions and time per job (pg_stat_database), from which a deployment of many workers can be sized.
// Arguments: --scans N (100), --pages N (3 pages a scan), --workers 1,2,4.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startFixtureSite } from '../../tests/fixtures/sites';
import { startPostgres } from '../team/postgres.mjs';
import { signUp } from '../../server/testing/http';

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
  const send = () =>
    fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  let response = await send();
  // On a busy machine the server may briefly lose its database probe and answer 503 with Retry-After: as a client would, wait and retry.
  for (let attempt = 0; response.status === 503 && attempt < 10; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000 * Number(response.headers.get('retry-after') ?? 2)));
    response = await send();
  }
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

/** CPU time (user + system) of these processes so far, in ms, from /proc (Linux; clock ticks of 10 ms). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime and stime, stat's 14th and 15th fields
    } catch {
      // gone since: its time is lost, which only makes the figure smaller
    }
  }
  return ticks * 10;
}

const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

/** The PostgreSQL server's processes: its postmaster (the parent of our backend) and every child of it. */
async function postgresPids(client: pg.Client): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const postmaster = parentOf(rows[0]!.pid);
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return parentOf(pid) === postmaster;
      } catch {
        return false;
      }
    });
  return [postmaster, ...children];
}

interface Sample {
  at: number;
  /** This database's committed and rolled back transactions: each statement outside a transaction is one. */
  xacts: number;
  /** CPU ms of PostgreSQL, the workers and the server. */
  dbCpu: number;
  workerCpu: number;
  serveCpu: number;
}

async function sample(client: pg.Client, pids: { workers: number[]; serve: number }): Promise<Sample> {
  // Backends report their counts about once a second; wait for the last ones.
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const { rows } = await client.query<{ xacts: string }>('select xact_commit + xact_rollback as xacts from pg_stat_database where datname = current_database()');
  return { at: Date.now(), xacts: Number(rows[0]!.xacts), dbCpu: cpuMs(await postgresPids(client)), workerCpu: cpuMs(pids.workers), serveCpu: cpuMs([pids.serve]) };
}

/**
 * What the round cost per job: everything the processes did from the first scan queued to the last one done,
 * divided by the scans. An upper bound: it includes pg-boss's polling and maintenance meanwhile (small while the
 * workers are busy; an idle window to subtract proved noisier than the polling it would remove).
 */
function perJob(round: [Sample, Sample], jobs: number) {
  const cost = (key: keyof Sample) => (round[1][key] - round[0][key]) / jobs;
  return { xacts: cost('xacts'), dbCpuMs: cost('dbCpu'), workerCpuMs: cost('workerCpu'), serveCpuMs: cost('serveCpu') };
}

interface Round {
  workers: number;
  scans: number;
  failed: number;
  wallSeconds: number;
  perMinute: number;
  meanScanMs: number;
  handoffMs: number[];
  idlePerJobMs: number;
  cost: ReturnType<typeof perJob>;
  load: number;
}

/** The scans' and their jobs' times, in ms since the epoch. */
async function jobTimes(client: pg.Client, ids: string[]) {
  const { rows } = await client.query<{ state: string; queued: number; started: number; finished: number; claimed: number | null }>(
    `select s.state,
            extract(epoch from s.queued_at) * 1000 as queued, extract(epoch from s.started_at) * 1000 as started,
            extract(epoch from s.finished_at) * 1000 as finished, extract(epoch from j.started_on) * 1000 as claimed
       from scans s
       left join lateral (select started_on from pgboss.job where name = 'scan' and data->>'scanId' = s.id::text
                          order by started_on desc nulls last limit 1) j on true
      where s.id = any($1::uuid[])`,
    [ids],
  );
  return rows.map((row) => ({
    state: row.state,
    queued: Number(row.queued),
    started: Number(row.started),
    finished: Number(row.finished),
    claimed: row.claimed === null ? null : Number(row.claimed),
  }));
}

interface Setup {
  origin: string;
  token: string;
  projectIds: string[];
  databaseUrl: string;
  client: pg.Client;
  servePid: number;
}

/** Queues one scan of every project through the API and waits until none is queued or running. */
async function queueAndWait(setup: Setup): Promise<string[]> {
  const ids: string[] = [];
  await pool(setup.projectIds, 8, async (id) => {
    const queued = (await api(setup.origin, setup.token, 'PATCH', `/project_test/${id}`)) as { scan_id: string };
    ids.push(queued.scan_id);
  });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const { rows } = await setup.client.query<{ open: string }>("select count(*) as open from scans where id = any($1::uuid[]) and state in ('queued', 'running')", [ids]);
    if (Number(rows[0]!.open) === 0) return ids;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.open} scans still open after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function runRound(workerCount: number, setup: Setup): Promise<Round> {
  const { client } = setup;
  // Each round starts from an empty queue and no scans (the projects stay).
  await client.query("delete from reports; delete from events; delete from scans; delete from pgboss.job where name = 'scan'");
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () =>
      startCli(
        'worker',
        { DATABASE_URL: setup.databaseUrl, VIBEEVAL_SCAN_CONCURRENCY: '1', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '1' },
        /vibeeval worker is running/,
      ),
    ),
  );
  const pids = { workers: workers.map((worker) => worker.child.pid!), serve: setup.servePid };
  try {
    // Let the workers settle (their start queries the queue and the schema) before the clock starts.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = await sample(client, pids);
    const ids = await queueAndWait(setup);
    const after = await sample(client, pids);
    const times = await jobTimes(client, ids);
    const wallMs = Math.max(...times.map((t) => t.finished)) - Math.min(...times.map((t) => t.queued));
    const busyMs = times.reduce((sum, t) => sum + (t.finished - t.started), 0);
    return {
      workers: workerCount,
      scans: times.length,
      failed: times.filter((t) => t.state !== 'completed').length,
      wallSeconds: wallMs / 1000,
      perMinute: (times.length / wallMs) * 60_000,
      meanScanMs: busyMs / times.length,
      handoffMs: times.filter((t) => t.claimed !== null).map((t) => t.started - t.claimed!),
      // While the queue is not empty every worker should be scanning: what is left of workers × wall is overhead.
      idlePerJobMs: (workerCount * wallMs - busyMs) / times.length,
      cost: perJob([before, after], times.length),
      load: loadavg()[0]!,
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

function report(rounds: Round[], options: Options): void {
  const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  const cores = cpus().length;
  console.log(`\n${options.scans} scans of a ${options.pages}-page local site (no rendering); one serve that only queues; each worker one scan at a time; ${cores} cores`);
  console.log('workers  scans/min  wall s  scan ms  claim→start ms  idle/job ms  SQL xacts/job  CPU ms/job: postgres  workers  serve  load');
  for (const r of rounds) {
    const handoff = `${fmt(quantile(r.handoffMs, 0.5))} / ${fmt(quantile(r.handoffMs, 0.95))}`;
    console.log(
      `${String(r.workers).padStart(7)}  ${fmt(r.perMinute).padStart(9)}  ${fmt(r.wallSeconds).padStart(6)}  ${fmt(r.meanScanMs, 0).padStart(7)}  ${handoff.padStart(14)}  ${fmt(r.idlePerJobMs, 0).padStart(11)}  ${fmt(r.cost.xacts, 0).padStart(13)}  ${fmt(r.cost.dbCpuMs).padStart(20)}  ${fmt(r.cost.workerCpuMs).padStart(7)}  ${fmt(r.cost.serveCpuMs).padStart(5)}  ${fmt(r.load, 2).padStart(4)}${r.failed ? `  ${r.failed} FAILED` : ''}`,
    );
  }
  console.log(
    "(claim→start: median / p95 from pg-boss's started_on to the scan's started_at; idle/job: workers × wall time less the scans' own time, per scan; CPU: from /proc, polling included; load: 1-minute load average at the end, other work on the machine included)",
  );
  const one = rounds.find((r) => r.workers === 1);
  if (one) {
    for (const r of rounds.filter((round) => round.workers > 1)) console.log(`scaling ${r.workers}w/1w: ${fmt(r.perMinute / one.perMinute, 2)} (ideal ${r.workers})`);
  }
  const median = (pick: (r: Round) => number) => quantile(rounds.map(pick), 0.5);
  const cpuPerJob = median((r) => r.cost.dbCpuMs + r.cost.workerCpuMs + r.cost.serveCpuMs);
  console.log(
    `bounded by the cores: a scan costs ${fmt(cpuPerJob, 0)} ms of CPU in all (medians of the rounds), so ${cores} cores finish at most ${fmt((cores * 60_000) / cpuPerJob, 0)} scans/min whatever the number of workers`,
  );
  const handoff = rounds.flatMap((r) => r.handoffMs);
  const dbCpu = median((r) => r.cost.dbCpuMs);
  console.log(
    `queue overhead per job: claim→start median ${fmt(quantile(handoff, 0.5))} ms, p95 ${fmt(quantile(handoff, 0.95))} ms; ${fmt(
      median((r) => r.cost.xacts),
      0,
    )} SQL transactions and ${fmt(dbCpu)} ms of PostgreSQL CPU per job`,
  );
  if (one && one.cost.dbCpuMs > 0) {
    // On separate machines each worker has its own cores: what they share is PostgreSQL (and the queue's claim in it).
    // The one-worker round is the least contended, so its figures stand for a worker alone on its machine.
    const perWorker = 60_000 / (one.meanScanMs + quantile(one.handoffMs, 0.5));
    const fifty = 50 * perWorker;
    console.log(
      `50 workers on their own machines: ~${fmt(perWorker)} scans/min each (scan ${fmt(one.meanScanMs, 0)} ms + hand-off), ~${fmt(fifty, 0)} scans/min together, needing ~${fmt((fifty * one.cost.dbCpuMs) / 60_000, 1)} PostgreSQL cores (${fmt(one.cost.dbCpuMs)} ms and ${fmt(one.cost.xacts, 0)} transactions a scan)`,
    );
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
      {
        DATABASE_URL: postgres.url,
        PORT: String(port),
        VIBEEVAL_SCAN_CONCURRENCY: '0',
        VIBEEVAL_SCENARIO_CONCURRENCY: '0',
        CREATE_MAX_PER_WINDOW: '100000',
        VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise',
      },
      /vibeeval is running at/,
    );
    await client.connect();
    const { token } = await signUp(origin, 'bench-team');
    // One project per scan: a project runs one scan at a time.
    const projectIds: string[] = [];
    for (let i = 0; i < options.scans; i++) {
      const project = (await api(origin, token, 'POST', '/project', { url: `${site.origin}/page/0?client=${i}`, instruction_text: `Client ${i}`, num_pages: options.pages })) as {
        id: string;
      };
      projectIds.push(project.id);
    }
    const rounds: Round[] = [];
    for (const workers of options.workers) {
      const round = await runRound(workers, { origin, token, projectIds, databaseUrl: postgres.url, client, servePid: server.child.pid! });
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
