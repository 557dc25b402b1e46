// What a chat format costs a delivery and how far each message stays from its service's limits: a judged build with
// 20 new findings (typical titles, then 20 titles of 500 '&', the worst case for Slack's escaping) made into the
// signed JSON and into each chat message, 2000 times each, in one process. Reference: JSON.stringify of the event
// itself (what a signed delivery serialises).
// Run: npx esbuild scripts/bench/webhook-formats-bench.ts --bundle --platform=node --packages=external --log-level=warning \
//        --outfile=node_modules/.cache/webhook-formats-bench.cjs && node node_modules/.cache/webhook-formats-bench.cjs
import { eventPayload } from '../../server/webhooks/delivery';
import { chatBody } from '../../server/webhooks/formats';
import type { EventBody } from '../../server/webhooks/formats/message';

const ROUNDS = 2000;
/** Each service's limit on the body as a whole, for the ratio (Slack and Discord limit fields, checked in the tests). */
const LIMITS = { slack: 40_000, discord: 6000 + 2000, teams: 28 * 1024 } as const;

const typical = Array.from({ length: 20 }, (_, i) => ({
  title: `Finding ${i}: a <title> & @everyone ${'x'.repeat(i * 20)}`,
  severity: i % 3 ? 'medium' : 'high',
  fingerprint: `f${i}`,
}));
const worst = Array.from({ length: 20 }, (_, i) => ({ title: '&'.repeat(500), severity: 'critical', fingerprint: `w${i}` }));

function timeUs(work: () => unknown): number {
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) work();
  return ((performance.now() - started) / ROUNDS) * 1000;
}

for (const [name, findings] of [
  ['typical', typical],
  ['worst', worst],
] as const) {
  const data = {
    build_id: 'b',
    project_id: '8b0c3f5e-1d2a-4c3b-9e8f-0a1b2c3d4e5f',
    build_hash: 'abc123',
    status: 'error',
    trigger: 'change',
    url: 'https://shop.example/',
    scan_id: 's',
    grade: 'D',
    previous_grade: 'B',
    new_count: 20,
    fixed_count: 1,
    new_findings: findings,
    error: null,
    finished_at: new Date().toISOString(),
  };
  const event = eventPayload('continuous_build.completed', data) as unknown as EventBody;
  const reference = timeUs(() => JSON.stringify(event));
  const parts = [`${name}: signed JSON ${Buffer.byteLength(JSON.stringify(event))} B, ${reference.toFixed(0)} µs`];
  for (const format of ['slack', 'discord', 'teams'] as const) {
    const bytes = Buffer.byteLength(JSON.stringify(chatBody(format, event, 'https://vibeeval.example')));
    const us = timeUs(() => JSON.stringify(chatBody(format, event, 'https://vibeeval.example')));
    parts.push(`${format} ${bytes} B (${((bytes / LIMITS[format]) * 100).toFixed(0)} % of its limit), ${us.toFixed(0)} µs (×${(us / reference).toFixed(1)})`);
  }
  console.log(parts.join(' | '));
}
