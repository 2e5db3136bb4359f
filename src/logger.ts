/**
 * The logger every part of mcp-host writes through. Logs go to stderr (stdout belongs to the stdio transport),
 * one line each, and never carry a token or a secret: callers pass names and codes, not credentials.
 */

import type { McpHostErrorCode } from "./errors.js";
import { defined } from "./defined.js";

export type LogLevel = "debug" | "info" | "warn" | "error";

/** Structured data on a log line; `code`, when present, is one of mcp-host's documented error codes. */
export interface LogData {
  code?: McpHostErrorCode;
  [key: string]: unknown;
}

/** A structured logger; `data` is rendered as JSON after the message. */
export interface Logger {
  debug(message: string, data?: LogData): void;
  info(message: string, data?: LogData): void;
  warn(message: string, data?: LogData): void;
  error(message: string, data?: LogData): void;
  /**
   * A logger whose lines carry `[prefix]` after this one's own prefix, and `bindings` (e.g. `{ extension: "time" }`:
   * what the lines are about, as structured fields) besides their own data.
   */
  child(prefix: string, bindings?: LogData): Logger;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** What a logger sink receives: one already-filtered record. */
export interface LogRecord {
  level: LogLevel;
  prefix: string[];
  message: string;
  data?: LogData;
  /** The fields the logger's `child()` calls bound (present only when some were). */
  bindings?: LogData;
}

/**
 * A logger over any sink, filtering below `level`.
 * @example
 * const log = createLogger({ level: "info", sink: (r) => lines.push(r) });
 */
export function createLogger(options: { level?: LogLevel; sink?: (record: LogRecord) => void; prefix?: string[]; bindings?: LogData } = {}): Logger {
  const level = options.level ?? "info";
  const sink = options.sink ?? stderrSink;
  const prefix = options.prefix ?? [];
  const bound = options.bindings;
  const emit = (recordLevel: LogLevel) => (message: string, data?: LogData) => {
    if (LEVEL_ORDER[recordLevel] < LEVEL_ORDER[level]) return;
    sink({ level: recordLevel, prefix, message, ...defined({ data, bindings: bound }) });
  };
  return {
    debug: emit("debug"),
    info: emit("info"),
    warn: emit("warn"),
    error: emit("error"),
    child: (name, bindings) =>
      createLogger({
        level,
        sink,
        prefix: [...prefix, name],
        ...(bindings === undefined && bound === undefined ? {} : { bindings: { ...bound, ...bindings } }),
      }),
  };
}

/**
 * Whether a line at `level` passes a logger set to `threshold`.
 * @example
 * levelPasses("debug", "info") // false
 */
export function levelPasses(level: LogLevel, threshold: LogLevel): boolean {
  return LEVEL_ORDER[level] >= LEVEL_ORDER[threshold];
}

/**
 * Renders a record as one line: `warn [mcp-host] [spaces] message {"data":…}`.
 * @example
 * createLogger({ sink: (record) => console.error(formatLogRecord(record)) });
 */
export function formatLogRecord(record: LogRecord): string {
  const tags = record.prefix.map((p) => `[${p}]`).join(" ");
  const data = record.data === undefined ? "" : ` ${safeJson(record.data)}`;
  return `${record.level.padEnd(5)} ${tags}${tags ? " " : ""}${record.message}${data}`;
}

function stderrSink(record: LogRecord): void {
  process.stderr.write(`${formatLogRecord(record)}\n`);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return "[unserialisable]";
  }
}

/** A logger that drops everything (library default where the caller gave none and silence is right). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/**
 * A logger that keeps its records in memory, for tests and for `describe()`-style reports.
 * @example
 * const { logger, records } = memoryLogger(); … assert(records.some((r) => r.level === "warn"));
 */
export function memoryLogger(level: LogLevel = "debug"): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { logger: createLogger({ level, sink: (r) => records.push(r) }), records };
}
