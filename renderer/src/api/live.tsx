import { liveMessageSchema, liveTicketSchema, type LiveMessage, type Project } from '@common/projects';
import type { Page } from '@common/pagination';
import type { ScanProgress } from '@common/scan';
import type { Scenario, ScenarioDetail, ScenarioRun } from '@common/scenarios';
import type { InfiniteData } from '@tanstack/react-query';
import type { SupabaseClient } from '../app/auth-client';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useServices, useSupabase } from '../app/services';
import { ApiError, type ApiClient } from './http';
import { liveInvalidations } from './live-invalidations';
import { liveStreams } from './live-streams';
import { queryKeys } from './query-keys';

// The live stream (GET /live, server-sent events): one connection per signed-in session that feeds the
// TanStack Query cache and any screen that wants the raw messages. EventSource cannot send an Authorization
// header, so each connection first asks for a short-lived ticket with the bearer token.

/** The `event:` names the server sends; each one's data is a liveMessageSchema object. */
export const LIVE_EVENT_NAMES = ['scan.progress', 'scan.state', 'event', 'report.state', 'scenario.run', 'continuous.build'] as const;

/** What 'scan.progress' leaves in the cache under queryKeys.live.scanProgress(projectId). */
export interface LiveScanProgress {
  scan_id: string;
  progress: ScanProgress;
}

/** A message from its `event:` name and data, or null when it is not one we understand (ignored, not fatal). */
export function parseLiveMessage(eventName: string, data: string): LiveMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  // The event name says what the message is; the data may repeat it as `type` or leave it out.
  const candidate = 'type' in json ? json : { ...json, type: eventName };
  const parsed = liveMessageSchema.safeParse(candidate);
  if (!parsed.success) return null;
  if (eventName !== 'message' && parsed.data.type !== eventName) return null;
  return parsed.data;
}

/** Wait before reconnect attempt `attempt` (0-based): 1 s doubling to 30 s, with ±20 % jitter. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.8 + 0.4 * random()));
}

const FINISHED_STATES = new Set(['completed', 'failed']);

/** How one message changes the query cache: stored at once, refetches gathered over a short window. */
export function applyLiveMessage(queryClient: QueryClient, message: LiveMessage): void {
  // Refetches are gathered: a burst of messages fetches each list it touches once, not once per message.
  const invalidations = liveInvalidations(queryClient);
  switch (message.type) {
    case 'scan.progress': {
      const { project_id: projectId, scan_id: scanId, progress } = message;
      queryClient.setQueryData<LiveScanProgress>(queryKeys.live.scanProgress(projectId), { scan_id: scanId, progress });
      // A queued scan that reports progress is running, whether or not its state message has arrived yet.
      queryClient.setQueryData<Project>(queryKeys.projects.detail(projectId), (project) =>
        project?.latest_scan?.id === scanId && !FINISHED_STATES.has(project.latest_scan.state)
          ? { ...project, latest_scan: { ...project.latest_scan, state: 'running', progress } }
          : project,
      );
      return;
    }
    case 'scan.state': {
      const { project_id: projectId, scan } = message;
      queryClient.setQueryData<Project>(queryKeys.projects.detail(projectId), (project) => (project ? { ...project, latest_scan: scan } : project));
      if (FINISHED_STATES.has(scan.state)) queryClient.removeQueries({ queryKey: queryKeys.live.scanProgress(projectId), exact: true });
      // The detail key is the prefix of the project's scan and events keys, so one call refreshes all three.
      invalidations.invalidate({ queryKey: queryKeys.projects.detail(projectId) });
      invalidations.invalidate({ queryKey: queryKeys.projects.list() });
      return;
    }
    case 'event': {
      invalidations.invalidate({ queryKey: queryKeys.events.all });
      if (message.project_id) {
        invalidations.invalidate({ queryKey: queryKeys.projects.events(message.project_id) });
        // A check again's answer (by any member, from any server) joins the project's History.
        if (message.event.extra && 'recheck' in message.event.extra) invalidations.invalidate({ queryKey: queryKeys.projects.rechecks(message.project_id) });
      } else {
        invalidations.invalidate({
          queryKey: queryKeys.projects.all,
          predicate: (query) => query.queryKey[1] === 'detail' && query.queryKey[3] === 'events',
        });
      }
      return;
    }
    case 'report.state':
      invalidations.invalidate({ queryKey: queryKeys.reports.recent });
      return;
    case 'scenario.run':
      applyScenarioRun(queryClient, message.scenario_id, message.run);
      return;
    case 'continuous.build':
      // A build made or judged changes the project's current build and its history.
      invalidations.invalidate({ queryKey: queryKeys.continuous.monitoring(message.build.project_id) });
      invalidations.invalidate({ queryKey: queryKeys.continuous.builds(message.build.project_id) });
      return;
  }
}

/** True when `run` is `current` updated, or a later run than it (messages may arrive out of order). */
export function isSameOrNewerRun(run: ScenarioRun, current: ScenarioRun | null): boolean {
  if (!current || current.id === run.id) return true;
  return Date.parse(run.created_at) >= Date.parse(current.created_at);
}

/** A scenario run's state goes into the list's row (its last run) and the scenario's run history. */
export function applyScenarioRun(queryClient: QueryClient, scenarioId: string, run: ScenarioRun): void {
  const withRun = <T extends Scenario>(scenario: T): T => (scenario.id === scenarioId && isSameOrNewerRun(run, scenario.last_run) ? { ...scenario, last_run: run } : scenario);
  queryClient.setQueriesData<InfiniteData<Page<Scenario>>>({ queryKey: queryKeys.scenarios.list() }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(withRun) })) } : data,
  );
  queryClient.setQueryData<ScenarioDetail>(queryKeys.scenarios.detail(scenarioId), (detail) => {
    if (!detail) return detail;
    const known = detail.runs.some((r) => r.id === run.id);
    const runs = known ? detail.runs.map((r) => (r.id === run.id ? run : r)) : [run, ...detail.runs];
    return { ...withRun(detail), runs };
  });
}

/** The part of EventSource the connection uses (a fake in tests). */
export interface LiveSource {
  onopen: ((this: never, event: Event) => unknown) | null;
  onerror: ((this: never, event: Event) => unknown) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export type LiveStatus = 'idle' | 'connecting' | 'open' | 'waiting' | 'stopped';

export interface LiveConnectionOptions {
  /** A fresh ticket for each connection (tickets are short-lived and single-use). */
  getTicket: () => Promise<string>;
  openSource: (ticket: string) => LiveSource;
  onMessage: (message: LiveMessage) => void;
  /** Called when a connection opens; `reconnected` is true after a drop, when messages may have been missed. */
  onOpen?: (reconnected: boolean) => void;
  onStatus?: (status: LiveStatus) => void;
  /** A ticket error that retrying cannot fix (the session is gone): stop instead of reconnecting. */
  isFatal?: (error: unknown) => boolean;
  delay?: (attempt: number) => number;
}

/**
 * One live stream with reconnects: on any error the EventSource is closed (its own retry would reuse a spent
 * ticket) and a new ticket is fetched after a growing delay; a successful open resets the delay.
 */
export class LiveConnection {
  private source: LiveSource | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private everOpened = false;
  private generation = 0;
  private current: LiveStatus = 'idle';

  constructor(private readonly options: LiveConnectionOptions) {}

  get status(): LiveStatus {
    return this.current;
  }

  start(): void {
    if (this.current !== 'idle' && this.current !== 'stopped') return;
    this.attempt = 0;
    void this.connect();
  }

  stop(): void {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.source?.close();
    this.source = null;
    this.setStatus('stopped');
  }

  private setStatus(status: LiveStatus) {
    this.current = status;
    this.options.onStatus?.(status);
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.timer = null;
    this.setStatus('connecting');
    let ticket: string;
    try {
      ticket = await this.options.getTicket();
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.options.isFatal?.(error)) this.stop();
      else this.scheduleReconnect();
      return;
    }
    if (generation !== this.generation) return;
    const source = this.options.openSource(ticket);
    this.source = source;
    source.onopen = () => {
      if (generation !== this.generation) return;
      this.attempt = 0;
      this.setStatus('open');
      this.options.onOpen?.(this.everOpened);
      this.everOpened = true;
    };
    source.onerror = () => {
      if (generation !== this.generation) return;
      source.close();
      this.source = null;
      this.scheduleReconnect();
    };
    for (const name of LIVE_EVENT_NAMES) {
      source.addEventListener(name, (event) => {
        if (generation !== this.generation) return;
        const message = parseLiveMessage(name, event.data);
        if (message) this.options.onMessage(message);
      });
    }
  }

  private scheduleReconnect() {
    this.generation++;
    this.setStatus('waiting');
    const wait = (this.options.delay ?? reconnectDelay)(this.attempt++);
    this.timer = setTimeout(() => void this.connect(), wait);
  }
}

type LiveHandler = (message: LiveMessage) => void;

/** The session's stream: started when someone signs in, stopped when they sign out. */
class LiveSession {
  readonly handlers = new Set<LiveHandler>();
  private connection: LiveConnection | null = null;
  private userId: string | null = null;

  constructor(
    private readonly queryClient: QueryClient,
    private readonly api: ApiClient,
    private readonly serverOrigin: string,
    supabase: SupabaseClient,
  ) {
    // Fires at once with the current session, then on every sign-in, token refresh and sign-out. supabase-js
    // holds its auth lock while notifying, and the ticket request reads the session: start outside the callback.
    supabase.auth.onAuthStateChange((_event, session) => {
      const userId = session?.user.id ?? null;
      setTimeout(() => this.setUser(userId), 0);
    });
  }

  /** Opens the stream again (a new ticket, so a new workspace's updates). */
  reconnect() {
    const userId = this.userId;
    if (!userId) return;
    this.userId = null;
    this.setUser(userId);
  }

  private setUser(userId: string | null) {
    if (userId === this.userId && this.connection?.status !== 'stopped') return;
    this.connection?.stop();
    this.connection = null;
    this.userId = userId;
    if (!userId) {
      this.queryClient.removeQueries({ queryKey: queryKeys.live.all });
      return;
    }
    this.connection = new LiveConnection({
      getTicket: async () => {
        const body = await this.api.request<unknown>('POST', '/live/ticket', { fallbackError: 'Failed to open live updates' });
        return liveTicketSchema.parse(body).ticket;
      },
      openSource: (ticket) => new EventSource(`${this.serverOrigin}/live?ticket=${encodeURIComponent(ticket)}`),
      onMessage: (message) => {
        applyLiveMessage(this.queryClient, message);
        for (const handler of this.handlers) handler(message);
      },
      onOpen: (reconnected) => {
        // Whatever happened while the stream was down is only in the server's answers now.
        if (reconnected) {
          const invalidations = liveInvalidations(this.queryClient);
          for (const queryKey of [queryKeys.projects.all, queryKeys.events.all, queryKeys.scenarios.all, queryKeys.continuous.all]) {
            invalidations.invalidate({ queryKey });
          }
        }
      },
      isFatal: (error) => error instanceof ApiError && (error.status === 401 || error.status === 403),
    });
    this.connection.start();
  }
}

// One session per query client (the app has one; tests and previews may create others).
const sessions = new WeakMap<QueryClient, LiveSession>();

/**
 * Keeps the live stream open for the signed-in session. Mount it once high in the tree (or let the first
 * `useLiveMessages` start it); the stream then stays open across pages until sign-out.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const { api, serverOrigin } = useServices();
  // Mounted in the dashboard, whose route has loaded the sign-in client.
  const supabase = useSupabase();
  useEffect(() => {
    if (typeof EventSource === 'undefined' || sessions.has(queryClient)) return;
    const session = new LiveSession(queryClient, api, serverOrigin, supabase);
    sessions.set(queryClient, session);
    liveStreams.set(queryClient, session);
  }, [queryClient, api, serverOrigin, supabase]);
}

/** Calls `handler` with every live message (already applied to the query cache) while mounted. */
export function useLiveMessages(handler: LiveHandler): void {
  useLiveUpdates();
  const queryClient = useQueryClient();
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  useEffect(() => {
    const session = sessions.get(queryClient);
    if (!session) return;
    const forward: LiveHandler = (message) => handlerRef.current(message);
    session.handlers.add(forward);
    return () => {
      session.handlers.delete(forward);
    };
  }, [queryClient]);
}
