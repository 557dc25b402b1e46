import { DEEP_LINK_SCHEME, describeDeepLink, findDeepLinkArg, parseDeepLink, type DeepLink } from './deep-links';

/** The part of Electron's `app` that link delivery uses (a fake in tests). */
export interface DeepLinkApp {
  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown;
}

export interface DeepLinkDeliveryOptions {
  app: DeepLinkApp;
  /** process.argv of this launch (a link may be its last argument on Windows/Linux). */
  argv: readonly string[];
  /** In development (`electron .`) the OS must start Electron with the app path: process.execPath + [appPath]. */
  development?: { execPath: string; appPath: string };
  /** Brings the main window to the front (called for every valid link and for a bare second launch). */
  focus: () => void;
  /** Acts on a valid link; only called once `ready()` has been called. */
  deliver: (link: DeepLink) => void;
  /** Where ignored links are reported, without query or fragment. */
  log?: (message: string) => void;
}

export interface DeepLinkDelivery {
  /** False when another instance holds the lock: this one has called quit() and should do nothing else. */
  readonly primary: boolean;
  /** The main window exists: flush queued links, deliver later ones at once. */
  ready(): void;
  /** Handles one raw link (from any source). */
  receive(raw: string): void;
}

/** Registers the scheme, takes the single-instance lock and routes links from every source to `deliver`. */
export function setUpDeepLinks(options: DeepLinkDeliveryOptions): DeepLinkDelivery {
  const { app, focus, deliver } = options;
  const log = options.log ?? ((message: string) => console.warn(message));
  if (!app.requestSingleInstanceLock()) {
    // The running instance gets this launch's argv through 'second-instance'.
    app.quit();
    return { primary: false, ready() {}, receive() {} };
  }
  if (options.development) {
    const { execPath, appPath } = options.development;
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, execPath, [appPath]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }

  let isReady = false;
  const queue: DeepLink[] = [];
  const receive = (raw: string): void => {
    const link = parseDeepLink(raw);
    if (!link) {
      log(`vibeeval: ignored link ${describeDeepLink(raw)}`);
      return;
    }
    if (!isReady) {
      queue.push(link);
      return;
    }
    focus();
    deliver(link);
  };

  // macOS: may fire before 'ready' (the link that launched the app).
  app.on('open-url', (event, url) => {
    event.preventDefault();
    receive(url);
  });
  // Windows/Linux: a second launch hands its argv over, the link among it.
  app.on('second-instance', (_event, argv) => {
    const raw = findDeepLinkArg(argv);
    if (raw) receive(raw);
    else if (isReady) focus();
  });
  const first = findDeepLinkArg(options.argv);
  if (first) receive(first);

  return {
    primary: true,
    receive,
    ready() {
      if (isReady) return;
      isReady = true;
      const pending = queue.splice(0);
      if (pending.length > 0) focus();
      for (const link of pending) deliver(link);
    },
  };
}

/** The renderer route a link opens, for links handled by navigation; null for the others. */
export function deepLinkRoute(link: DeepLink): string | null {
  switch (link.kind) {
    case 'project':
      return `/dashboard/projects/${link.projectId}`;
    case 'password-recovery':
      return `/reset-password#${link.fragment}`;
    case 'report':
      // The reports page opens the report's preview window once it is ready (use-open-report-link.ts).
      return `/dashboard/reports?open=${link.reportId}`;
    case 'invite':
      // The invitation page previews it and joins (signed out, it leads to sign-in and back).
      return `/invite?token=${encodeURIComponent(link.token)}`;
    default:
      return null;
  }
}
