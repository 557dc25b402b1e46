import { describe, expect, it } from 'vitest';
import { createEventStreamParser, readEventStream, type StreamEvent } from './event-stream';

function parse(chunks: string[], maxLineLength?: number): { events: StreamEvent[]; retries: number[] } {
  const events: StreamEvent[] = [];
  const retries: number[] = [];
  const parser = createEventStreamParser({ onEvent: (event) => events.push(event), onRetry: (ms) => retries.push(ms), maxLineLength });
  for (const chunk of chunks) parser.feed(chunk);
  return { events, retries };
}

/** Every way of cutting `text` in two. */
function everySplit(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);
}

describe('createEventStreamParser', () => {
  it('reads named events the way the server writes them, with the retry hint', () => {
    const { events, retries } = parse(['retry: 3000\n\nevent: scan.state\ndata: {"a":1}\n\nevent: event\ndata: {"b":2}\n\n']);
    expect(retries).toEqual([3000]);
    expect(events).toEqual([
      { event: 'scan.state', data: '{"a":1}' },
      { event: 'event', data: '{"b":2}' },
    ]);
  });

  it('gives the same events however the stream is cut, with LF, CRLF or CR line ends', () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const text = `event: scan.state${end}data: {"x":"é"}${end}${end}: ping${end}${end}data: plain${end}${end}`;
      const expected = [
        { event: 'scan.state', data: '{"x":"é"}' },
        { event: 'message', data: 'plain' },
      ];
      for (const chunks of everySplit(text)) expect(parse(chunks).events).toEqual(expected);
      // One character at a time.
      expect(parse(Array.from(text)).events).toEqual(expected);
    }
  });

  it('ignores comments (pings) and dispatches nothing for an event without data', () => {
    expect(parse([': ping\n\n: another\n\nevent: lonely\n\n']).events).toEqual([]);
  });

  it('joins multi-line data with newlines and keeps the last id', () => {
    const { events } = parse(['id: 7\nevent: note\ndata: first\ndata:second\ndata\n\n']);
    expect(events).toEqual([{ event: 'note', data: 'first\nsecond\n', id: '7' }]);
  });

  it('does not dispatch an event that was not finished by a blank line', () => {
    expect(parse(['event: scan.state\ndata: {"half":']).events).toEqual([]);
  });

  it('drops an over-long line with its event, then reads the next events', () => {
    const long = 'x'.repeat(50);
    // Within one chunk, and spread over many chunks (the line never held whole in memory).
    const text = `event: big\ndata: ${long}\n\nevent: small\ndata: ok\n\n`;
    expect(parse([text], 20).events).toEqual([{ event: 'small', data: 'ok' }]);
    expect(parse(Array.from(text), 20).events).toEqual([{ event: 'small', data: 'ok' }]);
    expect(parse(['data: ', long, long, '\r', '\n\ndata: after\n\n'], 20).events).toEqual([{ event: 'message', data: 'after' }]);
  });

  it('drops every line of an event that had an over-long line, before and after it', () => {
    const long = 'x'.repeat(50);
    const text = `event: big\ndata: before\ndata: ${long}\ndata: after\n\ndata: next\n\n`;
    for (const chunks of everySplit(text)) expect(parse(chunks, 20).events).toEqual([{ event: 'message', data: 'next' }]);
    expect(parse([`data: ${long}\r\ndata: after\r\n\r\ndata: next\r\n\r\n`], 20).events).toEqual([{ event: 'message', data: 'next' }]);
  });

  it('dispatches an event at its blank line, even one ended by a lone CR before an over-long line', () => {
    const events: StreamEvent[] = [];
    const parser = createEventStreamParser({ onEvent: (event) => events.push(event), maxLineLength: 20 });
    parser.feed('data: a\r\r');
    expect(events).toEqual([{ event: 'message', data: 'a' }]); // not held back waiting for an LF
    parser.feed(`data: ${'x'.repeat(50)}\r\rdata: b\r\r`);
    expect(events).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('keeps lines exactly at the limit', () => {
    const data = 'y'.repeat(14);
    expect(parse([`data: ${data}\n\n`], 20).events).toEqual([{ event: 'message', data }]);
  });
});

describe('readEventStream', () => {
  it('decodes characters cut between chunks and hears each chunk', async () => {
    const bytes = new TextEncoder().encode('event: scan.state\ndata: {"site":"café"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of 'é'
    async function* body() {
      yield bytes.slice(0, cut);
      yield bytes.slice(cut);
    }
    const events: StreamEvent[] = [];
    let chunks = 0;
    await readEventStream(body(), { onEvent: (event) => events.push(event), onChunk: () => chunks++ });
    expect(events).toEqual([{ event: 'scan.state', data: '{"site":"café"}' }]);
    expect(chunks).toBe(2);
  });
});
