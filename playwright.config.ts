import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// One server in web mode for the whole run, on its own data dir (its mail outbox is read by the tests).
// Set here once: the runner's env is inherited by the workers, so they see the same values.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'vibeeval-e2e-'));
process.env.E2E_PORT ??= String(18000 + (process.pid % 2000));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

/**
 * VIBEEVAL_CHROMIUM, or Debian's Chromium headless shell (what Playwright runs headless by default, and the engine's
 * browser), or Debian's chromium; Playwright's own browser download is not available here.
 */
const chromium = [process.env.VIBEEVAL_CHROMIUM, '/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find(
  (path): path is string => Boolean(path && existsSync(path)),
);

export default defineConfig({
  testDir: 'tests',
  testMatch: ['e2e/**/*.spec.ts', 'electron/**/*.spec.ts'],
  outputDir: 'test-results',
  // Two workers share the one server: every spec makes its own accounts (newEmail()) and reads only its own mail.
  // Files, not tests, are spread over them: the longest file (workspaces, ~2 min) is far below half the run, and a
  // file's tests keep one worker's beforeAll (a test site, a second app server).
  fullyParallel: false,
  workers: 2,
  // No retries: a test that fails under load is fixed (in the app or the test), not run again.
  retries: 0,
  timeout: 60_000,
  // Assertions wait up to 10 s: on a busy 2-core machine a navigation after sign-in can take longer than 5 s.
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL,
    screenshot: 'on',
    // A failed test keeps its trace: each action's DOM snapshot, network and console. Without the screencast, which
    // cost 40 % of the run's time on a 2-core machine (three specs: 122 s with it, 80 s without, 72 s with no trace).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node bin/vibeeval.cjs serve',
    url: `${baseURL}/health`,
    reuseExistingServer: false,
    // SIGINT lets the server stop its embedded PostgreSQL (which runs in its own process group). Longer than the
    // server's own limit (20 s, server/main.ts), whose forced exit still stops PostgreSQL; a SIGKILL would not.
    gracefulShutdown: { signal: 'SIGINT', timeout: 30_000 },
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: process.env.E2E_PORT,
      HOST: '127.0.0.1',
      VIBEEVAL_DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      SMTP_URL: '',
      DATABASE_URL: '',
      // Accounts without a subscription are not held by plan limits here; the billing spec subscribes to see them.
      VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise',
      VIBEEVAL_API_PLAN: 'free',
      // Every spec signs in from 127.0.0.1: the per-IP sign-in limit (20 in 15 min) is for a public server's many
      // clients, and the suite's sign-ins now pass it (server/auth tests cover the limit itself).
      SIGNIN_MAX_PER_IP: '1000',
      SIGNUP_MAX_PER_IP: '1000',
    },
  },
});
