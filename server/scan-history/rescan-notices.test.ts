import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ScanResult } from '../../common/scan';
import { loadSampleResult } from '../../engine/report/__fixtures__/load';
import { notificationMail } from '../account/notification-mail';
import { chatMessage } from '../webhooks/formats/message';
import { projects, scans } from '../db/schema';
import { runScanJob, type ScanJobDeps } from '../jobs/scan-job';
import { databaseForTests } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { scanJobDeps } from '../jobs/testing';

// A re-scan's notices lead with what is new since the project's previous scan: the scan.completed webhook's data
// starts with its summary ('1 new finding since the last scan (1 fixed)') and the new findings' titles, and the mail
// built from it says so first, in its subject and its first line. A first scan has nothing to compare with.

const SITE = 'https://shop.example/';
const sample = loadSampleResult();
const database = databaseForTests();

/** The site after a change: its first finding fixed, a new one found. */
function changed(): ScanResult {
  const [gone, ...kept] = loadSampleResult().findings;
  return { ...sample, findings: [{ ...gone!, fingerprint: 'abcdefabcdefabcd', title: 'A new hole', severity: 'high' }, ...kept] };
}

function deps(emitted: unknown[][], result: () => ScanResult): ScanJobDeps {
  return scanJobDeps(database.db, {
    webhooks: { emit: async (...args) => void emitted.push(args) },
    scan: async (url) => ({ ...result(), target: { url, finalUrl: url } }),
  });
}

describe("a re-scan's notices", () => {
  it('lead with what is new since the last scan; a first scan has no summary', async () => {
    const userId = await personalWorkspace(database.pool, randomUUID());
    const [project] = await database.db.insert(projects).values({ userId, workspaceId: userId, url: SITE }).returning();
    const run = async (result: () => ScanResult, trigger: 'manual' | 'site_change') => {
      const [queued] = await database.db
        .insert(scans)
        .values({ projectId: project!.id, userId, workspaceId: userId, url: SITE, numPages: 1, state: 'queued', trigger })
        .returning();
      const emitted: unknown[][] = [];
      expect(await runScanJob(queued!.id, deps(emitted, result), { finalAttempt: true })).toBe('completed');
      return emitted.find(([, type]) => type === 'scan.completed')![2] as Record<string, unknown>;
    };

    const first = await run(() => loadSampleResult(), 'manual');
    expect(first).toMatchObject({ summary: null, previous_scan_id: null, new_count: null, fixed_count: null, new_findings: [], trigger: 'manual' });
    expect(notificationMail('a@example.com', 'scan.completed', first, null)!.subject).toMatch(/^Scan finished: grade /);

    const second = await run(changed, 'site_change');
    const [previous] = await database.db
      .select({ id: scans.id })
      .from(scans)
      .where(eq(scans.id, first.scan_id as string));
    // The summary is the data's first key: what a receiver (a Slack post, a CI log) shows first.
    expect(Object.keys(second).slice(0, 5)).toEqual(['summary', 'previous_scan_id', 'new_count', 'fixed_count', 'new_findings']);
    expect(second).toMatchObject({
      summary: '1 new finding since the last scan (1 fixed)',
      previous_scan_id: previous!.id,
      new_count: 1,
      fixed_count: 1,
      new_findings: [{ fingerprint: 'abcdefabcdefabcd', title: 'A new hole', severity: 'high' }],
      trigger: 'site_change',
    });
    // The chat formats (Slack, Discord, Teams) lead with it too, and list the new finding.
    const chat = chatMessage({ type: 'scan.completed', timestamp: new Date().toISOString(), data: second }, null);
    expect(chat.headline).toBe(`1 new finding since the last scan (1 fixed): ${SITE}`);
    expect(chat.findings).toEqual(['[high] A new hole']);
    const mail = notificationMail('a@example.com', 'scan.completed', second, 'https://x/reports/1/view?exp=1&sig=s')!;
    expect(mail.subject).toBe(`1 new finding since the last scan (1 fixed): grade ${String(second.grade)} for ${SITE}`);
    expect(mail.text.split('\n').slice(0, 2)).toEqual(['1 new finding since the last scan (1 fixed).', 'New: A new hole (high)']);
    expect(mail.html.indexOf('1 new finding since the last scan')).toBeLessThan(mail.html.indexOf('The scan of'));

    // Nothing changed: said so, still first.
    const third = await run(changed, 'manual');
    expect(third).toMatchObject({ summary: 'No new findings since the last scan', new_count: 0, fixed_count: 0, new_findings: [] });
  });
});
