import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { LiveMessage } from '../../common/projects';
import { parseSessionEnd, type SessionEnd } from '../auth/session-ends';
import { backoffDelay, type Backoff } from '../db/supervisor';

const CHANNEL = 'vibeeval_live';
/** Sent by database triggers on commit with the id of the workspace whose projects, scans or reports changed. */
const CHANGES_CHANNEL = 'vibeeval_changes';
/** Sent by a trigger on auth_sessions on commit of each session's end (see migration 0016). */
const SESSIONS_CHANNEL = 'vibeeval_sessions';
/** PostgreSQL's NOTIFY payload limit is 8000 bytes; larger messages are dropped (listeners refetch on state changes). */
const MAX_PAYLOAD = 7_900;
const RECONNECT_BACKOFF: Backoff = { initialMs: 250, maxMs: 2_000, factor: 2, jitter: 0.2 };

export interface LiveBus {
  /**
   * Sends a message to every connected client of the workspace's members, on every server instance. Never rejects:
   * a message that cannot be sent (database unreachable, too large) is logged and dropped, since clients refetch on
   * the next state change; callers need not guard it.
   */
  publish(workspaceId: string, message: LiveMessage): Promise<void>;
  /** Calls `handler` for each message to the workspace; returns the unsubscribe function. */
  subscribe(workspaceId: string, handler: (message: LiveMessage) => void): () => void;
  /**
   * Calls `onChange` with the workspace id of every committed change to a workspace's projects, scans or reports (any
   * process), before live messages sent after that change; `onListening(false)` when such news may be missed
   * (connection lost), `onListening(true)` once listening again.
   */
  watchChanges(onChange: (workspaceId: string) => void, onListening: (listening: boolean) => void): () => void;
  /** Calls `onEnd` for every session that ends, in any process on the database; returns the unsubscribe function. */
  watchSessionEnds(onEnd: (end: SessionEnd) => void): () => void;
  close(): Promise<void>;
}

type Log = (level: 'warn' | 'error', message: string) => void;

/**
 * Live updates through PostgreSQL LISTEN/NOTIFY, so a scan running in one process (a worker) reaches the browsers
 * connected to any server instance. One listening connection per process; fan-out by workspace id in memory.
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
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const listen = async (): Promise<pg.Client> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (note) => {
      if (note.channel === CHANGES_CHANNEL && note.payload) return void changes.emit('change', note.payload);
      if (note.channel === SESSIONS_CHANNEL && note.payload) {
        const end = parseSessionEnd(note.payload);
        return void (end && changes.emit('session-end', end));
      }
      if (note.channel !== CHANNEL || !note.payload) return;
      try {
        const { w, m } = JSON.parse(note.payload) as { w: string; m: LiveMessage };
        local.emit(w, m);
      } catch (error) {
        log('warn', `live: unreadable notification: ${(error as Error).message}`);
      }
    });
    // A client's 'error' without a listener would end the process; the 'end' that follows starts the reconnection.
    next.on('error', (error) => log('warn', `live: listening connection failed: ${error.message}`));
    next.on('end', () => {
      if (client !== next) return;
      setListening(false);
      client = undefined;
      reconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      await next.query(`LISTEN ${SESSIONS_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    return next;
  };

  // After a dropped connection (the database restarts), listen again with growing pauses, capped so that live
  // updates resume within RECONNECT_BACKOFF.maxMs of the database's return; messages sent meanwhile are lost
  // (clients refetch when their stream reconnects).
  const reconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(
      () => {
        retry = undefined;
        listen().then(
          (next) => {
            if (closed) return void next.end().catch(() => undefined);
            client = next;
            setListening(true);
            if (failures) log('warn', `live: listening again after ${failures} failed attempt${failures === 1 ? '' : 's'}`);
            failures = 0;
          },
          (error: Error) => {
            failures++;
            if (failures === 1 || failures % 30 === 0) log('warn', `live: reconnecting (attempt ${failures} failed: ${error.message})`);
            reconnect();
          },
        );
      },
      backoffDelay(failures + 1, RECONNECT_BACKOFF),
    );
    retry.unref();
  };
  client = await listen();
  setListening(true);
  /** Messages not sent since the last one that was: logged on the first and every hundredth. */
  let unsent = 0;

  return {
    async publish(workspaceId, message) {
      const payload = JSON.stringify({ w: workspaceId, m: message });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
        log('warn', `live: a ${message.type} message of ${payload.length} bytes was too large to send`);
        return;
      }
      try {
        await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
        if (unsent) log('warn', `live: sending again after ${unsent} message${unsent === 1 ? '' : 's'} could not be sent`);
        unsent = 0;
      } catch (error) {
        unsent++;
        if (unsent === 1 || unsent % 100 === 0) log('warn', `live: a ${message.type} message could not be sent (${(error as Error).message})`);
      }
    },
    subscribe(workspaceId, handler) {
      local.on(workspaceId, handler);
      return () => local.off(workspaceId, handler);
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
    watchSessionEnds(onEnd) {
      changes.on('session-end', onEnd);
      return () => changes.off('session-end', onEnd);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      setListening(false);
      changes.removeAllListeners();
      local.removeAllListeners();
      await client?.end().catch(() => undefined);
    },
  };
}
