// Scenario runs through the whole server: `npx tsx server/scenarios/bench.ts`. A real server (embedded PostgreSQL,
// pg-boss, one Chromium per worker) and the engine's fixture site with a login. Prints, for a 6-step login scenario
// run 10 times one after the other, the median time from POST /scenario/{id}/run to the passed run seen by the client
// next to the engine's own duration of the run (the reference), and the time of run-all over 20 scenarios with the
// default concurrency of 2.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scenarioDetailSchema } from '../../common/scenarios';
import { SCENARIO_SITE_USER, startScenarioSite } from '../../engine/testing/scenario-site';
import { startServer } from '../server';
import { signUp } from '../testing/http';

const LOGIN_STEPS = [
  { type: 'goto', url: '/login' },
  { type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'username' } },
  { type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } },
  { type: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } },
  { type: 'expect_url', pattern: '/dashboard$' },
  { type: 'expect_text', target: { by: 'test_id', id: 'account' }, text: SCENARIO_SITE_USER.username },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const site = await startScenarioSite();
  const dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-scenario-bench-'));
  const server = await startServer({ PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'warn', VIBEEVAL_DATA_DIR: dataDir, VIBEEVAL_SCAN_RATE: '0' });
  try {
    const user = await signUp(server.origin, 'bench');
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${user.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return await response.json();
    };
    const project = (await call('POST', '/project', { url: site.url, secret_instruction: `${SCENARIO_SITE_USER.username} / ${SCENARIO_SITE_USER.password}` })) as { id: string };
    const scenario = (await call('POST', '/scenarios', { project_id: project.id, website: site.url, actions: LOGIN_STEPS })) as { id: string };
    const finished = async (scenarioId: string, runId: string) => {
      for (;;) {
        const detail = scenarioDetailSchema.parse(await call('GET', `/scenario/${scenarioId}`));
        const run = detail.runs.find((candidate) => candidate.id === runId);
        if (run && (run.status === 'passed' || run.status === 'failed')) return run;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    const endToEnd: number[] = [];
    const engine: number[] = [];
    for (let i = 0; i < 11; i++) {
      const started = performance.now();
      const { run_id: runId } = (await call('POST', `/scenario/${scenario.id}/run`)) as { run_id: string };
      const run = await finished(scenario.id, runId);
      if (run.status !== 'passed') throw new Error(`run ${i} failed: ${run.error}`);
      // The first run opens the worker's browser: reported apart.
      if (i === 0) console.log(`first run (opens the browser): ${Math.round(performance.now() - started)} ms`);
      else {
        endToEnd.push(performance.now() - started);
        engine.push(run.duration_ms!);
      }
    }
    const e2e = median(endToEnd);
    const ref = median(engine);
    console.log(`login scenario, median of 10: ${Math.round(e2e)} ms from POST to passed seen by the client; engine's run ${Math.round(ref)} ms; ratio ${(e2e / ref).toFixed(2)}`);

    const many: string[] = [];
    for (let i = 0; i < 19; i++) many.push(((await call('POST', '/scenarios', { project_id: project.id, website: site.url, actions: LOGIN_STEPS })) as { id: string }).id);
    const started = performance.now();
    const { runs } = (await call('POST', '/scenarios/run-all', { project_id: project.id })) as { runs: { scenario_id: string; run_id: string }[] };
    const results = await Promise.all(runs.map((run) => finished(run.scenario_id, run.run_id)));
    const passed = results.filter((run) => run.status === 'passed').length;
    console.log(
      `run-all of ${runs.length} scenarios, concurrency 2: ${Math.round(performance.now() - started)} ms, ${passed} of ${runs.length} tests passed; sum of engine runs ${results.reduce((sum, run) => sum + (run.duration_ms ?? 0), 0)} ms`,
    );
  } finally {
    await server.close();
    await site.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
