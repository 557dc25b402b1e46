import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from './testing/test-server';

function openSocket(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('closing the server', () => {
  it('ends a connection that never sent a request, and one idle after its request, instead of waiting for their clients', async () => {
    const server = await startTestServer({});
    const unused = await openSocket(server.origin);
    const used = await openSocket(server.origin);
    const answered = new Promise<string>((resolve) => used.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    used.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
    unused.on('error', () => undefined);
    used.on('error', () => undefined);
    // Neither client closes its side: the server must. Before, the close waited for the unused one for good.
    await server.stop();
    await Promise.all([closed(unused), closed(used)]);
  }, 60_000);
});
