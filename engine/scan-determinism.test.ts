// The same site gives the same findings: ten scans of one corpus app whose first Supabase query fires only after a
// lazy chunk loads and a timer runs, two at a time (so each runs beside another scan's browser, as on a busy machine),
// must give identical finding fingerprints, each with the labelled finding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './browser';
import { scan } from './scan';
import { APPS } from './testing/corpus/apps/determinism';
import { satisfies, serveApp, type ServedApp } from './testing/corpus/harness';

const SCANS = 10;
const AT_ONCE = 2;
const app = APPS.find((candidate) => candidate.id === 'vite-supabase-late-query-lazy-chunk')!;
const browser = findChromium();
if (browser.path === null) console.warn(`scan-determinism.test.ts skipped: ${browser.reason}`);

let served: ServedApp | undefined;
beforeAll(async () => {
  if (browser.path !== null) served = await serveApp(app);
});
afterAll(async () => {
  await served?.close();
});

/** One default scan of the served app, as the corpus scans it: its fingerprints, and whether the label was met. */
async function scanOnce(): Promise<{ fingerprints: string[]; labelled: boolean; why: string }> {
  const result = await scan(`${served!.ctx.origin}/`, { render: true }, { addressPolicy: { allowPrivate: true }, chromiumPath: browser.path });
  return {
    fingerprints: result.findings.map((finding) => `${finding.fingerprint} ${finding.checkId} ${finding.severity}`).sort(),
    labelled: app.expect.every((label) => result.findings.some((finding) => satisfies(finding, label))),
    // For whoever reads a failing run: how rendering went and what the scan warned about.
    why: `rendering ${result.rendering.status}${result.rendering.reason ? ` (${result.rendering.reason})` : ''}; warnings: ${result.warnings.join(' / ') || 'none'}`,
  };
}

describe.skipIf(browser.path === null)('scan determinism', () => {
  it(`gives identical finding fingerprints over ${SCANS} scans of an app whose first query fires after a lazy chunk and a timer`, async () => {
    const t0 = performance.now();
    const runs: Array<Awaited<ReturnType<typeof scanOnce>>> = [];
    for (let i = 0; i < SCANS; i += AT_ONCE) runs.push(...(await Promise.all(Array.from({ length: Math.min(AT_ONCE, SCANS - i) }, scanOnce))));
    console.log(`${SCANS} scans, ${AT_ONCE} at a time: ${Math.round(performance.now() - t0)} ms; ${runs[0]!.fingerprints.length} findings each`);
    expect(
      runs.map((run) => run.labelled),
      runs.find((run) => !run.labelled)?.why,
    ).toEqual(Array.from({ length: SCANS }, () => true));
    const distinct = new Set(runs.map((run) => JSON.stringify(run.fingerprints)));
    expect([...distinct].map((fingerprints) => JSON.parse(fingerprints) as string[])).toEqual([runs[0]!.fingerprints]);
  }, 300_000);
});
