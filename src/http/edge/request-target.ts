/**
 * The request target and the Host header, made sane before anything reads them (docs/design.md §16). A request in the
 * absolute form (`POST http://host:port/mcp HTTP/1.1`, which RFC 9112 §3.2.2 says a server must accept) is served
 * like its origin form, and its authority replaces the Host header — as that section says, so the Host check sees
 * what the client really asked for. A Host header that is no host (`a b`, `127.0.0.1:99999`) is the client's
 * mistake: 400, not the 500 that building a URL from it would give later.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJsonRpcError } from "./jsonrpc-response.js";

/** A Host header value: a host name or IP literal, optionally with a port of at most 65535. */
function hostProblem(host: string): string | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.~%!$&'()*+,;=-]+)(?::(\d{0,5}))?$/.exec(host);
  if (!match) return "is not a host name";
  if (match[2] !== undefined && match[2] !== "" && Number(match[2]) > 65_535) return "has a port beyond 65535";
  try {
    new URL(`http://${host}/`);
  } catch {
    return "is not a host name";
  }
  return undefined;
}

/** Host headers already found sane: a client sends the same one on every request, so it is checked once. */
const SANE_HOSTS = new Set<string>();
const MAX_SANE_HOSTS = 256;

function hostProblemOnce(host: string): string | undefined {
  if (SANE_HOSTS.has(host)) return undefined;
  const why = hostProblem(host);
  if (why === undefined) {
    if (SANE_HOSTS.size >= MAX_SANE_HOSTS) SANE_HOSTS.clear();
    SANE_HOSTS.add(host);
  }
  return why;
}

/**
 * Rewrites an absolute-form target to its origin form (taking its authority as the Host), and refuses a
 * malformed Host header with 400. True when the request may go on; false when it was answered.
 * @example
 * if (!saneTarget(req, res)) return;
 */
export function saneTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? "/";
  if (!target.startsWith("/") && /^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      sendJsonRpcError(res, 400, -32600, "Bad Request: the request target is not a valid URL.");
      return false;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      sendJsonRpcError(res, 400, -32600, `Bad Request: a request target of scheme "${url.protocol.slice(0, -1)}" is not served here.`);
      return false;
    }
    req.url = `${url.pathname}${url.search}`;
    req.headers.host = url.host;
  }
  const host = req.headers.host;
  const why = host === undefined ? undefined : hostProblemOnce(host);
  if (why !== undefined) {
    sendJsonRpcError(res, 400, -32600, `Bad Request: the Host header ${why}.`);
    return false;
  }
  return true;
}
