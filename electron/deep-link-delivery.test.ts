import { describe, expect, it, vi } from 'vitest';
import { deepLinkRoute, setUpDeepLinks, type DeepLinkApp } from './deep-link-delivery';
import type { DeepLink } from './deep-links';

const UUID = '3f2b8c1e-7a4d-4e2f-9b6a-1c2d3e4f5a6b';
const PROJECT_LINK = `vibeeval://project/${UUID}`;

type Listener = (...args: never[]) => void;

function fakeApp(lock = true) {
  const listeners = new Map<string, Listener>();
  const app = {
    setAsDefaultProtocolClient: vi.fn(() => true),
    requestSingleInstanceLock: vi.fn(() => lock),
    quit: vi.fn(),
    on: vi.fn((event: string, listener: Listener) => listeners.set(event, listener)),
  };
  const emit = (event: string, ...args: unknown[]) => (listeners.get(event) as (...a: unknown[]) => void)(...args);
  return { app: app as unknown as DeepLinkApp, mocks: app, emit, listeners };
}

function setUp(overrides: { lock?: boolean; argv?: string[]; development?: { execPath: string; appPath: string } } = {}) {
  const fake = fakeApp(overrides.lock);
  const focus = vi.fn();
  const delivered: DeepLink[] = [];
  const log = vi.fn();
  const delivery = setUpDeepLinks({
    app: fake.app,
    argv: overrides.argv ?? ['/opt/vibeeval/vibeeval'],
    development: overrides.development,
    focus,
    deliver: (link) => delivered.push(link),
    log,
  });
  return { ...fake, focus, delivered, log, delivery };
}

describe('setUpDeepLinks', () => {
  it('quits a second instance without registering anything', () => {
    const { mocks, delivery, listeners } = setUp({ lock: false });
    expect(mocks.quit).toHaveBeenCalledOnce();
    expect(delivery.primary).toBe(false);
    expect(mocks.setAsDefaultProtocolClient).not.toHaveBeenCalled();
    expect(listeners.size).toBe(0);
  });

  it('registers the scheme, with the app path in development', () => {
    expect(setUp().mocks.setAsDefaultProtocolClient).toHaveBeenCalledWith('vibeeval');
    const dev = setUp({ development: { execPath: '/x/electron', appPath: '/src/app' } });
    expect(dev.mocks.setAsDefaultProtocolClient).toHaveBeenCalledWith('vibeeval', '/x/electron', ['/src/app']);
  });

  it('queues an open-url that arrives before ready, then focuses and delivers it', () => {
    const { emit, delivery, delivered, focus } = setUp();
    const preventDefault = vi.fn();
    emit('open-url', { preventDefault }, PROJECT_LINK);
    expect(preventDefault).toHaveBeenCalled();
    expect(delivered).toEqual([]);
    delivery.ready();
    expect(focus).toHaveBeenCalledOnce();
    expect(delivered).toEqual([{ kind: 'project', projectId: UUID }]);
  });

  it('delivers the first launch argv link on ready', () => {
    const { delivery, delivered } = setUp({ argv: ['/opt/vibeeval', '--no-sandbox-never', 'vibeeval://report/r1'] });
    delivery.ready();
    expect(delivered).toEqual([{ kind: 'report', reportId: 'r1' }]);
  });

  it('delivers a second-instance link at once when ready, and only focuses without one', () => {
    const { emit, delivery, delivered, focus } = setUp();
    delivery.ready();
    emit('second-instance', {}, ['/opt/vibeeval', 'vibeeval://auth/callback?code=c&state=s']);
    expect(delivered).toEqual([{ kind: 'auth-callback', code: 'c', state: 's' }]);
    emit('second-instance', {}, ['/opt/vibeeval']);
    expect(focus).toHaveBeenCalledTimes(2);
    expect(delivered).toHaveLength(1);
  });

  it('ignores invalid links and logs them without query or fragment', () => {
    const { emit, delivery, delivered, focus, log } = setUp();
    delivery.ready();
    emit('open-url', { preventDefault() {} }, 'vibeeval://unknown/path?token=SECRET#more=SECRET');
    expect(delivered).toEqual([]);
    expect(focus).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledOnce();
    expect(String(log.mock.calls[0]?.[0])).not.toContain('SECRET');
    expect(String(log.mock.calls[0]?.[0])).toContain('vibeeval://unknown/path');
  });
});

describe('deepLinkRoute', () => {
  it('maps project, recovery and report links to renderer routes, sign-in links to null', () => {
    expect(deepLinkRoute({ kind: 'project', projectId: UUID })).toBe(`/dashboard/projects/${UUID}`);
    expect(deepLinkRoute({ kind: 'password-recovery', fragment: 'access_token=t&type=recovery' })).toBe('/reset-password#access_token=t&type=recovery');
    expect(deepLinkRoute({ kind: 'auth-callback', code: 'c', state: 's' })).toBeNull();
    expect(deepLinkRoute({ kind: 'auth-error', error: 'access_denied' })).toBeNull();
    expect(deepLinkRoute({ kind: 'report', reportId: 'r_1-a' })).toBe('/dashboard/reports?open=r_1-a');
    const token = `vbi_${'x'.repeat(43)}`;
    expect(deepLinkRoute({ kind: 'invite', token })).toBe(`/invite?token=${token}`);
  });
});
