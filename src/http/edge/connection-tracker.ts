/**
 * Knows which sockets and requests of an HTTP server are busy, so shutdown can be graceful (docs/design.md §8): end
 * idle sockets at once (Node's own `closeIdleConnections()` misses a keep-alive socket that never carried a
 * request), let ordinary requests in flight finish, and only then end the long-lived streams (legacy GET
 * streams, `subscriptions/listen`), which would otherwise hold shutdown until its deadline. Once draining starts,
 * every answer not yet begun says `Connection: close`, so no client sends another request on a socket that is about
 * to go and loses it to a reset.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { systemClock, type Clock } from "../../clock.js";

const LONG_LIVED = Symbol.for("mcp-host.longLivedRequest");

const ON_CLOSE = Symbol.for("mcp-host.onResponseClose");

type ClosingResponse = ServerResponse & { [ON_CLOSE]?: Array<() => void> };

/**
 * Runs `callback` once the response closes. Every part of the edge that counts a request in flight (the drain, the
 * caller's limits, the operator page's counters) shares one `close` listener per response instead of adding its own.
 * @example
 * onResponseClose(res, () => inFlight.delete(req));
 */
export function onResponseClose(res: ServerResponse, callback: () => void): void {
  const closing = res as ClosingResponse;
  const callbacks = closing[ON_CLOSE];
  if (callbacks !== undefined) {
    callbacks.push(callback);
    return;
  }
  const list = [callback];
  closing[ON_CLOSE] = list;
  res.once("close", () => {
    // A callback that throws must not keep the others from running (each one's failure surfaces on its own).
    for (const run of list) {
      try {
        run();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  });
}

/**
 * The client went away before its answer was done (what a web `Request`'s signal made of this request says): its
 * response closed without finishing.
 * @example
 * if (clientLeft(res)) return false;
 */
export function clientLeft(res: ServerResponse): boolean {
  return res.closed && !res.writableFinished;
}

/** Marks a request as a stream that only ends when the server ends it (done by the app once the body is read). */
export function markLongLived(req: IncomingMessage): void {
  (req as { [LONG_LIVED]?: boolean })[LONG_LIVED] = true;
}

/** True for a request that stays open by design: a GET stream, or one marked long-lived. */
export function isLongLived(req: IncomingMessage): boolean {
  return req.method === "GET" || (req as { [LONG_LIVED]?: boolean })[LONG_LIVED] === true;
}

/** writeHead's headers argument with any Connection header made `close` (other arguments as they are). */
function withoutKeepAlive(arg: unknown): unknown {
  if (Array.isArray(arg)) {
    const flat = [...arg];
    for (let i = 0; i + 1 < flat.length; i += 2) if (String(flat[i]).toLowerCase() === "connection") flat[i + 1] = "close";
    return flat;
  }
  if (typeof arg !== "object" || arg === null) return arg;
  const headers: Record<string, unknown> = { ...(arg as Record<string, unknown>) };
  for (const name of Object.keys(headers)) if (name.toLowerCase() === "connection") headers[name] = "close";
  return headers;
}

export interface ConnectionTracker {
  /**
   * Starts draining: marks every answer not yet begun (and every later one) `Connection: close`, so its socket ends
   * once it is sent. Idle keep-alive sockets stay open for now: a request their client already sent is served (with
   * `close`) instead of being lost with its socket.
   */
  drain(): void;
  /**
   * Resolves once no idle socket is left (their clients closed them, or sent their last request), or after `maxMs` of
   * real time: it is a moment for a request already on the wire to arrive, which the network takes in real time.
   */
  idleGone(maxMs: number): Promise<void>;
  /** Ends the drain: destroys every socket with no request in flight, and each later one as its last answer ends. */
  closeIdle(): void;
  /** Resolves when no ordinary (not long-lived) request is in flight, or after `timeoutMs` on the tracker's clock. */
  drained(timeoutMs: number): Promise<void>;
}

/**
 * @example
 * const tracker = trackConnections(http, host.clock); http.close(); tracker.drain(); await tracker.drained(10_000); tracker.closeIdle();
 */
export function trackConnections(http: HttpServer, clock: Clock): ConnectionTracker {
  const perSocket = new Map<Socket, number>();
  const requests = new Map<IncomingMessage, ServerResponse>();
  const waiters = new Set<() => void>();
  const idleWaiters = new Set<() => void>();
  const idleCount = () => [...perSocket.values()].filter((count) => count === 0).length;
  const wakeIdle = () => {
    if (idleWaiters.size === 0 || idleCount() > 0) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters.clear();
  };
  let state: "serving" | "draining" | "closing" = "serving";
  const ordinaryInFlight = () => [...requests.keys()].filter((r) => !isLongLived(r)).length;
  const closeAfter = (res: ServerResponse) => {
    if (res.headersSent) return;
    res.setHeader("connection", "close");
    // The SDK's streams name `Connection: keep-alive` in writeHead itself, over what was set before: the drain wins.
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      return writeHead.apply(this, args.map(withoutKeepAlive) as Parameters<typeof writeHead>);
    } as typeof res.writeHead;
  };
  const wake = () => {
    if (ordinaryInFlight() > 0) return;
    for (const resolve of waiters) resolve();
    waiters.clear();
  };
  const destroyIdle = () => {
    for (const [socket, count] of perSocket) if (count === 0) socket.destroy();
  };
  http.on("connection", (socket: Socket) => {
    perSocket.set(socket, 0);
    socket.once("close", () => {
      perSocket.delete(socket);
      wakeIdle();
    });
  });
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    perSocket.set(socket, (perSocket.get(socket) ?? 0) + 1);
    requests.set(req, res);
    wakeIdle();
    if (state !== "serving") closeAfter(res);
    onResponseClose(res, () => {
      requests.delete(req);
      const left = (perSocket.get(socket) ?? 1) - 1;
      perSocket.set(socket, left);
      if (state === "closing" && left === 0) socket.destroy();
      wake();
    });
  });
  return {
    drain: () => {
      if (state !== "serving") return;
      state = "draining";
      for (const res of requests.values()) closeAfter(res);
    },
    idleGone: (maxMs) =>
      new Promise<void>((resolve) => {
        if (idleCount() === 0) return resolve();
        const timer = systemClock.setTimeout(done, maxMs, true);
        function done() {
          timer.clear();
          idleWaiters.delete(done);
          resolve();
        }
        idleWaiters.add(done);
      }),
    closeIdle: () => {
      state = "closing";
      destroyIdle();
    },
    drained: (timeoutMs) =>
      new Promise<void>((resolve) => {
        // A spent budget resolves at once: a zero-length timer on a manual clock would wait for the next advance.
        if (ordinaryInFlight() === 0 || timeoutMs <= 0) return resolve();
        const timer = clock.setTimeout(done, timeoutMs, true);
        function done() {
          timer.clear();
          waiters.delete(done);
          resolve();
        }
        waiters.add(done);
      }),
  };
}
