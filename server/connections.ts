import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The server's connections and how many requests each carries, so that a close can end every connection that carries
 * none. Node's own idle list (what Fastify's `forceCloseConnections: 'idle'` closes) leaves out a connection that
 * never sent a request (a browser's preconnect): the close then waited until its client gave up on it, 70 s for a
 * keep-alive client, and a quitting app or a restarting server waited as long.
 */
export function trackConnections(server: Server): { closeUnused(): void } {
  const requests = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    requests.set(socket, 0);
    socket.once('close', () => requests.delete(socket));
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    if (!requests.has(socket)) return;
    requests.set(socket, requests.get(socket)! + 1);
    response.once('close', () => {
      const left = requests.get(socket);
      if (left !== undefined) requests.set(socket, left - 1);
    });
  });
  return {
    closeUnused() {
      for (const [socket, count] of requests) if (count === 0) socket.destroy();
    },
  };
}
