import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, dialog, Notification, safeStorage, session, WebContentsView } from 'electron';
import type { AppInfo } from '../common/ipc';
import type { ApplicationMenu } from './app-menu';
import { APP_ENTRY_URL, APP_ORIGIN } from './app-origin';
import { registerAppSettingsHandlers } from './app-settings-ipc';
import { askAboutTeamServer, openAppSettings, setUpApplicationMenu } from './app-setup';
import { deepLinkRoute, setUpDeepLinks } from './deep-link-delivery';
import { sendEvent } from './events';
import { createGoogleSignIn } from './google-sign-in';
import { createIpcRegistrar } from './ipc';
import { LIVE_BROWSER_PARTITION, LiveBrowser, liveBrowserPreferences, registerLiveBrowserHandlers } from './live-browser';
import { startLiveNotifications, type LiveNotifications } from './live-notifications';
import { watchSessionWrites } from './live-session';
import { guardWebContents, hardenSession } from './navigation';
import { nativeNotifications, projectOpener } from './notice-delivery';
import { createNoticeQueue, keychainFallbackReporter } from './notices';
import { registerAppScheme, serveAppProtocol } from './protocol';
import { createReportMenuAttacher } from './report-menu';
import { createReportOpener, REPORT_PARTITION } from './reports';
import { ServerHost, ServerStartError } from './server-host';
import { checkTeamServer, type SettingsService } from './settings';
import { resolveServerOrigin } from './start-server';
import { startAutoUpdates } from './updates';
import { openExternalSafely } from './shell';
import { createVault, type Vault } from './vault';
import { createFileKeychain } from './vault-file';
import { createMainWindow, focusMainWindow, getMainWindow } from './windows';

// The built layout: out/main/index.js (this file) beside out/main/server.js, out/preload/, out/renderer/.
const SERVER_PATH = join(__dirname, 'server.js');
const PRELOAD_PATH = join(__dirname, '..', 'preload', 'index.js');
const RENDERER_DIR = join(__dirname, '..', 'renderer');
/** How long quitting waits for the server (and its PostgreSQL) to stop before killing it. */
const STOP_TIMEOUT_MS = 10_000;

// Both must happen before `ready`.
registerAppScheme();
app.enableSandbox();

let quitting = false;
let serverStopped = false;
let stopRequested = false;
let serverOrigin: string | null = null;
let liveNotifications: LiveNotifications | null = null;
/** The workspace the renderer shows (vibeeval:workspace:select); null = the personal one. */
let currentWorkspace: string | null = null;

const server = new ServerHost({
  serverPath: SERVER_PATH,
  // VIBEEVAL_DATA_DIR when set (as for `vibeeval serve`), else the OS user-data folder.
  dataDir: process.env.VIBEEVAL_DATA_DIR || app.getPath('userData'),
  onUnexpectedExit(code) {
    if (quitting) return;
    dialog.showErrorBox('vibeeval stopped', `The vibeeval server stopped unexpectedly (exit code ${code}). Start vibeeval again.\n\n${server.output}`);
    app.quit();
  },
});

// Sign-in with Google runs in the system browser and comes back as a vibeeval://auth/callback link.
const googleSignIn = createGoogleSignIn({
  serverOrigin: () => serverOrigin,
  openExternal: openExternalSafely,
  send: (event) => void sendEvent(getMainWindow(), 'vibeeval:event:auth', event),
});

function platformName(): AppInfo['platform'] {
  const { platform } = process;
  return platform === 'darwin' || platform === 'win32' || platform === 'linux' ? platform : 'other';
}

// Notices for the user (e.g. no keychain): kept until the page asks for them, then sent as events.
const notices = createNoticeQueue({ send: (notice) => sendEvent(getMainWindow(), 'vibeeval:event:notice', notice) });

function openVault(origin: string, settings: SettingsService): Vault {
  return createVault({
    origin,
    fallback: () => createFileKeychain(join(app.getPath('userData'), 'vault'), safeStorage),
    onFallback: keychainFallbackReporter({
      queue: notices,
      alreadyShown: () => settings.get().keychainNoticeShown,
      markShown: () => settings.setKeychainNoticeShown(),
    }),
  });
}

function registerIpcHandlers(origin: string, vault: Vault, settings: SettingsService, applicationMenu: ApplicationMenu): void {
  const ipc = createIpcRegistrar(getMainWindow);
  ipc.handle('vibeeval:app:get-info', () => ({ serverOrigin: origin, version: app.getVersion(), platform: platformName() }));
  ipc.handle('vibeeval:vault:get-item', (key) => vault.getItem(key));
  ipc.handle('vibeeval:vault:set-item', (key, value) => vault.setItem(key, value));
  ipc.handle('vibeeval:vault:remove-item', (key) => vault.removeItem(key));
  ipc.handle('vibeeval:shell:open-external', (url) => openExternalSafely(url));
  ipc.handle('vibeeval:auth:start-google', () => googleSignIn.start());
  ipc.handle('vibeeval:workspace:select', (id) => {
    if (id === currentWorkspace) return;
    currentWorkspace = id;
    // The stream's ticket names the workspace: a new one for the new workspace.
    liveNotifications?.sessionChanged();
  });
  ipc.handle('vibeeval:reports:open', createReportOpener({ serverOrigin: origin, attachActions: createReportMenuAttacher(applicationMenu) }));
  registerAppSettingsHandlers(ipc, { settings, activeServerOrigin: origin, notices, app });
  registerLiveBrowserHandlers(
    ipc,
    new LiveBrowser<WebContentsView>({
      serverOrigin: origin,
      getWindow: getMainWindow,
      createView: () => new WebContentsView({ webPreferences: liveBrowserPreferences() }),
      session: () => session.fromPartition(LIVE_BROWSER_PARTITION),
      emit: (state) => sendEvent(getMainWindow(), 'vibeeval:event:browser', state),
    }),
  );
}

// Links (vibeeval://...) from the OS: registers the scheme and takes the single-instance lock.
const deepLinks = setUpDeepLinks({
  app,
  argv: process.argv,
  development: app.isPackaged ? undefined : { execPath: process.execPath, appPath: app.getAppPath() },
  focus: focusMainWindow,
  deliver(link) {
    const route = deepLinkRoute(link);
    if (route) void getMainWindow()?.webContents.loadURL(`${APP_ORIGIN}${route}`);
    else if (link.kind === 'auth-callback' || link.kind === 'auth-error') void googleSignIn.receive(link);
    else console.warn(`vibeeval: ${link.kind} links are not handled yet`);
  },
});

async function openMainWindow(url = APP_ENTRY_URL): Promise<void> {
  await createMainWindow({ preloadPath: PRELOAD_PATH, url });
  deepLinks.ready();
}

/** Native notifications when the signed-in user's scans and scenario runs finish (live-notifications.ts). */
function startNotifications(origin: string, vault: Vault, settings: SettingsService): LiveNotifications {
  return startLiveNotifications({
    origin,
    vault,
    hasWindow: () => getMainWindow() !== null,
    workspace: () => currentWorkspace,
    // Preferences › Desktop app › Desktop notifications.
    notificationsEnabled: () => settings.get().desktopNotifications,
    show: nativeNotifications(Notification),
    focusWindow: focusMainWindow,
    openProject: projectOpener({ getWindow: getMainWindow, reopen: (path) => openMainWindow(`${APP_ORIGIN}${path}`) }),
    log: (message) => console.warn(`vibeeval: ${message}`),
  });
}

async function start(): Promise<void> {
  hardenSession(session.defaultSession);
  const settings = await openAppSettings();
  const applicationMenu = setUpApplicationMenu();
  // A team server saved in the settings replaces the embedded one once it answers; else the user chooses.
  const origin = await resolveServerOrigin({
    settings,
    check: (url) => checkTeamServer(url),
    ask: askAboutTeamServer,
    startEmbedded: () => server.start(),
  });
  if (origin === null) return app.quit();
  serverOrigin = origin;
  serveAppProtocol(session.defaultSession.protocol, { rendererDir: RENDERER_DIR, serverOrigin });
  const vault = openVault(serverOrigin, settings);
  // The renderer's sign-in, refresh and sign-out pass through this vault: the live stream follows them.
  const watched = watchSessionWrites(vault, { changed: () => liveNotifications?.sessionChanged(), beforeRead: () => liveNotifications?.settled() });
  registerIpcHandlers(serverOrigin, watched, settings, applicationMenu);
  await openMainWindow();
  // Off unless packaged with a feed (VIBEEVAL_UPDATE_URL or electron-builder's app-update.yml); errors only logged.
  startAutoUpdates({
    packaged: app.isPackaged,
    env: process.env,
    hasBuiltInFeed: existsSync(join(process.resourcesPath, 'app-update.yml')),
    // electron-updater defines autoUpdater with a getter that import() cannot see as a named export: take it from the module object.
    loadUpdater: async () => (await import('electron-updater')).default.autoUpdater,
    log: (message) => console.error(message),
  });
  if (!quitting) liveNotifications = startNotifications(serverOrigin, vault, settings);
}

async function failStartup(error: unknown): Promise<void> {
  if (quitting) return; // quit while starting: the server stopping is not a failure
  // The server's own messages may already say "vibeeval could not start: ..." (the dialog's title).
  const message = (error instanceof Error ? error.message : String(error)).replace(/^vibeeval could not start:\s*/i, '');
  const lines = error instanceof ServerStartError ? error.output.split('\n').filter((line) => !line.endsWith(message)) : [];
  const output = lines.length > 0 ? `\n\nLast server output:\n${lines.join('\n')}` : '';
  console.error(`vibeeval could not start: ${message}`);
  dialog.showErrorBox('vibeeval could not start', `${message}${output}`);
  await server.stop(STOP_TIMEOUT_MS);
  serverStopped = true;
  app.exit(1);
}

// Another vibeeval is running: it got this launch's argv ('second-instance' there), and this one has quit.
if (deepLinks.primary) {
  // Every web contents, whichever window or frame creates it, stays on app://vibeeval, except report windows and
  // the live browser: each lives in its own session under its own guard (reports.ts, live-browser.ts).
  app.on('web-contents-created', (_event, contents) => {
    if (contents.session === session.fromPartition(REPORT_PARTITION)) return;
    if (contents.session === session.fromPartition(LIVE_BROWSER_PARTITION)) return;
    guardWebContents(contents);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (serverOrigin && !getMainWindow() && !quitting) {
      openMainWindow().catch((error: unknown) => console.error(`vibeeval: could not open the window: ${(error as Error).message}`));
    }
  });

  // Quitting waits for the server to stop (it shuts PostgreSQL down cleanly), then quits for real.
  app.on('before-quit', (event) => {
    quitting = true;
    liveNotifications?.stop();
    if (serverStopped || !server.running) return;
    event.preventDefault();
    if (stopRequested) return;
    stopRequested = true;
    void server.stop(STOP_TIMEOUT_MS).finally(() => {
      serverStopped = true;
      app.quit();
    });
  });

  void app.whenReady().then(start).catch(failStartup);
}
