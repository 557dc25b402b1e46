// The scan benchmark (npm run bench:scan): medians over several runs of scans of local fixture sites.
// Each scan runs in a child process so its peak memory (max RSS) is measured alone; the sites run in the parent.
import { spawn } from 'node:child_process';
import { scan } from '../../engine/scan';
import { startFixtureSite } from '../../tests/fixtures/sites';

interface Run {
  ms: number;
  maxRssMb: number;
  pages: number;
  findings: number;
  requests: number;
  rendering: string;
}

async function child(url: string, pages: number, render: boolean): Promise<void> {
  const t0 = performance.now();
  const result = await scan(url, { maxPages: pages, render, rateLimit: 0 }, { addressPolicy: { allowPrivate: true } });
  const run: Run = {
    ms: Math.round(performance.now() - t0),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    pages: result.pages.length,
    findings: result.findings.length,
    requests: result.stats.requests,
    rendering: result.rendering.status,
  };
  process.stdout.write(JSON.stringify(run));
}

function runChild(url: string, pages: number, render: boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [process.argv[1]!, 'child', url, String(pages), render ? 'render' : 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
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

async function parent(runs: number): Promise<void> {
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
    for (let i = 0; i < runs; i++) results.push(await runChild(site.url, scenario.pages, scenario.render));
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
  process.exitCode = failed ? 1 : 0;
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'child') {
  void child(rest[0]!, Number(rest[1]), rest[2] === 'render');
} else {
  void parent(Math.max(5, Number(mode ?? 5) || 5));
}
