import { ConfigError } from './config';
import { keepRunningOnUnhandledRejection } from './last-resort';
import { safeMessage, scrubText } from './log-scrub';
import { startServer, type RunningServer } from './server';

/**
 * Entry of the server process: `vibeeval serve` / `npm run serve` in web mode, and the Electron utility
 * process in desktop mode (which learns the origin from a 'ready' message on its parent port).
 */
type ParentMessage = { type: 'stop' };
type ParentPort = { postMessage(message: unknown): void; on(event: 'message', listener: (e: { data: ParentMessage }) => void): void };
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let server: RunningServer;
  try {
    server = await startServer(env);
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `vibeeval could not start: ${safeMessage(error)}`;
    console.error(message);
    parentPort?.postMessage({ type: 'fatal', message });
    process.exitCode = 1;
    return;
  }
  // Once serving, nothing unforeseen may take the server down (a failed start still ends the process).
  keepRunningOnUnhandledRejection((message) => console.error(scrubText(message)));
  // Behind a proxy (PUBLIC_URL), the address it listens on too: a supervisor that gave it PORT=0 learns its port here.
  console.log(`vibeeval is running at ${server.origin}${server.listening === server.origin ? '' : ` (listening on ${server.listening})`}`);
  parentPort?.postMessage({ type: 'ready', origin: server.origin });

  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`vibeeval is stopping (${reason})`);
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`vibeeval did not stop cleanly: ${safeMessage(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  parentPort?.on('message', (event) => {
    if (event.data?.type === 'stop') stop('desktop app quit');
  });
}
