import { setTimeout as delay } from 'node:timers/promises';
import { readEventStream, type StreamEvent } from '../common/event-stream';
import { liveMessageSchema, liveTicketSchema, type LiveMessage } from '../common/projects';
import { apiHeaders, type ActiveSession } from './live-session';

/** The `event:` names of the live stream (server/live/routes.ts); each one's data is a liveMessageSchema object. */
const LIVE_EVENT_NAMES = new Set(['scan.progress', 'scan.state', 'event', 'report.state', 'scenario.run', 'continuous.build']);
const TICKET_TIMEOUT_MS = 10_000;
/** The server pings every 20 s: a stream silent for longer than this is dead (sleep, network change). */
export const IDLE_TIMEOUT_MS = 65_000;

/** Wait before reconnect attempt `attempt` (0-based): 1 s doubling to 30 s, with ±20 % jitter. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** A message from its `event:` name and data, or null when it is not one we understand (ignored, not fatal). */
export function parseLiveEvent({ event, data }: StreamEvent): LiveMessage | null {
  if (!LIVE_EVENT_NAMES.has(event)) return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const parsed = liveMessageSchema.safeParse({ type: event, ...json });
  return parsed.success && parsed.data.type === event ? parsed.data : null;
}

export type LiveSubscriberStatus = 'idle' | 'connecting' | 'open' | 'waiting' | 'signed-out' | 'stopped';

export interface LiveSubscriberOptions {
  origin: string;
  /** Read before each connection: signed out (null) ends the subscription until `sessionChanged()`. */
  session: { current(): Promise<ActiveSession | null> };
  onMessage: (message: LiveMessage) => void;
  /** A stream opened; after a drop, `downSince` is when the previous one ended (messages may have been missed). */
  onOpen?: (event: { reconnected: boolean; downSince: number | null; session: ActiveSession }) => void;
  onStatus?: (status: LiveSubscriberStatus) => void;
  fetch?: typeof fetch;
  delay?: (attempt: number) => number;
  idleTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface LiveSubscriber {
  start(): void;
  /** Ends the stream for good (quit). */
  stop(): void;
  /** The stored session was written or removed, or another workspace chosen: follow it (stop on sign-out, restart for another user or workspace). */
  sessionChanged(): void;
  readonly status: LiveSubscriberStatus;
  /** The user whose stream this is (or is about to be); null while signed out. */
  readonly userId: string | null;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}

async function askTicket(options: LiveSubscriberOptions, session: ActiveSession, signal: AbortSignal): Promise<string> {
  const response = await (options.fetch ?? fetch)(`${options.origin}/live/ticket`, {
    method: 'POST',
    // The ticket names the workspace: the stream carries that workspace's messages.
    headers: apiHeaders(session),
    signal: AbortSignal.any([signal, AbortSignal.timeout(TICKET_TIMEOUT_MS)]),
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`the live ticket was refused (${response.status})`);
  return liveTicketSchema.parse(await response.json()).ticket;
}

/** Reads one stream until it ends, fails, or stays silent for `idleTimeoutMs`; calls `opened` once it is open. */
async function readStream(options: LiveSubscriberOptions, ticket: string, signal: AbortSignal, opened: () => void): Promise<void> {
  const idle = new AbortController();
  const streamSignal = AbortSignal.any([signal, idle.signal]);
  let idleTimer = setTimeout(() => idle.abort(), options.idleTimeoutMs ?? IDLE_TIMEOUT_MS);
  try {
    const response = await (options.fetch ?? fetch)(`${options.origin}/live?ticket=${encodeURIComponent(ticket)}`, {
      headers: { accept: 'text/event-stream' },
      signal: streamSignal,
      redirect: 'error',
    });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith('text/event-stream') || !response.body) {
      await response.body?.cancel();
      throw new Error(`the live stream answered ${response.status} ${type}`);
    }
    opened();
    await readEventStream(response.body as AsyncIterable<Uint8Array>, {
      onEvent(event) {
        const message = parseLiveEvent(event);
        if (message && !signal.aborted) options.onMessage(message);
      },
      onChunk() {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => idle.abort(), options.idleTimeoutMs ?? IDLE_TIMEOUT_MS);
      },
    });
  } finally {
    clearTimeout(idleTimer);
  }
}

/**
 * The signed-in user's live stream in the main process (Node has no EventSource): a ticket with the bearer token,
 * then GET /live read as server-sent events; reconnects with growing, jittered pauses (capped at 30 s), checking
 * the session again before each connection.
 */
export function createLiveSubscriber(options: LiveSubscriberOptions): LiveSubscriber {
  let status: LiveSubscriberStatus = 'idle';
  let run: AbortController | null = null;
  let userId: string | null = null;
  let workspaceId: string | null = null;
  const setStatus = (next: LiveSubscriberStatus) => {
    status = next;
    options.onStatus?.(next);
  };

  const loop = async (signal: AbortSignal) => {
    let attempt = 0;
    let everOpened = false;
    let downSince: number | null = null;
    let lastError = ''; // a failure repeated every 30 s is logged once
    while (!signal.aborted) {
      setStatus('connecting');
      try {
        const session = await options.session.current();
        if (signal.aborted) return;
        userId = session?.userId ?? null;
        workspaceId = session?.workspaceId ?? null;
        if (!session) return setStatus('signed-out');
        const ticket = await askTicket(options, session, signal);
        await readStream(options, ticket, signal, () => {
          if (signal.aborted) return; // replaced meanwhile by a newer connection
          attempt = 0;
          setStatus('open');
          options.onOpen?.({ reconnected: everOpened, downSince, session });
          everOpened = true;
          downSince = null;
          lastError = '';
        });
      } catch (error) {
        const message = `live stream: ${(error as Error).message}`;
        if (!signal.aborted && message !== lastError) options.log?.(message);
        lastError = message;
      }
      if (signal.aborted) return;
      downSince ??= Date.now();
      setStatus('waiting');
      await pause((options.delay ?? reconnectDelay)(attempt++), signal);
    }
  };

  const begin = () => {
    run?.abort();
    const controller = new AbortController();
    run = controller;
    void loop(controller.signal);
  };

  return {
    start() {
      if (status === 'idle') begin();
    },
    stop() {
      run?.abort();
      run = null;
      setStatus('stopped');
    },
    sessionChanged() {
      if (status === 'stopped' || status === 'idle') return;
      const previous = { userId, workspaceId };
      void options.session.current().then(
        (session) => {
          if (status === 'stopped') return;
          // The same user and workspace with fresh tokens: the open stream stays (its ticket was checked when it opened).
          if (session && session.userId === previous.userId && (session.workspaceId ?? null) === previous.workspaceId && status !== 'signed-out') return;
          begin();
        },
        () => begin(),
      );
    },
    get status() {
      return status;
    },
    get userId() {
      return userId;
    },
  };
}
