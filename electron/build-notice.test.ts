import { describe, expect, it, vi } from 'vitest';
import type { BuildChanges, ContinuousBuild } from '../common/continuous';
import { parseLiveEvent } from './live-subscriber';
import { createNotifier, noticeFor } from './notifications';

const PROJECT = '11111111-1111-4111-8111-111111111111';
const PAGE = `/dashboard/continuous-testing?project=${PROJECT}`;
const context = { siteOf: () => undefined, scenarioOf: () => undefined };

const finding = (title: string, severity: 'critical' | 'high' | 'medium' | 'low' | 'info', n = 0) => ({ fingerprint: `f-${title}-${n}`, title, severity });

function build(status: ContinuousBuild['status'], changes: Partial<BuildChanges> | null, id = 'b1'): ContinuousBuild {
  return {
    id,
    project_id: PROJECT,
    build_hash: 'bbbbbbbb',
    status,
    url: 'https://shop.example/',
    timestamp: '2026-11-24T07:00:00Z',
    trigger: 'script',
    scan_id: 's2',
    changes: changes && { previous_scan_id: 's1', grade: 'C', previous_grade: 'B', new_findings: [], new_count: 0, fixed_count: 0, error: null, ...changes },
    finished_at: status === 'other' ? null : '2026-11-24T07:03:00Z',
  };
}

const notice = (b: ContinuousBuild) => noticeFor({ type: 'continuous.build', build: b }, context);

describe('build notices', () => {
  it('names the new high and critical findings of an error build and opens the continuous testing page', () => {
    const findings = [
      finding('Environment file exposed', 'critical'),
      finding('Secret key in JavaScript', 'high'),
      finding('Admin page open', 'high'),
      finding('Directory listing enabled', 'medium'),
    ];
    expect(notice(build('error', { new_findings: findings, new_count: 5 }))).toEqual({
      key: 'build:b1:error',
      title: 'Build error on shop.example: 1 new critical finding and 2 new high findings',
      body: 'Environment file exposed (critical), Secret key in JavaScript (high), Admin page open (high) and 2 more.',
      projectId: PROJECT,
      path: PAGE,
    });
  });

  it('says the site broke when the re-scan failed', () => {
    expect(notice(build('error', { grade: null, error: 'Could not reach https://shop.example/: refused' }))).toMatchObject({
      title: 'Build error on shop.example: the site could not be scanned',
      body: 'Could not reach https://shop.example/: refused',
    });
  });

  it('counts new medium findings in a warning, and a passed build gives its grade', () => {
    expect(notice(build('warning', { new_findings: [finding('Directory listing enabled', 'medium')], new_count: 1 }))).toMatchObject({
      key: 'build:b1:warning',
      title: 'Build warning on shop.example: 1 new medium finding',
      body: 'Directory listing enabled (medium).',
    });
    expect(notice(build('success', {}))).toMatchObject({ title: 'Build passed on shop.example', body: 'Grade C. Nothing new at medium or above.', path: PAGE });
  });

  it('stays silent while the build waits for its re-scan', () => {
    expect(notice(build('other', null))).toBeNull();
  });

  it('reads continuous.build from the live stream and a click opens the continuous testing page of the project', () => {
    const message = parseLiveEvent({ event: 'continuous.build', data: JSON.stringify({ build: build('success', {}) }) });
    expect(message?.type).toBe('continuous.build');
    const show = vi.fn<(notice: { title: string; body: string }, onClick: () => void) => void>();
    const openProject = vi.fn();
    const notifier = createNotifier({ context, isSignedIn: () => true, notificationsEnabled: () => true, show, focusWindow: () => {}, openProject });
    notifier.handle(message);
    notifier.handle(message); // a replay after a reconnect
    expect(show).toHaveBeenCalledTimes(1);
    show.mock.calls[0]![1]();
    expect(openProject).toHaveBeenCalledWith(PROJECT, PAGE);
  });
});
