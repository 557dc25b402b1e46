import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { LiveMessage } from '../../common/projects';

const CHANNEL = 'vibeeval_live';
/** PostgreSQL's NOTIFY payload limit is 8000 bytes; larger messages are dropped (listeners refetch on state changes). */
const MAX_PAYLOAD = 7_900;

export interface LiveBus {
  /** Sends a message to every connected client of the user, on every server instance. */
  publish(userId: string, message: LiveMessage): Promise<void>;
  /** Calls `handler` for each message to the user; returns the unsubscribe function. */
  subscribe(userId: string, handler: (message: LiveMessage) => void): () => void;
  close(): Promise<void>;
}

type Log = (level: 'warn' | 'error', message: string) => void;

/**
 * Live updates through PostgreSQL LISTEN/NOTIFY, so a scan running in one process (a worker) reaches the browsers
 * connected to any server instance. One listening connection per process; fan-out by user id in memory.
 */
export async function startLiveBus(url: string, pool: pg.Pool, log: Log): Promise<LiveBus> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let closed = false;
  let client: pg.Client | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (note) => {
      if (note.channel !== CHANNEL || !note.payload) return;
      try {
        const { u, m } = JSON.parse(note.payload) as { u: string; m: LiveMessage };
        local.emit(u, m);
      } catch (error) {
        log('warn', `live: unreadable notification: ${(error as Error).message}`);
      }
    });
    next.on('error', (error) => log('warn', `live: listening connection failed: ${error.message}`));
    next.on('end', () => {
      if (closed) return;
      // Reconnect after a dropped connection (database restart); messages sent meanwhile are lost, clients refetch.
      setTimeout(() => void connect().catch((error: Error) => log('error', `live: reconnect failed: ${error.message}`)), 1_000).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
  };
  await connect();

  return {
    async publish(userId, message) {
      const payload = JSON.stringify({ u: userId, m: message });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
        log('warn', `live: a ${message.type} message of ${payload.length} bytes was too large to send`);
        return;
      }
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    },
    subscribe(userId, handler) {
      local.on(userId, handler);
      return () => local.off(userId, handler);
    },
    async close() {
      closed = true;
      local.removeAllListeners();
      await client?.end().catch(() => undefined);
    },
  };
}
