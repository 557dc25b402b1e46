// Server-sent events read where there is no EventSource (the desktop's main process, the server's tests): the WHATWG
// event-stream rules are eventsource-parser's; this module adds the bound on a line that the library does not have.
import { createParser } from 'eventsource-parser';

/** One server-sent event: its `event:` name ('message' when none) and its data lines joined by '\n'. */
export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
}

export interface EventStreamOptions {
  onEvent: (event: StreamEvent) => void;
  /** A `retry:` field: the server's suggested reconnection delay in milliseconds. */
  onRetry?: (ms: number) => void;
  /**
   * Longest line kept, in characters. A line beyond it is dropped whole, and so is the event it belongs to: a
   * stream that never sends a newline must not grow memory without bound (the live stream's lines are a few KB).
   */
  maxLineLength?: number;
}

const DEFAULT_MAX_LINE = 256 * 1024;

/**
 * A text/event-stream parser: feed it decoded text in chunks of any size; lines end in CRLF, LF or CR; `:` lines
 * are comments (pings); an event is dispatched at a blank line when it has data.
 *
 * The guard counts the characters of the current line as they come and never hands the parser more than
 * `maxLineLength` of one line: past it, the parser is reset (forgetting the line's start and the event's fields) and
 * the rest of the line and of its event are skipped up to the event's blank line.
 */
export function createEventStreamParser(options: EventStreamOptions): { feed(text: string): void } {
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const parser = createParser({
    onEvent: ({ event, data, id }) => options.onEvent({ event: event ?? 'message', data, ...(id === undefined ? {} : { id }) }),
    onRetry: options.onRetry,
  });
  let lineLength = 0; // characters of the current line so far
  let skippingLine = false; // the current line passed the limit: none of it goes to the parser
  let droppingEvent = false; // the current event had an over-long line: its lines are skipped up to its blank line
  let lastWasCr = false; // a CRLF split between two chunks is one line end, not two

  /** Forgets the event under way: the parser's fields and any start of the current line it holds. */
  const dropEvent = () => {
    parser.reset();
    droppingEvent = true;
  };

  return {
    feed(text) {
      let lineStart = 0; // where the current line starts in `text`
      let fedTo = 0; // `text` before this was given to the parser or skipped
      const feedUpTo = (end: number) => {
        if (!droppingEvent && end > fedTo) {
          // The parser holds a CR at the end of what it is given until it sees whether an LF follows: given as
          // CRLF (the same one line end), the line, or the event a blank line ends, is read now. An LF that does
          // follow in the next text is skipped below.
          const part = text.slice(fedTo, end);
          parser.feed(part.endsWith('\r') ? `${part}\n` : part);
        }
        fedTo = end;
      };
      const lineEnds = /[\r\n]/g; // one per call: an event handler may feed another parser
      for (let match = lineEnds.exec(text); match; match = lineEnds.exec(text)) {
        const end = match.index;
        const isCr = text[end] === '\r';
        if (!isCr && lastWasCr && end === lineStart) {
          // The LF of a CRLF: the line already ended. Skipped with the CR when that was skipped or ended the text
          // given before.
          lastWasCr = false;
          if (fedTo === end) fedTo = end + 1;
          lineStart = end + 1;
          continue;
        }
        lastWasCr = isCr;
        const length = lineLength + (end - lineStart);
        if (skippingLine) {
          skippingLine = false;
          fedTo = end + 1;
        } else if (length > maxLine) {
          feedUpTo(lineStart);
          dropEvent();
          fedTo = end + 1;
        } else if (droppingEvent) {
          if (length === 0) droppingEvent = false; // the dropped event's blank line
          fedTo = end + 1;
        }
        lineLength = 0;
        lineStart = end + 1;
      }
      if (lineStart < text.length) lastWasCr = false;
      if (skippingLine) return;
      lineLength += text.length - lineStart;
      if (lineLength > maxLine) {
        feedUpTo(lineStart);
        dropEvent();
        skippingLine = true;
        return;
      }
      feedUpTo(text.length);
    },
  };
}

/** Reads an event stream's body to its end; `onChunk` hears each chunk as it arrives (a reader's idle timer). */
export async function readEventStream(body: AsyncIterable<Uint8Array>, options: EventStreamOptions & { onChunk?: () => void }): Promise<void> {
  const parser = createEventStreamParser(options);
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    options.onChunk?.();
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
}
