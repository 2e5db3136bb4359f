/**
 * Knows which sockets and requests of an HTTP server are busy, so shutdown can be graceful (DESIGN.md §8): end
 * idle sockets at once (Node's own `closeIdleConnections()` misses a keep-alive socket that never carried a
 * request), let ordinary requests in flight finish, and only then end the long-lived streams (legacy GET
 * streams, `subscriptions/listen`), which would otherwise hold shutdown until its deadline.
 */
import type { IncomingMessage, Server as HttpServer } from "node:http";
import type { Socket } from "node:net";

const LONG_LIVED = Symbol.for("mcp-host.longLivedRequest");

/** Marks a request as a stream that only ends when the server ends it (done by the app once the body is read). */
export function markLongLived(req: IncomingMessage): void {
  (req as { [LONG_LIVED]?: boolean })[LONG_LIVED] = true;
}

function isLongLived(req: IncomingMessage): boolean {
  return req.method === "GET" || (req as { [LONG_LIVED]?: boolean })[LONG_LIVED] === true;
}

export interface ConnectionTracker {
  /** Destroys every socket with no request in flight; from now on a socket is destroyed when its last response ends. */
  closeIdle(): void;
  /** Resolves when no ordinary (not long-lived) request is in flight, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void>;
}

/**
 * @example
 * const tracker = trackConnections(http); http.close(); tracker.closeIdle(); await tracker.drained(10_000);
 */
export function trackConnections(http: HttpServer): ConnectionTracker {
  const perSocket = new Map<Socket, number>();
  const requests = new Set<IncomingMessage>();
  const waiters = new Set<() => void>();
  let closing = false;
  const ordinaryInFlight = () => [...requests].filter((r) => !isLongLived(r)).length;
  const wake = () => {
    if (ordinaryInFlight() > 0) return;
    for (const resolve of waiters) resolve();
    waiters.clear();
  };
  http.on("connection", (socket: Socket) => {
    perSocket.set(socket, 0);
    socket.once("close", () => perSocket.delete(socket));
  });
  http.on("request", (req: IncomingMessage, res) => {
    const socket = req.socket;
    perSocket.set(socket, (perSocket.get(socket) ?? 0) + 1);
    requests.add(req);
    res.once("close", () => {
      requests.delete(req);
      const left = (perSocket.get(socket) ?? 1) - 1;
      perSocket.set(socket, left);
      if (closing && left === 0) socket.destroy();
      wake();
    });
  });
  return {
    closeIdle: () => {
      closing = true;
      for (const [socket, count] of perSocket) if (count === 0) socket.destroy();
    },
    drained: (timeoutMs) =>
      new Promise<void>((resolve) => {
        if (ordinaryInFlight() === 0) return resolve();
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
        waiters.add(done);
      }),
  };
}
