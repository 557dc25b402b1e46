import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { LiveMessage } from '../../common/projects';

const CHANNEL = 'vibeeval_live';
/** Sent by database triggers on commit with the id of the user whose projects, scans or reports changed. */
const CHANGES_CHANNEL = 'vibeeval_changes';
/** PostgreSQL's NOTIFY payload limit is 8000 bytes; larger messages are dropped (listeners refetch on state changes). */
const MAX_PAYLOAD = 7_900;

export interface LiveBus {
  /** Sends a message to every connected client of the user, on every server instance. */
  publish(userId: string, message: LiveMessage): Promise<void>;
  /** Calls `handler` for each message to the user; returns the unsubscribe function. */
  subscribe(userId: string, handler: (message: LiveMessage) => void): () => void;
  /**
   * Calls `onChange` with the user id of every committed change to a user's projects, scans or reports (any
   * process), before live messages sent after that change; `onListening(false)` when such news may be missed
   * (connection lost), `onListening(true)` once listening again.
   */
  watchChanges(onChange: (userId: string) => void, onListening: (listening: boolean) => void): () => void;
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
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  let listening = false;
  const setListening = (value: boolean) => {
    if (value === listening) return;
    listening = value;
    changes.emit('listening', value);
  };
  let closed = false;
  let client: pg.Client | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (note) => {
      if (note.channel === CHANGES_CHANNEL && note.payload) return void changes.emit('change', note.payload);
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
      setListening(false);
      if (closed) return;
      // Reconnect after a dropped connection (database restart); messages sent meanwhile are lost, clients refetch.
      setTimeout(() => void connect().catch((error: Error) => log('error', `live: reconnect failed: ${error.message}`)), 1_000).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    client = next;
    setListening(true);
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
    watchChanges(onChange, onListening) {
      changes.on('change', onChange);
      changes.on('listening', onListening);
      onListening(listening);
      return () => {
        changes.off('change', onChange);
        changes.off('listening', onListening);
      };
    },
    async close() {
      closed = true;
      setListening(false);
      changes.removeAllListeners();
      local.removeAllListeners();
      await client?.end().catch(() => undefined);
    },
  };
}
