/**
 * The one way a node request reaches the SDK and its answer comes back (docs/design.md §8): every MCP request — both
 * eras, every method — is handed to the SDK's own web-standard entry points (`createMcpHandler().fetch` for the
 * 2026-07-28 era, the 2025 era's `WebStandardStreamableHTTPServerTransport.handleRequest`) as a web `Request`, with
 * the body the edge already parsed and the caller's `authInfo`, so the SDK runs its whole ladder on every request
 * and a handler sees the same context whatever it asked. What the SDK's own node adapter costs beyond that is not
 * paid: the body is never serialised again (the SDK takes the parsed value), the `Request` carries no body stream,
 * and a JSON answer is written in one write with its length; a stream (SSE) is copied chunk by chunk, minding
 * backpressure, and cancelled when the client leaves — what it has ready at once going out with the headers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { clientLeft, onResponseClose } from "../edge/connection-tracker.js";
import { carryFacts, type RequestFacts } from "../edge/request-facts.js";

/**
 * A web `Request` whose signal is the exchange's own: it aborts when the client goes away before the answer is done.
 * (Handing `new Request` a signal instead costs a second controller that follows it, and a finalizer per request —
 * as much again as the Request itself.)
 */
class ExchangeRequest extends Request {
  constructor(url: string, init: RequestInit, signal: AbortSignal) {
    super(url, init);
    // An own property in front of the prototype's getter (the SDK reads `request.signal`).
    Object.defineProperty(this, "signal", { value: signal, enumerable: true });
  }
}

/**
 * A web `Request` for `req` (no body: the SDK reads the parsed one it is given), carrying the request's facts, with
 * a signal that aborts when the client goes away before the answer is done.
 * @example
 * const response = await handler.fetch(webRequestOf(req, res, facts), { parsedBody: facts.body });
 */
export function webRequestOf(req: IncomingMessage, res: ServerResponse, facts: RequestFacts): Request {
  const host = req.headers.host;
  const url = `http://${typeof host === "string" && host !== "" ? host : "localhost"}${req.url ?? "/"}`;
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const abort = new AbortController();
  if (clientLeft(res)) {
    // Made late (the fast path makes it only when a handler reads it), after the client left: aborted from the start.
    abort.abort();
  } else {
    // On the response's one shared `close` listener (the drain and the caller's limits use the same one).
    onResponseClose(res, () => {
      if (!res.writableFinished) abort.abort();
    });
  }
  const request = new ExchangeRequest(url, { method: req.method ?? "GET", headers }, abort.signal);
  carryFacts(request, facts);
  return request;
}

/** One read of a response body. */
type BodyRead = ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>;

/** What a stream had within one turn of the event loop: its chunks, whether it ended or failed, the read still waiting. */
interface Ready {
  chunks: Uint8Array[];
  done: boolean;
  failed: boolean;
  read: BodyRead;
}

/**
 * What a stream has within this turn of the event loop: each read that resolves before the turn's check phase adds
 * its chunk and starts the next; the read still waiting then is handed back for the caller to await. One promise per
 * read (racing each read against a microtask instead cost five, and a 2025 answer takes three reads).
 */
function takeReady(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Ready> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let settled = false;
    let read: BodyRead;
    const finish = (done: boolean, failed: boolean) => {
      if (settled) return;
      settled = true;
      clearImmediate(turn);
      resolve({ chunks, done, failed, read });
    };
    const next = () => {
      read = reader.read();
      read.then(
        (result) => {
          // Past the turn the caller awaits this read itself.
          if (settled) return;
          if (result.done) return finish(true, false);
          chunks.push(result.value);
          next();
        },
        () => finish(false, true),
      );
    };
    const turn = setImmediate(() => finish(false, false));
    next();
  });
}

/**
 * Writes a web `Response` the SDK produced to `res`: its status and headers, then its body — a JSON answer in one
 * write with Content-Length, anything else (SSE) as it streams. What a stream has ready at once goes out with the
 * headers, as @hono/node-server (the SDK v1's adapter) does: a stream already complete — a 2025 session's answer to a
 * quick call — in one write with Content-Length, not headers and body in two; a stream with nothing yet (a listen
 * stream) has its headers flushed at once, for its client waits for them before it reads the first event.
 * @example
 * await writeWebResponse(res, await handler.fetch(request, { parsedBody }));
 */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (response.body === null) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  if (headers["content-type"] === "application/json") {
    const text = await response.text();
    headers["content-length"] = String(Buffer.byteLength(text));
    if (!res.destroyed) res.writeHead(response.status, headers).end(text);
    return;
  }
  const reader = response.body.getReader();
  let gone = false;
  let wake: (() => void) | undefined;
  onResponseClose(res, () => {
    gone = true;
    wake?.();
    void reader.cancel().catch(() => {});
  });
  try {
    const ready = await takeReady(reader);
    if (res.destroyed) return;
    if (ready.failed) {
      // The stream failed before anything was written: end the answer, as a failed read does later.
      res.end();
      return;
    }
    if (ready.done) {
      const body = Buffer.concat(ready.chunks);
      headers["content-length"] = String(body.byteLength);
      res.writeHead(response.status, headers).end(body);
      return;
    }
    res.writeHead(response.status, headers);
    if (ready.chunks.length === 0) res.flushHeaders();
    for (const chunk of ready.chunks) res.write(chunk);
    for (let read = ready.read; ; read = reader.read()) {
      const { done, value } = await read;
      if (done || res.destroyed) break;
      // Backpressure: wait for the socket to drain, or for the client to leave.
      if (!res.write(value) && !gone)
        await new Promise<void>((resolve) => {
          wake = resolve;
          res.once("drain", () => resolve());
        });
    }
  } catch {
    // The stream failed or the client left; end what was written.
  }
  if (!res.destroyed) res.end();
}
