/**
 * One raw HTTP exchange on a fresh connection, as the fuzz needs it: any bytes out, and back whatever came — the
 * status line and headers, the body (until its length or chunked end, or only the headers for an event stream),
 * or how the connection failed: `closed` without an answer, `reset`, or `timeout` (bounded).
 */
import { connect } from "node:net";

export interface Exchange {
  /** The HTTP status, or the way the exchange ended without one. */
  outcome: number | "closed" | "reset" | "timeout" | "error";
  headers: Record<string, string>;
  body: string;
  /** From the first byte sent to the answer's end (or the failure). */
  ms: number;
}

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine, ...lines] = head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status, headers };
}

/** True once `body` holds the whole of a chunked body. */
function chunkedDone(body: Buffer): boolean {
  return body.includes("\r\n0\r\n\r\n") || body.subarray(0, 5).toString() === "0\r\n\r\n";
}

function dechunk(body: Buffer): string {
  let out = "";
  let at = 0;
  for (;;) {
    const end = body.indexOf("\r\n", at);
    if (end < 0) break;
    const size = Number.parseInt(body.subarray(at, end).toString(), 16);
    if (!(size > 0)) break;
    out += body.subarray(end + 2, end + 2 + size).toString("utf8");
    at = end + 2 + size + 2;
  }
  return out;
}

/**
 * @example
 * const { outcome } = await exchange(port, Buffer.from("GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n"), 5_000);
 */
export function exchange(port: number, request: Buffer, timeoutMs: number): Promise<Exchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: Exchange["outcome"], headers: Record<string, string> = {}, body = "") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ outcome, headers, body, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    const tryComplete = (ended: boolean) => {
      const split = received.indexOf("\r\n\r\n");
      if (split < 0) return ended ? finish(received.length === 0 ? "closed" : "error") : undefined;
      const { status, headers } = parseHead(received.subarray(0, split).toString("latin1"));
      const body = received.subarray(split + 4);
      if (status === 0) return finish("error");
      if ((headers["content-type"] ?? "").startsWith("text/event-stream") && headers["content-length"] === undefined) return finish(status, headers, "");
      if (headers["content-length"] !== undefined) {
        if (body.length >= Number(headers["content-length"]) || ended) return finish(status, headers, body.toString("utf8"));
        return;
      }
      if (headers["transfer-encoding"] === "chunked") {
        if (chunkedDone(body) || ended) return finish(status, headers, dechunk(body));
        return;
      }
      if (ended) return finish(status, headers, body.toString("utf8"));
      // No length and no chunks: the body runs to the connection's end.
    };
    socket.on("connect", () => socket.write(request));
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      tryComplete(false);
    });
    socket.on("end", () => tryComplete(true));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (received.indexOf("\r\n\r\n") >= 0) return tryComplete(true);
      finish(error.code === "ECONNRESET" || error.code === "EPIPE" ? "reset" : "error");
    });
    socket.on("close", () => tryComplete(true));
  });
}
