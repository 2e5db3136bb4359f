/**
 * The `Logger` extensions see, written by pino (docs/design.md §18): one JSON line per record when the log stream is not
 * a terminal, a readable line on a terminal (`format: "auto"`, the default), or whichever `format` says. Every
 * line carries `time`, `level`, `component` (`http`, `gateway/git`, `extension`, …), the fields of the request it
 * was written for (request id; tool, toolset, extension or server inside a call — see log-context.ts) and its data.
 * Lines go to stderr: stdout belongs to the stdio transport. With a `redactor`, every line is redacted as the whole
 * serialised line, at the destination: whatever wrote it (the host, an extension's `ctx.logger`, a stdio child's
 * stderr relayed by the registry) and wherever the secret sits in it (message, data, bindings).
 */
import pino from "pino";
import type { LogData, Logger, LogLevel } from "../logger.js";
import type { SecretRedactor } from "../secret-redactor.js";
import { logFields } from "./log-context.js";
import { batchedLogStream, type LogStream, safeLogStream, type SafeLogStream } from "./log-stream.js";
import { prettyLine } from "./pretty-line.js";

/** How lines are written: JSON lines, readable lines, or JSON unless the stream is a terminal. */
export type LogFormat = "json" | "pretty" | "auto";

export interface PinoLoggerOptions {
  /** Lines below this level are dropped (default info). */
  level?: LogLevel;
  /** Default `auto`: readable on a terminal, JSON lines otherwise. */
  format?: LogFormat;
  /** Where lines go (default `process.stderr`). */
  stream?: LogStream;
  /**
   * Gather lines for up to `LOG_BATCH_MS` (10 ms) and write them together (default: on for `process.stderr`, off for
   * a stream given here). The lines are the same; a busy host makes far fewer system calls.
   */
  batched?: boolean;
  /** The root's name: dropped from each line's component (default `mcp-host`). */
  root?: string;
  /** Removes the deployment's secrets from every line before it is written. */
  redactor?: SecretRedactor;
}

/** A pino-backed logger, and what it dropped. */
export interface PinoLogger extends Logger {
  /** Lines lost because the stream failed or was full. */
  readonly dropped: number;
}

let stampedMs = -1;
let stamp = "";

/**
 * pino's `isoTime`, made once per millisecond: a busy host writes several lines a millisecond (an access line and an
 * audit line per call), and formatting the date was ~1% of a call's CPU.
 */
function isoTimeOncePerMs(): string {
  const now = Date.now();
  if (now !== stampedMs) {
    stampedMs = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

/** Keys a line's own data may not take: they would shadow the line's frame. */
const FRAME_KEYS = new Set(["level", "time", "msg", "component"]);

function destinationOf(
  stream: LogStream,
  format: "json" | "pretty",
  redactor: SecretRedactor | undefined,
  batched: boolean,
): { write(line: string): void; safe: SafeLogStream } {
  const safe = batched ? batchedLogStream(safeLogStream(stream)) : safeLogStream(stream);
  // The JSON line is redacted before anything else reads it: the pretty form is made from the redacted line.
  const clean = redactor === undefined ? (line: string) => line : (line: string) => redactor.redact(line);
  if (format === "json") return { write: (line) => safe.write(clean(line)), safe };
  const colour = stream.isTTY === true;
  return {
    safe,
    write: (raw) => {
      const line = clean(raw);
      try {
        safe.write(`${prettyLine(JSON.parse(line) as Record<string, unknown>, colour)}\n`);
      } catch {
        safe.write(line);
      }
    },
  };
}

function componentOf(prefix: readonly string[], bindings: LogData | undefined): string {
  if (typeof bindings?.extension === "string" && prefix.at(-1) === bindings.extension) return "extension";
  return prefix.join("/");
}

function cleaned(data: LogData | undefined): LogData | undefined {
  if (data === undefined) return undefined;
  let out: LogData | undefined;
  for (const key of Object.keys(data)) {
    if (!FRAME_KEYS.has(key)) continue;
    out ??= { ...data };
    out[`data.${key}`] = out[key];
    delete out[key];
  }
  return out ?? data;
}

/**
 * @example
 * const logger = createPinoLogger({ level: "info", format: "json" });
 * logger.child("http").info("GET /healthz 200", { status: 200 });
 * // {"level":"info","time":"2026-01-01T12:00:00.000Z","component":"http","status":200,"msg":"GET /healthz 200"}
 */
export function createPinoLogger(options: PinoLoggerOptions = {}): PinoLogger {
  const stream = options.stream ?? process.stderr;
  const format = options.format === "json" || options.format === "pretty" ? options.format : stream.isTTY === true ? "pretty" : "json";
  const destination = destinationOf(stream, format, options.redactor, options.batched ?? options.stream === undefined);
  const root = pino(
    {
      level: options.level ?? "info",
      base: undefined,
      timestamp: isoTimeOncePerMs,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => logFields() ?? {},
    },
    destination,
  );
  const make = (prefix: readonly string[], bindings: LogData | undefined): PinoLogger => {
    const component = componentOf(prefix, bindings) || (options.root ?? "mcp-host");
    const emit = (level: LogLevel) => (message: string, data?: LogData) => {
      try {
        root[level]({ component, ...bindings, ...cleaned(data) }, message);
      } catch {
        // A value pino cannot write (it handles cycles; this is for the rest) loses its line, not the request.
      }
    };
    return {
      debug: emit("debug"),
      info: emit("info"),
      warn: emit("warn"),
      error: emit("error"),
      child: (name, more) => make([...prefix, name], more === undefined ? bindings : { ...bindings, ...more }),
      get dropped() {
        return destination.safe.dropped;
      },
    };
  };
  return make([], undefined);
}
