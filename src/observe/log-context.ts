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

/** What one HTTP request's observers share: whether the protocol core observed an MCP request inside it. */
export interface RequestTrack {
  observed: boolean;
}

interface Scope {
  fields: LogFields;
  track?: RequestTrack;
}

const storage = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` with `fields` added to the current ones (for every line it logs, however deep); `track` starts a new
 * request's track (the HTTP edge passes one).
 * @example
 * withLogFields({ requestId: "r-1" }, () => next(), { observed: false });
 */
export function withLogFields<T>(fields: LogFields, work: () => T, track?: RequestTrack): T {
  const current = storage.getStore();
  const scope: Scope = current === undefined ? { fields } : { fields: { ...current.fields, ...fields }, ...(current.track ? { track: current.track } : {}) };
  if (track !== undefined) scope.track = track;
  return storage.run(scope, work);
}

/**
 * The fields in force now (undefined outside any request).
 * @example
 * logFields()?.requestId
 */
export function logFields(): LogFields | undefined {
  return storage.getStore()?.fields;
}

/**
 * The track of the HTTP request being served now, if any.
 * @example
 * const track = requestTrack(); if (track) track.observed = true;
 */
export function requestTrack(): RequestTrack | undefined {
  return storage.getStore()?.track;
}
