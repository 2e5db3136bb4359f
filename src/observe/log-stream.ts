/**
 * Where log lines go, made safe (docs/design.md §18: nothing here may break a request): a stream that errors (a closed
 * pipe, a full disk) is never allowed to throw into the caller or crash the process with an unhandled `error`
 * event, and a stream that cannot keep up (a stuck pipe) gets lines dropped, counted, rather than buffered without
 * bound. A line dropped is reported once the stream takes lines again.
 */

/** What a log destination must offer: `write`, and optionally the parts of a Node stream used to stay bounded. */
export interface LogStream {
  write(line: string): unknown;
  on?(event: "error", listener: (error: Error) => void): unknown;
  writableLength?: number;
  isTTY?: boolean;
}

/**
 * Most bytes a stream may hold unwritten before lines are dropped.
 * @example
 * if ((stream.writableLength ?? 0) > MAX_BUFFERED_BYTES) dropped += 1;
 */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** A destination that never throws, never crashes the process, and stays bounded. */
export interface SafeLogStream {
  write(line: string): void;
  /** Lines dropped so far (the stream errored or was full). */
  readonly dropped: number;
}

/**
 * @example
 * const out = safeLogStream(process.stderr); out.write('{"msg":"hi"}\n');
 */
export function safeLogStream(stream: LogStream): SafeLogStream {
  let dropped = 0;
  let failing = false;
  let reported = 0;
  stream.on?.("error", () => {
    failing = true;
  });
  const attempt = (line: string): boolean => {
    try {
      stream.write(line);
      return true;
    } catch {
      return false;
    }
  };
  return {
    get dropped() {
      return dropped;
    },
    write(line) {
      if ((stream.writableLength ?? 0) > MAX_BUFFERED_BYTES) {
        dropped += 1;
        return;
      }
      if (failing) {
        // Try again: a disk that was full may have room now. The error of this attempt, if any, comes as an event.
        failing = false;
      }
      if (!attempt(line)) {
        dropped += 1;
        return;
      }
      if (dropped > reported) {
        const lost = dropped - reported;
        reported = dropped;
        // The line's timestamp is real time, as pino's own lines' are: it dates the line, it is no deadline.
        attempt(
          `${JSON.stringify({ level: "warn", time: new Date().toISOString(), component: "logging", msg: `${lost} log lines were dropped (the log stream failed or was full)`, dropped: lost })}\n`,
        );
      }
    },
  };
}

/**
 * How long a line may wait for others before the batch is written. stderr to a pipe is written synchronously in
 * Node, and each write wakes the reader: measured on the bench's echo at concurrency 1, a write per request was a
 * tenth of the CLI's CPU. 10 ms gathers a busy host's lines into one write and is below what a person reading logs
 * notices.
 */
export const LOG_BATCH_MS = 10;

/**
 * Lines gathered and written together, at most `LOG_BATCH_MS` after the first of them (or at once when 64 KiB are
 * waiting): stderr to a pipe or a file is written synchronously in Node, one system call per write, so a busy host
 * writing two lines a request paid two calls a request. What is waiting is written before the process exits, however
 * it exits (a SIGKILL aside).
 * @example
 * const out = batchedLogStream(safeLogStream(process.stderr)); out.write('{"msg":"hi"}\n');
 */
export function batchedLogStream(target: SafeLogStream, delayMs = LOG_BATCH_MS): SafeLogStream {
  let pending: string[] = [];
  let bytes = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const lines = pending.length === 1 ? pending[0]! : pending.join("");
    pending = [];
    bytes = 0;
    target.write(lines);
  };
  process.once("exit", flush);
  return {
    get dropped() {
      return target.dropped;
    },
    write(line) {
      pending.push(line);
      bytes += line.length;
      if (bytes >= 65_536) flush();
      else if (!scheduled) {
        scheduled = true;
        // Real time on purpose: when a line is written is no deadline of the host's (test/architecture/one-clock).
        setTimeout(flush, delayMs).unref();
      }
    },
  };
}
