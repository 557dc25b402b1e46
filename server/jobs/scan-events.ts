import type { Logger } from 'pino';
import type { Exchange } from '../../engine/types';
import type { EventService, NewEvent, ScanAttempt } from '../events/service';

/** Requests listed per scan; the rest are counted in the completion event. */
export const MAX_REQUEST_EVENTS = 300;
const FLUSH_EVERY_MS = 1_000;

function describeExchange(exchange: Exchange): string {
  const path = (() => {
    try {
      const url = new URL(exchange.url);
      return `${url.host}${url.pathname}${url.search ? '?…' : ''}`;
    } catch {
      return exchange.url;
    }
  })();
  if (exchange.status === 0) return `${exchange.method} ${path} failed: ${exchange.error ?? 'no answer'}`;
  const type = exchange.contentType.split(';')[0] || 'no content type';
  const size = exchange.bodyBytes >= 1024 ? `${Math.round(exchange.bodyBytes / 1024)} KB` : `${exchange.bodyBytes} B`;
  return `${exchange.method} ${path} → ${exchange.status} (${type}, ${size}, ${exchange.timingMs} ms)`;
}

/** Maps an HTTP exchange of the scan onto the spec's event kinds: documents are page views, the rest API calls. */
export function exchangeKind(exchange: Exchange): NewEvent['kind'] {
  if (exchange.status === 0 || exchange.status >= 500) return 'error';
  if (exchange.method === 'GET' && /html/i.test(exchange.contentType) && !exchange.url.includes('vibeeval-')) return 'page_view';
  return 'api_call';
}

type Base = Pick<NewEvent, 'userId' | 'workspaceId' | 'projectId' | 'scanId'>;

/**
 * Turns the requests of one scan attempt into events, flushed in batches every second (and on `stop`), at
 * most MAX_REQUEST_EVENTS of them. Batches are recorded for the attempt (EventService.recordForAttempt), so a
 * retried scan lists its requests once.
 */
export class ScanEventBatcher {
  #pending: NewEvent[] = [];
  #listed = 0;
  #dropped = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly events: Pick<EventService, 'recordForAttempt'>,
    private readonly owner: ScanAttempt,
    private readonly base: Base,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly max = MAX_REQUEST_EVENTS,
  ) {}

  /** Requests seen beyond the listed maximum. */
  get dropped(): number {
    return this.#dropped;
  }

  start(everyMs = FLUSH_EVERY_MS): void {
    this.#timer ??= setInterval(() => void this.flush(), everyMs);
  }

  add(exchange: Exchange): void {
    if (this.#listed >= this.max) {
      this.#dropped++;
      return;
    }
    this.#listed++;
    this.#pending.push({
      ...this.base,
      kind: exchangeKind(exchange),
      url: exchange.url,
      extra: { description: describeExchange(exchange), status: exchange.status, scan_id: this.owner.scanId },
    });
  }

  async flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    await this.events.recordForAttempt(this.owner, batch).catch((error: Error) => this.log.warn({ err: error }, 'could not record scan events'));
  }

  /** Stops the timer and records what is left. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
