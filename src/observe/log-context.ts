/**
 * The fields every log line written while serving one request carries — its request id, and inside a tool call the
 * tool, toolset and extension (or upstream server) — kept in AsyncLocalStorage, so a line an extension writes through
 * `ctx.logger` carries them without the extension passing anything. The pino logger reads them in its mixin.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What a log line written now is about. */
export interface LogFields {
  requestId?: string;
  extension?: string;
  toolset?: string;
  tool?: string;
  server?: string;
}

const storage = new AsyncLocalStorage<LogFields>();

/**
 * Runs `work` with `fields` added to the current ones (for every line it logs, however deep).
 * @example
 * withLogFields({ requestId: "r-1" }, () => next());
 */
export function withLogFields<T>(fields: LogFields, work: () => T): T {
  const current = storage.getStore();
  return storage.run(current === undefined ? fields : { ...current, ...fields }, work);
}

/**
 * The fields in force now (undefined outside any request).
 * @example
 * logFields()?.requestId
 */
export function logFields(): LogFields | undefined {
  return storage.getStore();
}
