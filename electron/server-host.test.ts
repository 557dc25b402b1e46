import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ForkOptions, UtilityProcess } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ utilityProcess: { fork: vi.fn() } }));

const { ServerHost, ServerStartError } = await import('./server-host');

/** A utility process double: the test plays the server's side of the parent port. */
class FakeServer extends EventEmitter {
  stdout = new PassThrough();
  stderr = new PassThrough();
  posted: unknown[] = [];
  killed = false;
  /** What the fake does when asked to stop: exit at once, or hang. */
  onStop: 'exit' | 'hang' = 'exit';
  postMessage(message: unknown) {
    this.posted.push(message);
    if ((message as { type?: string }).type === 'stop' && this.onStop === 'exit') setImmediate(() => this.emit('exit', 0));
  }
  kill() {
    this.killed = true;
    setImmediate(() => this.emit('exit', 143));
    return true;
  }
}

function host(options: { readyTimeoutMs?: number; onUnexpectedExit?: (code: number) => void } = {}) {
  const server = new FakeServer();
  const forks: Array<{ path: string; options?: ForkOptions }> = [];
  const serverHost = new ServerHost({
    serverPath: '/app/out/main/server.js',
    dataDir: '/data',
    ...options,
    fork: (path: string, _args?: string[], forkOptions?: ForkOptions) => {
      forks.push({ path, options: forkOptions });
      return server as unknown as UtilityProcess;
    },
  });
  return { server, serverHost, forks };
}

afterEach(() => vi.restoreAllMocks());

describe('ServerHost', () => {
  it('forks the server on a free loopback port and resolves with the origin it reports', async () => {
    const { server, serverHost, forks } = host();
    const started = serverHost.start();
    server.emit('message', { type: 'log', text: 'not for us' });
    server.emit('message', { type: 'ready', origin: 'http://127.0.0.1:53211' });
    await expect(started).resolves.toBe('http://127.0.0.1:53211');

    expect(forks).toHaveLength(1);
    expect(forks[0]?.path).toBe('/app/out/main/server.js');
    expect(forks[0]?.options).toMatchObject({
      serviceName: 'vibeeval-server',
      stdio: 'pipe',
      env: { PORT: '0', HOST: '127.0.0.1', VIBEEVAL_DATA_DIR: '/data', VIBEEVAL_CORS_ORIGINS: 'app://vibeeval' },
    });
    expect(serverHost.running).toBe(true);
  });

  it('fails with the server’s message and its last output when it reports fatal', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { server, serverHost } = host();
    const started = serverHost.start();
    server.stderr.write('PostgreSQL could not start: port in use\n');
    await new Promise((resolve) => setImmediate(resolve));
    server.emit('message', { type: 'fatal', message: 'Invalid PORT: must be a number' });

    const error = await started.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerStartError);
    expect((error as Error).message).toBe('Invalid PORT: must be a number');
    expect((error as InstanceType<typeof ServerStartError>).output).toContain('PostgreSQL could not start');
    expect(server.killed).toBe(true);
  });

  it('fails when the server exits before it is ready', async () => {
    const { server, serverHost } = host();
    const started = serverHost.start();
    server.emit('exit', 1);
    await expect(started).rejects.toThrow('The server exited (code 1) before it was ready.');
    expect(serverHost.running).toBe(false);
  });

  it('gives up after the ready timeout and ends the process', async () => {
    const { server, serverHost } = host({ readyTimeoutMs: 20 });
    await expect(serverHost.start()).rejects.toThrow(/did not start within/);
    expect(server.killed).toBe(true);
  });

  it('stops the server with a stop message and waits for it to exit', async () => {
    const onUnexpectedExit = vi.fn();
    const { server, serverHost } = host({ onUnexpectedExit });
    const started = serverHost.start();
    server.emit('message', { type: 'ready', origin: 'http://127.0.0.1:1234' });
    await started;

    await serverHost.stop(1000);
    expect(server.posted).toEqual([{ type: 'stop' }]);
    expect(server.killed).toBe(false);
    expect(serverHost.running).toBe(false);
    expect(onUnexpectedExit).not.toHaveBeenCalled();
  });

  it('kills a server that does not stop in time', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { server, serverHost } = host();
    const started = serverHost.start();
    server.emit('message', { type: 'ready', origin: 'http://127.0.0.1:1234' });
    await started;
    server.onStop = 'hang';

    await serverHost.stop(20);
    expect(server.killed).toBe(true);
    expect(serverHost.running).toBe(false);
  });

  it('reports a crash after ready', async () => {
    const onUnexpectedExit = vi.fn();
    const { server, serverHost } = host({ onUnexpectedExit });
    const started = serverHost.start();
    server.emit('message', { type: 'ready', origin: 'http://127.0.0.1:1234' });
    await started;
    server.emit('exit', 9);
    expect(onUnexpectedExit).toHaveBeenCalledWith(9);
  });
});
