/** One server-sent event: its `event:` name ('message' when none) and its data lines joined by '\n'. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export interface SseParserOptions {
  onEvent: (event: SseEvent) => void;
  /** A `retry:` field: the server's suggested reconnection delay in milliseconds. */
  onRetry?: (ms: number) => void;
  /**
   * Longest line kept, in characters. A line beyond it is dropped whole, and so is the event it belongs to: a
   * stream that never sends a newline must not grow memory without bound (the live stream's lines are a few KB).
   */
  maxLineLength?: number;
}

export const DEFAULT_MAX_LINE = 256 * 1024;

/**
 * A text/event-stream parser (the WHATWG "event stream interpretation" rules) for Node, which has no EventSource:
 * feed it decoded text in chunks of any size; lines end in CRLF, LF or CR; `:` lines are comments (pings); an
 * event is dispatched at a blank line when it has data.
 */
export function createSseParser(options: SseParserOptions): { feed(text: string): void } {
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
  let pending = '';
  let skippingLine = false; // inside an over-long line: drop until its end
  let skippingEvent = false; // the current event had an over-long line: drop it at its blank line
  let lastWasCr = false; // a CRLF split between two chunks is one line end, not two
  let eventName = '';
  let data: string[] = [];
  let id: string | undefined;

  const dispatch = () => {
    if (!skippingEvent && data.length > 0) {
      options.onEvent({ event: eventName || 'message', data: data.join('\n'), ...(id === undefined ? {} : { id }) });
    }
    eventName = '';
    data = [];
    skippingEvent = false;
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventName = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) options.onRetry?.(Number(value));
  };

  return {
    feed(text) {
      let start = 0;
      for (let i = 0; i < text.length; i++) {
        const char = text[i];
        if (char !== '\n' && char !== '\r') continue;
        const crlfTail = char === '\n' && lastWasCr && i === start && pending === '' && !skippingLine;
        lastWasCr = char === '\r';
        if (crlfTail) {
          start = i + 1;
          continue;
        }
        const whole = pending + text.slice(start, i);
        pending = '';
        start = i + 1;
        if (skippingLine) skippingLine = false;
        else if (whole.length > maxLine) skippingEvent = true;
        else line(whole);
      }
      if (start < text.length) lastWasCr = false;
      if (skippingLine) return;
      pending += text.slice(start);
      if (pending.length > maxLine) {
        pending = '';
        skippingLine = true;
        skippingEvent = true;
      }
    },
  };
}
