/**
 * The lingering close (nginx's name for it; docs/design.md §16): an answer sent before the request's body was read to
 * its end — 413 for a body over the limit, 401 "before a byte of the body", any refusal of the edge — leaves the
 * client still sending. A socket closed then still holds unread bytes, so the kernel resets the connection, and a
 * client that reads only once it has sent (or whose stack drops what it had on the reset) never sees its answer:
 * `fetch failed` instead of a 413, no 401 to start its OAuth discovery. So once such an answer is sent, the rest of
 * the body is read and thrown away, at most `maxBytes` of it and for at most `maxMs`; then the connection goes on
 * (keep-alive) or closes (`Connection: close`). Past either bound it is cut off, as before: nothing unbounded is read
 * (Node alone would read a keep-alive request's unread body to its end), and a slow-drip sender is still cut off.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Clock } from "../../clock.js";

/** How much of a body is read after an early answer. */
export interface LingerBounds {
  /** Bytes of the rest of the body read at most (as they arrive, after any transfer coding). */
  maxBytes: number;
  /** Time at most, on `clock`, from the answer to the end of the body. */
  maxMs: number;
  clock: Clock;
}

/** True when the request announces a body (a length other than 0, or a transfer coding). */
function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Starts reading and dropping the rest of `req`'s body as the answer ends (its "prefinish"), so Node finds the body
 * being read and leaves it to us: Node alone drops an unread body inside its parser, to its end, however long.
 */
function dropRest(req: IncomingMessage, socket: Socket, bounds: LingerBounds): void {
  let left = bounds.maxBytes;
  const timer = bounds.clock.setTimeout(() => socket.destroy(), bounds.maxMs);
  const clear = () => timer.clear();
  socket.once("close", clear);
  req.on("data", (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) socket.destroy();
  });
  // A keep-alive socket carries many requests: what this one added to it goes when its body has been read.
  req.once("end", () => {
    clear();
    socket.removeListener("close", clear);
  });
  req.resume();
}

/**
 * Once the answer is sent: an answer with `Connection: close` has had its socket ended (Node's destroySoon: FIN now,
 * destroy once flushed, which would reset the client still sending). Keep the half-closed socket until the rest of
 * the body is read instead; it is destroyed then (or at a bound).
 */
function keepReading(req: IncomingMessage, socket: Socket): void {
  if (socket.destroyed || !socket.writableEnded || req.complete) return;
  socket.removeListener("finish", socket.destroy);
  req.once("end", () => socket.destroy());
}

/**
 * Wraps a request listener so that every answer it sends before the body was read is followed by a lingering close.
 * @example
 * http.createServer(lingerAfterEarlyAnswers(listener, { maxBytes: 8 << 20, maxMs: 5_000, clock }));
 */
export function lingerAfterEarlyAnswers(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  bounds: LingerBounds,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (announcesBody(req)) {
      const socket = req.socket;
      res.once("prefinish", () => {
        if (req.complete) return;
        dropRest(req, socket, bounds);
        // On the next tick: Node's own "finish" listener (which ends a closing socket) has run by then.
        res.once("finish", () => process.nextTick(keepReading, req, socket));
      });
    }
    listener(req, res);
  };
}
