import { describe, expect, it } from 'vitest';
import type { ScanProgress } from '../../common/scan';
import type { Db } from '../db';
import { McpSessions } from './sessions';
import { ToolError, waitForScan } from './scans';

const SCAN_ID = '0b3c8a52-7d7e-4f57-9a56-1c1f2d7e9a10';
const progress = (pagesDone: number): ScanProgress => ({ phase: 'crawl', pagesDone, pagesTotal: 4, checksRun: 0, checksTotal: 10, findings: 0 });

/** A database whose scan row goes through `states`, one per read, then stays on the last. */
function scanRows(states: { state: string; progress: ScanProgress | null }[]): { db: Db; reads: () => number } {
  let reads = 0;
  const next = async () => [{ id: SCAN_ID, ...states[Math.min(reads++, states.length - 1)] }];
  const db = { select: () => ({ from: () => ({ where: () => ({ limit: next }) }) }) } as unknown as Db;
  return { db, reads: () => reads };
}

describe('waiting for a scan', () => {
  it('reports each change of progress once and returns the finished row', async () => {
    const { db } = scanRows([
      { state: 'queued', progress: null },
      { state: 'running', progress: progress(1) },
      { state: 'running', progress: progress(1) },
      { state: 'running', progress: progress(3) },
      { state: 'completed', progress: { ...progress(4), phase: 'done' } },
    ]);
    const seen: string[] = [];
    const done = await waitForScan(db, 'user', SCAN_ID, new AbortController().signal, (p, state) => void seen.push(`${state}:${p?.pagesDone ?? '-'}`));
    expect(done.state).toBe('completed');
    expect(seen).toEqual(['queued:-', 'running:1', 'running:3', 'completed:4']);
  });

  it('stops waiting at once when the call is cancelled, and after its time limit', async () => {
    const running = scanRows([{ state: 'running', progress: progress(1) }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(waitForScan(running.db, 'user', SCAN_ID, controller.signal, () => undefined)).rejects.toThrow(/Stopped waiting for scan .* \(cancelled\)/);
    expect(Date.now() - started).toBeLessThan(350);
    const timed = scanRows([{ state: 'running', progress: progress(1) }]);
    const error = await waitForScan(timed.db, 'user', SCAN_ID, new AbortController().signal, () => undefined, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toContain('still running');
  });

  it('reads the row again as soon as news of the scan arrives, not at the next poll', async () => {
    const rows = scanRows([
      { state: 'running', progress: progress(1) },
      { state: 'completed', progress: { ...progress(4), phase: 'done' } },
    ]);
    let unsubscribed = false;
    const started = Date.now();
    const done = await waitForScan(rows.db, 'user', SCAN_ID, new AbortController().signal, () => undefined, {
      wake: (poke) => {
        const timer = setTimeout(poke, 30);
        return () => {
          clearTimeout(timer);
          unsubscribed = true;
        };
      },
    });
    expect(done.state).toBe('completed');
    expect(Date.now() - started).toBeLessThan(500); // the poll alone would take 1 s
    expect(unsubscribed).toBe(true);
  });

  it('answers Scan not found for an id that is not a UUID, without a query', async () => {
    const rows = scanRows([{ state: 'running', progress: null }]);
    await expect(waitForScan(rows.db, 'user', 'x', new AbortController().signal, () => undefined)).rejects.toThrow('Scan not found');
    expect(rows.reads()).toBe(0);
  });
});

describe('MCP sessions', () => {
  const fake = (userId: string, closed: string[], id: string, workspaceId = userId) => ({
    userId,
    workspaceId,
    lastSeen: Date.now(),
    transport: {} as never,
    server: { close: async () => void closed.push(id) } as never,
  });

  it('belong to their user, keep at most the per-user limit (least recently used closed), and expire when idle', async () => {
    const closed: string[] = [];
    const sessions = new McpSessions({ perUser: 2, idleMs: 60_000 });
    sessions.add('a1', fake('a', closed, 'a1'));
    sessions.add('b1', fake('b', closed, 'b1'));
    expect(sessions.get('a1', { userId: 'b', workspaceId: 'b' })).toBeUndefined();
    expect(sessions.get('a1', { userId: 'a', workspaceId: 'a' })?.userId).toBe('a');
    sessions.add('a2', fake('a', closed, 'a2'));
    sessions.get('a1', { userId: 'a', workspaceId: 'a' }); // a1 used last: a2 is the least recently used
    await new Promise((resolve) => setTimeout(resolve, 5));
    sessions.get('a1', { userId: 'a', workspaceId: 'a' });
    sessions.add('a3', fake('a', closed, 'a3'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toEqual(['a2']);
    expect(sessions.size).toBe(3);
    await sessions.closeAll();
    expect(closed.sort()).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(sessions.size).toBe(0);
  });

  it("belong to the key's workspace too: the same member with a key of another workspace does not reach them", async () => {
    const closed: string[] = [];
    const sessions = new McpSessions({ perUser: 5, idleMs: 60_000 });
    sessions.add('t1', fake('a', closed, 't1', 'team'));
    expect(sessions.get('t1', { userId: 'a', workspaceId: 'a' })).toBeUndefined();
    expect(sessions.get('t1', { userId: 'b', workspaceId: 'team' })).toBeUndefined();
    expect(sessions.get('t1', { userId: 'a', workspaceId: 'team' })?.workspaceId).toBe('team');
    await sessions.closeAll();
  });

  it('closes sessions left idle', async () => {
    const closed: string[] = [];
    const sessions = new McpSessions({ perUser: 5, idleMs: 40 });
    sessions.add('a1', fake('a', closed, 'a1'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(closed).toEqual(['a1']);
    expect(sessions.get('a1', { userId: 'a', workspaceId: 'a' })).toBeUndefined();
    await sessions.closeAll();
  });
});
