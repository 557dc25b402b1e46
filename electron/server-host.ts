import { utilityProcess, type UtilityProcess } from 'electron';
import { z } from 'zod';

/** What the server process posts on its parent port (server/main.ts). */
const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), origin: z.string().url() }),
  z.object({ type: z.literal('fatal'), message: z.string() }),
]);

/** The server did not get to 'ready'; `output` is the tail of what it printed, for the error dialog. */
export class ServerStartError extends Error {
  override name = 'ServerStartError';
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

export interface ServerHostOptions {
  /** out/main/server.js */
  serverPath: string;
  /** VIBEEVAL_DATA_DIR for the server. */
  dataDir: string;
  /** How long to wait for 'ready'. The first start creates the PostgreSQL cluster (a few seconds). */
  readyTimeoutMs?: number;
  /** Called when the server exits after it was ready without being asked to stop. */
  onUnexpectedExit?: (code: number) => void;
  /** utilityProcess.fork; injectable for tests. */
  fork?: typeof utilityProcess.fork;
}

const OUTPUT_TAIL_LINES = 30;

/**
 * Runs the embedded server (Fastify + PostgreSQL) as an Electron utility process: starts it, waits for
 * its origin, and stops it cleanly on quit.
 */
export class ServerHost {
  private child: UtilityProcess | null = null;
  private exited: Promise<number> = Promise.resolve(0);
  private stopping = false;
  private readonly tail: string[] = [];

  constructor(private readonly options: ServerHostOptions) {}

  /** Whether the server process is alive. */
  get running(): boolean {
    return this.child !== null;
  }

  /** The last lines the server printed. */
  get output(): string {
    return this.tail.join('\n');
  }

  /** Starts the server; resolves with its origin (http://127.0.0.1:PORT) once it listens. */
  start(): Promise<string> {
    if (this.child) throw new Error('the server is already running');
    const fork = this.options.fork ?? utilityProcess.fork.bind(utilityProcess);
    const child = fork(this.options.serverPath, [], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        VIBEEVAL_DATA_DIR: this.options.dataDir,
        VIBEEVAL_CORS_ORIGINS: 'app://vibeeval',
      },
      serviceName: 'vibeeval-server',
      stdio: 'pipe',
    });
    this.child = child;
    this.stopping = false;
    this.forward(child.stdout, process.stdout);
    this.forward(child.stderr, process.stderr);

    let ready = false;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        this.child = null;
        if (ready && !this.stopping) this.options.onUnexpectedExit?.(code);
        resolve(code);
      });
    });

    return new Promise<string>((resolve, reject) => {
      const timeoutMs = this.options.readyTimeoutMs ?? 90_000;
      const fail = (message: string) => {
        cleanup();
        // A server that reported 'fatal' or hung may still hold resources: end it.
        if (this.child === child) child.kill();
        reject(new ServerStartError(message, this.output));
      };
      const onMessage = (raw: unknown) => {
        const message = serverMessageSchema.safeParse(raw);
        if (!message.success) return;
        if (message.data.type === 'fatal') return fail(message.data.message);
        const url = new URL(message.data.origin);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`The server reported an unusable origin: ${url.origin}`);
        cleanup();
        ready = true;
        resolve(url.origin);
      };
      const onExit = (code: number) => fail(`The server exited (code ${code}) before it was ready.`);
      const timer = setTimeout(() => fail(`The server did not start within ${Math.round(timeoutMs / 1000)} seconds.`), timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  }

  /**
   * Asks the server to stop (it closes HTTP and shuts PostgreSQL down) and waits up to `timeoutMs` for it
   * to exit, then kills it.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.stopping = true;
    try {
      child.postMessage({ type: 'stop' });
    } catch {
      // Already on its way out (killed after a failed start): waiting for the exit is all there is to do.
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([this.exited.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)))]);
    clearTimeout(timer);
    if (timedOut && this.child === child) {
      console.error(`vibeeval: the server did not stop within ${Math.round(timeoutMs / 1000)} seconds; killing it`);
      child.kill();
      await this.exited;
    }
  }

  /** Passes the server's output through and keeps its last lines. */
  private forward(stream: NodeJS.ReadableStream | null, to: NodeJS.WritableStream): void {
    if (!stream) return;
    stream.on('data', (chunk: Buffer | string) => {
      try {
        to.write(chunk);
      } catch {
        // No console (a packaged app started from the desktop): the tail below still keeps it.
      }
      const lines = chunk
        .toString()
        .split(/\r?\n/)
        .filter((line) => line.trim() !== '');
      this.tail.push(...lines);
      if (this.tail.length > OUTPUT_TAIL_LINES) this.tail.splice(0, this.tail.length - OUTPUT_TAIL_LINES);
    });
  }
}
