/**
 * The fields every log line written while serving one request carries — its request id, and inside a tool call the
 * tool, toolset and extension (or upstream server) — kept in AsyncLocalStorage, so a line an extension writes through
 * `ctx.logger` carries them without the extension passing anything. The pino logger reads them in its mixin.
 * AsyncLocalStorage hands a scope on to everything started inside it — a timer, a listener on a shared emitter, a
 * connection opened on first use — and that work may outlive the request; so a scope ends with its request (the edge
 * marks the track ended when the answer is done) or with its work (when the promise it returned settles), and a line
 * written after that carries none of its fields.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What a log line written now is about. */
export interface LogFields {
  requestId?: string;
  /** The caller's address (behind a trusted proxy, the client it forwarded for: `http.trustProxy`). */
  client?: string;
  extension?: string;
  toolset?: string;
  tool?: string;
  server?: string;
}

/** What one HTTP request's observers share: whether the protocol core observed an MCP request inside it. */
export interface RequestTrack {
  observed: boolean;
  /** Set once the request is answered (or gone): its scope's fields stop there. */
  ended?: boolean;
}

/** How long a scope's fields hold: until it, or a scope it is inside, has ended. */
interface Life {
  ended(): boolean;
  parent?: Life;
}

interface Scope {
  fields: LogFields;
  track?: RequestTrack;
  life: Life;
}

function alive(life: Life | undefined): boolean {
  for (let at = life; at !== undefined; at = at.parent) if (at.ended()) return false;
  return true;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" && typeof (value as PromiseLike<unknown>).then === "function";
}

const storage = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` with `fields` added to the current ones (for every line it logs, however deep); `track` starts a new
 * request's track (the HTTP edge passes one).
 * @example
 * withLogFields({ requestId: "r-1" }, () => next(), { observed: false });
 */
export function withLogFields<T>(fields: LogFields, work: () => T, track?: RequestTrack): T {
  const store = storage.getStore();
  // Work started inside an ended scope (a request's timer) starts afresh: it is no longer that request's.
  const current = store !== undefined && alive(store.life) ? store : undefined;
  let settled = false;
  // A request's scope lasts until the edge ends its track; any other until its work is done.
  const life: Life = track !== undefined ? { ended: () => track.ended === true } : { ended: () => settled };
  if (current !== undefined) life.parent = current.life;
  const scope: Scope =
    current === undefined ? { fields, life } : { fields: { ...current.fields, ...fields }, life, ...(current.track ? { track: current.track } : {}) };
  if (track !== undefined) scope.track = track;
  const result = storage.run(scope, work);
  if (track === undefined) {
    if (isThenable(result))
      result.then(
        () => (settled = true),
        () => (settled = true),
      );
    else settled = true;
  }
  return result;
}

/**
 * The fields in force now (undefined outside any request).
 * @example
 * logFields()?.requestId
 */
export function logFields(): LogFields | undefined {
  const scope = storage.getStore();
  return scope !== undefined && alive(scope.life) ? scope.fields : undefined;
}

/**
 * The track of the HTTP request being served now, if any.
 * @example
 * const track = requestTrack(); if (track) track.observed = true;
 */
export function requestTrack(): RequestTrack | undefined {
  const scope = storage.getStore();
  return scope !== undefined && alive(scope.life) ? scope.track : undefined;
}
