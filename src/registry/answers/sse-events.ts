/**
 * The events of a `text/event-stream` answer, read as its bytes arrive, in linear time and bounded (issue 30 §1):
 * eventsource-parser (the SDK client's own SSE parser) finds the lines — it searches only new text for line ends and
 * joins a long line's pieces once — and the bytes since the last event are counted, so an event that grows past the
 * answer limit is given up as it grows, never gathered whole. Comments, `id:` and `retry:` lines are the parser's
 * business; an event is handed on with its `data`, `event` and `id`.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";

export type { EventSourceMessage };

export interface SseEventsOptions {
  /** The most bytes one event may take, with whatever came since the event before it. */
  maxEventBytes: number;
  event(event: EventSourceMessage): void;
  /** An event grew past `maxEventBytes`: reading has stopped (what arrives next is ignored). */
  tooLarge(): void;
  /** The stream asked for a reconnection delay. */
  retry?(ms: number): void;
}

/** A stream's reader: push its bytes, end it; `stop()` ignores whatever comes next. */
export interface SseEvents {
  push(chunk: Uint8Array): void;
  end(): void;
  stop(): void;
}

/**
 * @example
 * const sse = sseEvents({ maxEventBytes: limits.maxAnswerBytes, event: (e) => route(e.data), tooLarge: () => abort() });
 * for (const chunk of chunks) sse.push(chunk); sse.end();
 */
export function sseEvents(options: SseEventsOptions): SseEvents {
  const decoder = new TextDecoder("utf-8"); // a character split between two chunks is joined; a BOM is dropped
  let pending = 0;
  let stopped = false;
  const parser = createParser({
    onEvent: (event) => {
      pending = 0;
      if (!stopped) options.event(event);
    },
    ...(options.retry ? { onRetry: options.retry } : {}),
  });
  const stop = () => {
    stopped = true;
    parser.reset();
  };
  return {
    push(chunk) {
      if (stopped) return;
      pending += chunk.byteLength;
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (stopped || pending <= options.maxEventBytes) return;
      stop();
      options.tooLarge();
    },
    end() {
      if (stopped) return;
      // A last event the stream did not end with a blank line is still an event, as it always was here.
      parser.feed(`${decoder.decode()}\n\n`);
      stop();
    },
    stop,
  };
}
