import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../server';

type StartOptions = Parameters<typeof startServer>[1];

/** A running server on a fresh data dir and a free port; `stop()` closes it and removes the data. */
export async function startTestServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningServer & { dataDir: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-test-'));
  // Tests about other things are not held by plan limits (the accounts they make have no subscription); the
  // tests of the limits themselves start their server with VIBEEVAL_UNSUBSCRIBED_TIER=basic.
  // Every test signs up and in from 127.0.0.1: the per-client limits are for a public server's many clients (the
  // tests of those limits set their own).
  const defaults = { VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise', VIBEEVAL_API_PLAN: 'free', SIGNUP_MAX_PER_IP: '1000', SIGNIN_MAX_PER_IP: '1000' };
  const server = await startServer({ PATH: process.env.PATH, LOG_LEVEL: 'warn', PORT: '0', VIBEEVAL_DATA_DIR: dataDir, ...defaults, ...env }, options);
  return {
    ...server,
    dataDir,
    async stop() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export { startSmtpCapture, type CapturedMail } from './smtp-capture';
