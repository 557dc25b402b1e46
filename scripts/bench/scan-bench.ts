// The scan benchmark (npm run bench:scan): medians over several runs of scans of local fixture sites.
// Each scan runs in a child process so its peak memory (max RSS) is measured alone; the sites run in the parent.
import { spawn } from 'node:child_process';
import type { ScanOptions, ScanProgress } from '../../common/scan';
import type { ScanAccount } from '../../common/scan-accounts';
import { scan } from '../../engine/scan';
import { startPostgrestStandIn } from '../../engine/testing/postgrest-stand-in';
import { startFixtureSite } from '../../tests/fixtures/sites';

interface Run {
  ms: number;
  maxRssMb: number;
  pages: number;
  findings: number;
  /** Each finding as check, severity and path (fingerprints name the origin, whose port changes from run to run). */
  fingerprints: string[];
  /** Answers the scanner's HTTP client received (the browser's requests are counted by the site). */
  requests: number;
  rendering: string;
  /** When each phase was first reported, in ms from the start. */
  phases: Partial<Record<ScanProgress['phase'], number>>;
  /** Each test account's sign-in: `login signed in` or `login not signed in (reason)`. */
  signIns: string[];
}

interface ChildArgs {
  url: string;
  pages: number;
  render: boolean;
  /** The former pacing and order (flat 10 requests per second per host, one phase after the other). */
  baseline: boolean;
  /** Default settings (adaptive pacing, no ceiling) rather than the benchmark's usual rateLimit 0. */
  defaults: boolean;
  /** Test accounts to sign in as (a signed-in scan). */
  accounts?: ScanAccount[];
}

async function child(args: ChildArgs): Promise<void> {
  const t0 = performance.now();
  const phases: Run['phases'] = {};
  const options: Partial<ScanOptions> = args.defaults ? { maxPages: args.pages, render: args.render } : { maxPages: args.pages, render: args.render, rateLimit: 0 };
  const result = await scan(args.url, options, {
    addressPolicy: { allowPrivate: true },
    baseline: args.baseline,
    onProgress: (progress) => (phases[progress.phase] ??= Math.round(performance.now() - t0)),
    accounts: args.accounts,
  });
  const run: Run = {
    ms: Math.round(performance.now() - t0),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    pages: result.pages.length,
    findings: result.findings.length,
    fingerprints: result.findings.map((finding) => `${finding.checkId} ${finding.severity} ${new URL(finding.url).pathname}`).sort(),
    requests: result.stats.requests,
    rendering: result.rendering.status,
    phases,
    signIns: (result.coverage?.signIns ?? []).map((line) => `${line.account} ${line.signedIn ? `signed in (${line.method})` : `not signed in (${line.reason})`}`),
  };
  process.stdout.write(JSON.stringify(run));
}

function runChild(args: ChildArgs): Promise<Run> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [process.argv[1]!, 'child', JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Run) : reject(new Error(`scan child exited with ${code}`))));
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

/** Phase durations: from a phase's first report to the next one's (phases overlap, so this is the wait they add). */
function phaseTimes(run: Run): string {
  const order: Array<ScanProgress['phase']> = ['crawl', 'render', 'probe', 'check', 'done'];
  const seen = order.filter((phase) => run.phases[phase] !== undefined);
  return seen
    .slice(0, -1)
    .map((phase, i) => `${phase} ${run.phases[seen[i + 1]!]! - run.phases[phase]!}`)
    .join(', ');
}

async function generatedScenarios(runs: number): Promise<boolean> {
  const site = await startFixtureSite('generated', { pages: 1_000 });
  const scenarios: Array<{ name: string; pages: number; render: boolean; goalMs: number; goalMb?: number }> = [
    { name: '10 pages, HTTP only', pages: 10, render: false, goalMs: 1_000 },
    { name: '10 pages, rendered in Chromium', pages: 10, render: true, goalMs: 3_000 },
    { name: '100 pages, HTTP only', pages: 100, render: false, goalMs: 5_000 },
    { name: '1,000 pages, HTTP only', pages: 1_000, render: false, goalMs: 20_000, goalMb: 300 },
  ];
  console.log(`Scan benchmark: ${runs} runs per scenario, fixture site ${site.url} (generated, 1,000 pages), no rate limit, every check.`);
  let failed = false;
  for (const scenario of scenarios) {
    const results: Run[] = [];
    for (let i = 0; i < runs; i++) results.push(await runChild({ url: site.url, pages: scenario.pages, render: scenario.render, baseline: false, defaults: false }));
    const ms = median(results.map((run) => run.ms));
    const mb = median(results.map((run) => run.maxRssMb));
    const ok = ms <= scenario.goalMs && (scenario.goalMb === undefined || mb <= scenario.goalMb);
    failed ||= !ok;
    const last = results.at(-1)!;
    console.log(
      `${ok ? 'ok  ' : 'SLOW'} ${scenario.name.padEnd(32)} median ${String(ms).padStart(6)} ms (min ${Math.min(...results.map((r) => r.ms))}, max ${Math.max(...results.map((r) => r.ms))}), ` +
        `peak memory median ${mb} MB; ${last.pages} pages, ${last.requests} requests, ${last.findings} findings, rendering ${last.rendering}; goal ≤ ${scenario.goalMs} ms${scenario.goalMb ? `, ≤ ${scenario.goalMb} MB` : ''}`,
    );
  }
  await site.close();
  return failed;
}

/**
 * The realistic case: a single-page app with 80 lazy chunks and 10 client-side routes, scanned with the default
 * settings (rendering on), next to the former behaviour on the same site in the same run, and with a site that
 * answers 429 to every 5th of its first 60 requests.
 */
async function lazySpaScenarios(runs: number): Promise<boolean> {
  const scenarios: Array<{ name: string; baseline: boolean; throttle?: boolean; runs: number; goalMs?: number }> = [
    { name: 'former pacing (10/s flat, phases in turn)', baseline: true, runs: 1 },
    { name: 'adaptive, overlapped (default settings)', baseline: false, runs, goalMs: 5_000 },
    { name: 'adaptive, site answers 429 to every 5th', baseline: false, throttle: true, runs },
  ];
  console.log(`\nRealistic case: single-page app, 80 lazy chunks (10 to 40 KB), 10 client-side routes, default settings (rendering on).`);
  let failed = false;
  let reference: (Run & { siteRequests: number }) | undefined;
  for (const scenario of scenarios) {
    const results: Array<Run & { siteRequests: number }> = [];
    for (let i = 0; i < scenario.runs; i++) {
      const site = await startFixtureSite('lazy-spa', scenario.throttle ? { throttle: { every: 5, first: 60 } } : {});
      const run = await runChild({ url: site.url, pages: 10, render: true, baseline: scenario.baseline, defaults: true });
      results.push({ ...run, siteRequests: site.requests.length });
      await site.close();
    }
    const ms = median(results.map((run) => run.ms));
    const last = results.at(-1)!;
    reference ??= last;
    const sameFindings = JSON.stringify(last.fingerprints) === JSON.stringify(reference.fingerprints);
    const fewerRequests = last.siteRequests <= reference.siteRequests;
    const ok = (scenario.goalMs === undefined || ms <= scenario.goalMs) && sameFindings && (scenario.baseline || scenario.throttle || fewerRequests);
    failed ||= !ok;
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${scenario.name.padEnd(44)} median ${String(ms).padStart(6)} ms over ${results.length} run(s) (${(ms / reference.ms).toFixed(2)}x the former); ` +
        `site saw ${last.siteRequests} requests (scanner ${last.requests}), ${last.findings} findings${sameFindings ? ' (same as the former)' : ' (DIFFERENT from the former)'}, rendering ${last.rendering}; ` +
        `phases ms: ${phaseTimes(last)}${scenario.goalMs ? `; goal ≤ ${scenario.goalMs} ms` : ''}`,
    );
  }
  return failed;
}

const ALICE = { id: '0f8fad5b-d9cb-469f-a165-70867728950e', email: 'alice@bench.test', password: 'Alice-Bench-Pass-1' };
const BOB = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', email: 'bob@bench.test', password: 'Bob-Bench-Pass-2' };

/** The lazy SPA's Supabase project: profiles any signed-in user reads, orders each user reads her own of. */
function benchProject() {
  const profiles = [ALICE, BOB].map((user, i) => ({ id: user.id, full_name: `User ${i}`, email: user.email, created_at: `2025-05-0${i + 1}T09:00:00Z` }));
  const orders = [ALICE, BOB].flatMap((user, i) => [1, 2].map((n) => ({ id: i * 10 + n, user_id: user.id, total_cents: 1900 * n, created_at: `2025-06-0${n}T10:00:00Z` })));
  return startPostgrestStandIn({
    users: [ALICE, BOB],
    tables: { profiles: { rows: profiles, read: 'authenticated' }, orders: { rows: orders, read: 'owner' } },
  });
}

/**
 * The signed-in case: the lazy SPA with a Supabase project of its own, scanned as an anonymous visitor and signed in
 * as two test accounts, alternately on fresh copies of the same site in the same run. Goal: the signed-in scan at
 * most 2x the anonymous one (the sign-ins, the reads as each account and the sign-outs are its only extra work).
 */
async function signedInScenarios(runs: number): Promise<boolean> {
  console.log(`\nSigned-in case: the same single-page app with a Supabase project (stand-in), 10 pages, default settings, two test accounts.`);
  const accounts = [ALICE, BOB].map((user) => ({ login: user.email, password: user.password }));
  const times: Record<'anonymous' | 'signed in', Run[]> = { anonymous: [], 'signed in': [] };
  const authCalls: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const mode of ['anonymous', 'signed in'] as const) {
      const project = await benchProject();
      const site = await startFixtureSite('lazy-spa', { lazySupabase: { url: project.url, tables: ['profiles', 'orders'] } });
      times[mode].push(await runChild({ url: site.url, pages: 10, render: true, baseline: false, defaults: true, accounts: mode === 'signed in' ? accounts : undefined }));
      if (mode === 'signed in') authCalls.push(project.authCalls().length);
      await site.close();
      await project.close();
    }
  }
  const anonymous = median(times.anonymous.map((run) => run.ms));
  const signedIn = median(times['signed in'].map((run) => run.ms));
  const last = times['signed in'].at(-1)!;
  const allSignedIn = times['signed in'].every((run) => run.signIns.length === 2 && run.signIns.every((line) => / signed in /.test(line)));
  const ok = signedIn <= 2 * anonymous && allSignedIn;
  console.log(`     anonymous                                    median ${String(anonymous).padStart(6)} ms over ${runs} run(s), ${times.anonymous.at(-1)!.findings} findings`);
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} signed in as two accounts                    median ${String(signedIn).padStart(6)} ms over ${runs} run(s) (${(signedIn / anonymous).toFixed(2)}x anonymous; goal ≤ 2x), ` +
      `${last.findings} findings, ${median(authCalls)} auth calls; ${last.signIns.join('; ')}`,
  );
  return !ok;
}

async function parent(runs: number, only?: string): Promise<void> {
  let failed = false;
  if (only === undefined || only === 'generated') failed ||= await generatedScenarios(runs);
  if (only === undefined || only === 'spa') failed ||= await lazySpaScenarios(Math.min(runs, 3));
  if (only === undefined || only === 'signed-in') failed ||= await signedInScenarios(Math.min(runs, 3));
  process.exitCode = failed ? 1 : 0;
}

// npm run bench:scan [runs] [generated|spa|signed-in]
const [mode, ...rest] = process.argv.slice(2);
if (mode === 'child') {
  void child(JSON.parse(rest[0]!) as ChildArgs);
} else {
  const only = [mode, ...rest].find((arg) => arg === 'spa' || arg === 'generated' || arg === 'signed-in');
  const runs = Number([mode, ...rest].find((arg) => /^\d+$/.test(arg ?? '')) ?? 5);
  void parent(Math.max(1, runs), only);
}
