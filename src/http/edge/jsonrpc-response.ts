/**
 * Answers an HTTP request with a JSON-RPC error body — the shape every MCP client understands, so a client that
 * made a mistake (no session, unknown session, too many sessions) reads why instead of a bare status.
 */
import type { ServerResponse } from "node:http";
import { defined } from "../../defined.js";

/**
 * @example
 * sendJsonRpcError(res, 404, -32001, "Session not found: start a new one with initialize");
 */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: unknown,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message, ...defined({ data }) }, id: null });
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body);
}

/**
 * Answers one JSON-RPC request with an error in the body, as a handler's error travels (HTTP 200, the request's id):
 * for a request the HTTP layer refuses on the handler's behalf.
 * @example
 * sendInBandError(res, 7, -32602, "Too many resource subscriptions");
 */
export function sendInBandError(res: ServerResponse, id: string | number | null, code: number, message: string, data?: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } }));
}
