import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ScanResult } from '../../common/scan';
import { loadSampleResult } from '../../engine/report/__fixtures__/load';
import type { ScanHooks } from '../../engine/scan';
import { projects, scans } from '../db/schema';
import { Sealer } from '../projects/sealed';
import { databaseForTests } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { runScanJob, type ScanJobDeps } from './scan-job';
import { scanJobDeps } from './testing';

// Every scan of a project signs in as the test accounts of its Credentials field, and the passwords go to the
// engine only: never into the stored result, the events, the webhooks or the log.

const SITE = 'https://shop.example/';
const PASSWORDS = ['S3cret-alice-pw', 'P4ss-bob-pw'];
const CREDENTIALS = `Email: alice@example.com\nPassword: ${PASSWORDS[0]}\n\nbob@example.com / ${PASSWORDS[1]}`;
const sealer = new Sealer('a test install secret');
const database = databaseForTests();

/** A fake engine that records its call and answers as a signed-in scan does. */
function harness() {
  const calls: { options: unknown; hooks: ScanHooks }[] = [];
  const outputs: string[] = [];
  const log = new Writable({ write: (chunk: Buffer, _encoding, done) => (outputs.push(chunk.toString('utf8')), done()) });
  const deps = scanJobDeps(database.db, {
    events: {
      record: async (events: unknown) => void outputs.push(JSON.stringify(events)),
      clearEarlierAttempts: async () => undefined,
      recordForAttempt: async (...args: unknown[]) => void outputs.push(JSON.stringify(args)),
    } as unknown as ScanJobDeps['events'],
    live: { publish: async (...args: unknown[]) => void outputs.push(JSON.stringify(args)) } as unknown as ScanJobDeps['live'],
    logger: pino({ level: 'debug' }, log),
    sealer,
    webhooks: { emit: async (...args) => void outputs.push(JSON.stringify(args)) },
    scan: async (url, options, hooks = {}) => {
      calls.push({ options, hooks });
      const sample = loadSampleResult();
      const result: ScanResult = {
        ...sample,
        target: { url, finalUrl: url },
        coverage: {
          ...(sample.coverage ?? { checksSkipped: [] }),
          signIns: (hooks.accounts ?? []).map((a, i) =>
            i === 0 ? { account: a.login, signedIn: true, method: 'supabase' as const } : { account: a.login, signedIn: false, reason: 'invalid login credentials' },
          ),
        },
      };
      return result;
    },
  });
  return { deps, calls, outputs };
}

async function queuedScan(secret: string | null) {
  const userId = await personalWorkspace(database.pool, randomUUID());
  const [project] = await database.db
    .insert(projects)
    .values({ userId, workspaceId: userId, url: SITE, secretInstructionSealed: secret ? sealer.seal(secret) : null })
    .returning();
  const [row] = await database.db.insert(scans).values({ projectId: project!.id, userId, workspaceId: userId, url: SITE, numPages: 1, state: 'queued' }).returning();
  return row!.id;
}

describe("a project's scans sign in as its test accounts", () => {
  it('gives the accounts to the engine in its hooks, and no password reaches the result, events, webhooks or log', async () => {
    const h = harness();
    const id = await queuedScan(CREDENTIALS);
    const outcome = await runScanJob(id, h.deps, { finalAttempt: true });
    expect(outcome).toBe('completed');
    expect(h.calls[0]!.hooks.accounts).toEqual([
      { login: 'alice@example.com', password: PASSWORDS[0] },
      { login: 'bob@example.com', password: PASSWORDS[1] },
    ]);
    const [row] = await database.db.select().from(scans).where(eq(scans.id, id));
    expect(row!.state).toBe('completed');
    const stored = JSON.stringify(row);
    expect(stored).toContain('"signedIn":true');
    expect(h.outputs.length).toBeGreaterThan(3);
    for (const text of [JSON.stringify(h.calls[0]!.options), stored, ...h.outputs]) for (const password of PASSWORDS) expect(text).not.toContain(password);
  });

  it('scans signed out when the project has no credentials, or ones it cannot read, saying why by line only', async () => {
    for (const secret of [null, `a@example.com ${PASSWORDS[0]}\nb@example.com x\nc@example.com ${PASSWORDS[1]}`]) {
      const h = harness();
      await runScanJob(await queuedScan(secret), h.deps, { finalAttempt: true });
      expect(h.calls[0]!.hooks.accounts).toBeUndefined();
      if (secret) expect(h.outputs.join('\n')).toMatch(/"line":3.*could not be read as test accounts/);
      for (const text of h.outputs) for (const password of PASSWORDS) expect(text).not.toContain(password);
    }
  });
});
