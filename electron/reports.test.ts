import { EventEmitter } from 'node:events';
import type { WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const SERVER = 'http://127.0.0.1:53211';
const PREVIEW = `${SERVER}/report-preview?signed_url=${encodeURIComponent(`${SERVER}/reports/r1/html?exp=1&sig=abc`)}`;

/** A web contents with just what the guards touch: the window-open handler and navigation events. */
class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  /** Emits a navigation event (optionally already cancelled by an earlier guard); true when it ends up cancelled. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string, { isMainFrame = true, prevented = false } = {}): boolean {
    const details = {
      url,
      isMainFrame,
      defaultPrevented: prevented,
      preventDefault: () => (details.defaultPrevented = true),
    };
    this.emit(event, details);
    return details.defaultPrevented;
  }
}

const created: FakeWindow[] = [];
class FakeWindow extends EventEmitter {
  readonly webContents = new FakeContents();
  readonly loadURL = vi.fn(async (_url: string) => undefined);
  readonly show = vi.fn();
  readonly focus = vi.fn();
  readonly restore = vi.fn();
  destroyed = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    created.push(this);
  }
  isDestroyed = () => this.destroyed;
  isMinimized = () => false;
  isVisible = () => false;
}

const permissionHandlers = { request: vi.fn(), check: vi.fn() };
const fakeSession = {
  setPermissionRequestHandler: permissionHandlers.request,
  setPermissionCheckHandler: permissionHandlers.check,
};
const fromPartition = vi.fn((_partition: string) => fakeSession);

vi.mock('electron', () => ({
  BrowserWindow: FakeWindow,
  session: { fromPartition: (partition: string) => fromPartition(partition) },
  shell: { openExternal: vi.fn(async () => undefined) },
}));

const { REPORT_PARTITION, createReportOpener, guardReportContents, parseReportUrl, reportWindowOptions } = await import('./reports');

describe('parseReportUrl', () => {
  it.each([PREVIEW, `${SERVER}/`, `${SERVER}/reports/r1/html?exp=1&sig=abc`, 'HTTP://127.0.0.1:53211/report-preview'])('accepts %s on the server origin', (url) => {
    expect(parseReportUrl(url, SERVER)).toBeInstanceOf(URL);
  });

  it.each([
    'https://evil.example/report-preview?signed_url=x',
    'http://127.0.0.1:53212/report-preview',
    'http://localhost:53211/report-preview',
    'https://127.0.0.1:53211/report-preview',
    'http://127.0.0.1:53211.evil.example/',
    'http://user:pass@127.0.0.1:53211/report-preview',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JaVaScRiPt:fetch("http://127.0.0.1:53211")',
    'data:text/html,<script>alert(1)</script>',
    'app://vibeeval/dashboard/reports',
    '/report-preview?signed_url=x',
    '',
    'not a url',
    `${SERVER}/report-preview?signed_url=${'a'.repeat(9000)}`,
  ])('refuses %s', (url) => {
    expect(parseReportUrl(url, SERVER)).toBeNull();
  });

  it('refuses non-strings', () => {
    expect(parseReportUrl(42, SERVER)).toBeNull();
    expect(parseReportUrl(undefined, SERVER)).toBeNull();
  });
});

describe('reportWindowOptions', () => {
  it('is sandboxed and isolated, with no Node and no preload, in its own session', () => {
    const { webPreferences } = reportWindowOptions();
    expect(webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      partition: REPORT_PARTITION,
    });
    expect(webPreferences).not.toHaveProperty('preload');
    expect(REPORT_PARTITION.startsWith('persist:')).toBe(false);
  });
});

describe('guardReportContents', () => {
  function guarded() {
    const contents = new FakeContents();
    const openExternal = vi.fn(async (_url: string) => true);
    guardReportContents(contents as unknown as WebContents, SERVER, openExternal);
    return { contents, openExternal };
  }

  it('denies every window.open and sends http(s) targets to the system browser', () => {
    const { contents, openExternal } = guarded();
    for (const url of ['https://owasp.org/', `${SERVER}/reports/r1/pdf`, 'javascript:alert(1)', 'file:///etc/passwd']) {
      expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(openExternal.mock.calls.map(([url]) => url)).toEqual(['https://owasp.org/', `${SERVER}/reports/r1/pdf`]);
  });

  it('keeps navigation on the server origin and sends web links to the system browser', () => {
    const { contents, openExternal } = guarded();
    expect(contents.navigate('will-navigate', `${SERVER}/reports/r1/csv?exp=1&sig=x`)).toBe(false);
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://vibeeval/', 'http://127.0.0.1:1/']) {
      expect(contents.navigate('will-navigate', url)).toBe(true);
    }
    expect(contents.navigate('will-navigate', 'https://sub.frame.example/', { isMainFrame: false })).toBe(true);
    // Only web pages leave for the browser; file:, app: and subframe navigations are just cancelled.
    expect(openExternal.mock.calls.map(([url]) => url)).toEqual(['https://evil.example/', 'http://127.0.0.1:1/']);
  });

  it('does nothing more when the app-wide guard already cancelled a navigation', () => {
    const { contents, openExternal } = guarded();
    expect(contents.navigate('will-navigate', 'https://evil.example/', { prevented: true })).toBe(true);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('cancels redirects off the server origin and refuses <webview>', () => {
    const { contents, openExternal } = guarded();
    expect(contents.navigate('will-redirect', `${SERVER}/report-preview?x=1`)).toBe(false);
    expect(contents.navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(openExternal).not.toHaveBeenCalled();
    const preventDefault = vi.fn();
    contents.emit('will-attach-webview', { preventDefault });
    expect(preventDefault).toHaveBeenCalled();
  });
});

describe('createReportOpener', () => {
  beforeEach(() => {
    created.length = 0;
    fromPartition.mockClear();
  });

  it('opens a guarded, sandboxed window on the report URL', async () => {
    const open = createReportOpener({ serverOrigin: SERVER, openExternal: vi.fn(async () => true) });
    await expect(open(PREVIEW)).resolves.toBe(true);
    expect(created).toHaveLength(1);
    const [window] = created;
    expect(window!.options).toEqual(reportWindowOptions());
    expect(window!.loadURL).toHaveBeenCalledWith(new URL(PREVIEW).href);
    expect(fromPartition).toHaveBeenCalledWith(REPORT_PARTITION);
    expect(window!.webContents.openHandler).not.toBeNull();

    // The session denies every permission.
    const [[requestHandler]] = permissionHandlers.request.mock.calls as [[(...args: unknown[]) => void]];
    const answers: boolean[] = [];
    requestHandler(null, 'notifications', (granted: boolean) => answers.push(granted));
    expect(answers).toEqual([false]);
    const [[checkHandler]] = permissionHandlers.check.mock.calls as [[() => boolean]];
    expect(checkHandler()).toBe(false);

    window!.emit('ready-to-show');
    expect(window!.show).toHaveBeenCalled();
  });

  it('brings an open window of the same report to the front instead of opening another', async () => {
    const open = createReportOpener({ serverOrigin: SERVER });
    await open(PREVIEW);
    await open(PREVIEW);
    expect(created).toHaveLength(1);
    expect(created[0]!.focus).toHaveBeenCalled();

    created[0]!.destroyed = true;
    created[0]!.emit('closed');
    await open(PREVIEW);
    expect(created).toHaveLength(2);
  });

  it('keeps several reports open at once, each window with its own actions', async () => {
    const attachActions = vi.fn();
    const open = createReportOpener({ serverOrigin: SERVER, attachActions });
    const other = `${SERVER}/reports/r2/html?exp=1&sig=abc`;
    await open(PREVIEW);
    await open(other);
    await open(PREVIEW); // brought to the front: no second set of actions
    expect(created).toHaveLength(2);
    expect(attachActions).toHaveBeenCalledTimes(2);
    expect(attachActions).toHaveBeenNthCalledWith(1, created[0], new URL(PREVIEW).href);
    expect(attachActions).toHaveBeenNthCalledWith(2, created[1], other);
  });

  it.each(['https://evil.example/report-preview', 'file:///etc/passwd', 'javascript:alert(1)', 'http://127.0.0.1:9/report-preview'])(
    'refuses %s and opens nothing',
    async (url) => {
      const open = createReportOpener({ serverOrigin: SERVER });
      await expect(open(url)).resolves.toBe(false);
      expect(created).toHaveLength(0);
    },
  );
});
