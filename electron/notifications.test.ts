import { describe, expect, it, vi } from 'vitest';
import type { NoticeContext } from './notice';
import { createNotifier, noticeFor, RecentKeys } from './notifications';
import type { LiveMessage } from '../common/projects';

const PROJECT = '11111111-1111-4111-8111-111111111111';
const context: NoticeContext = {
  siteOf: (id) => (id === PROJECT ? 'https://shop.example' : undefined),
  scenarioOf: (id) => (id === 'sc1' ? { projectId: PROJECT, name: 'Checkout' } : undefined),
};

function scanState(state: 'queued' | 'running' | 'completed' | 'failed', scanId = 's1'): LiveMessage {
  return {
    type: 'scan.state',
    project_id: PROJECT,
    scan_id: scanId,
    scan: {
      id: scanId,
      state,
      queued_at: '2026-11-24T07:00:00Z',
      started_at: null,
      finished_at: null,
      progress: null,
      score: 71,
      grade: state === 'completed' ? 'C' : null,
      header_grade: null,
      counts: state === 'completed' ? { critical: 1, high: 3, medium: 0, low: 0, info: 2 } : null,
      error: state === 'failed' ? 'The site did not answer.' : null,
      report_id: null,
    },
  };
}

function run(status: 'queued' | 'running' | 'passed' | 'failed', scenarioId = 'sc1'): LiveMessage {
  return {
    type: 'scenario.run',
    scenario_id: scenarioId,
    run: {
      id: `r-${status}`,
      scenario_id: scenarioId,
      status,
      created_at: '2026-11-24T07:00:00Z',
      started_at: null,
      duration_ms: null,
      failed_step: status === 'failed' ? 2 : null,
      error: status === 'failed' ? 'Button not found' : null,
      steps: [],
      console_errors: [],
      failed_requests: [],
      screenshot_url: null,
      trace_url: null,
    },
  };
}

describe('noticeFor', () => {
  it('announces a finished scan with site, grade and critical/high counts', () => {
    expect(noticeFor(scanState('completed'), context)).toEqual({
      key: 'scan:s1:completed',
      title: 'Scan finished: https://shop.example',
      body: 'Grade C. 1 critical issue, 3 high issues.',
      projectId: PROJECT,
    });
  });

  it('leads a re-scan with what is new since the last scan', () => {
    const rescan: NoticeContext = { ...context, changesOf: (id) => (id === 's1' ? { new: 2, fixed: 0 } : id === 's2' ? { new: 0, fixed: 1 } : null) };
    expect(noticeFor(scanState('completed'), rescan)?.body).toBe('2 new findings since the last scan. Grade C. 1 critical issue, 3 high issues.');
    expect(noticeFor(scanState('completed', 's2'), rescan)?.body).toBe('No new findings since the last scan (1 fixed). Grade C. 1 critical issue, 3 high issues.');
    expect(noticeFor(scanState('completed', 's3'), rescan)?.body).toBe('Grade C. 1 critical issue, 3 high issues.');
  });

  it('announces a failed scan with its error', () => {
    const notice = noticeFor(scanState('failed'), context);
    expect(notice?.title).toBe('Scan failed: https://shop.example');
    expect(notice?.body).toBe('The site did not answer.');
  });

  it('says nothing for queued or running scans, progress, or other messages', () => {
    expect(noticeFor(scanState('queued'), context)).toBeNull();
    expect(noticeFor(scanState('running'), context)).toBeNull();
    expect(noticeFor(run('running'), context)).toBeNull();
  });

  it('announces scenario runs that passed or failed, opening the scenario project', () => {
    expect(noticeFor(run('passed'), context)).toMatchObject({ title: 'Scenario passed: Checkout', projectId: PROJECT });
    expect(noticeFor(run('failed'), context)).toMatchObject({
      title: 'Scenario failed: Checkout',
      body: 'Step 3 failed. Button not found',
      key: 'run:r-failed:failed',
    });
  });

  it('skips a run of an unknown scenario (no project to open)', () => {
    expect(noticeFor(run('passed', 'unknown'), context)).toBeNull();
  });
});

describe('RecentKeys', () => {
  it('is bounded and evicts the least recently seen key', () => {
    const keys = new RecentKeys(2);
    expect(keys.add('a')).toBe(true);
    expect(keys.add('b')).toBe(true);
    expect(keys.add('a')).toBe(false); // refreshes a
    expect(keys.add('c')).toBe(true); // evicts b
    expect(keys.size).toBe(2);
    expect(keys.add('a')).toBe(false);
    expect(keys.add('b')).toBe(true);
  });
});

function setup(signedIn = true, enabled = true) {
  const show = vi.fn<(notice: { title: string; body: string }, onClick: () => void) => void>();
  const focusWindow = vi.fn();
  const openProject = vi.fn();
  const state = { signedIn, enabled };
  const notifier = createNotifier({
    context,
    isSignedIn: () => state.signedIn,
    notificationsEnabled: () => state.enabled,
    show,
    focusWindow,
    openProject,
  });
  return { notifier, show, focusWindow, openProject, state };
}

describe('createNotifier', () => {
  it('shows a notification once per event, even when a reconnect replays it', () => {
    const { notifier, show } = setup();
    notifier.handle(scanState('completed'));
    notifier.handle(scanState('completed'));
    expect(show).toHaveBeenCalledTimes(1);
    notifier.handle(scanState('completed', 's2'));
    expect(show).toHaveBeenCalledTimes(2);
  });

  it('shows nothing while signed out or when notifications are off', () => {
    const { notifier, show, state } = setup(false, true);
    notifier.handle(scanState('completed', 'a'));
    state.signedIn = true;
    state.enabled = false;
    notifier.handle(scanState('completed', 'b'));
    expect(show).not.toHaveBeenCalled();
  });

  it('ignores messages that do not match the live contract', () => {
    const { notifier, show } = setup();
    expect(notifier.handle({ type: 'scan.state', project_id: PROJECT })).toBeNull();
    expect(notifier.handle('garbage')).toBeNull();
    expect(show).not.toHaveBeenCalled();
  });

  it('a click focuses the window and opens the project', () => {
    const { notifier, show, focusWindow, openProject } = setup();
    notifier.handle(run('failed'));
    const onClick = show.mock.calls[0]?.[1];
    expect(openProject).not.toHaveBeenCalled();
    onClick?.();
    expect(focusWindow).toHaveBeenCalledTimes(1);
    expect(openProject).toHaveBeenCalledWith(PROJECT);
  });
});
