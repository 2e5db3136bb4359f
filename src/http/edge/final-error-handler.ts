/**
 * The last error handler of the app (docs/design.md §16): whatever reaches it is either the client's mistake or a bug,
 * and it says which. A client's mistake — an error that carries a 4xx status (body-parser's, http-errors'), a
 * client that went away mid-upload — gets that status with a JSON-RPC error body and a debug line; an unknown
 * toolset in strict mode gets 400, a host not serving 503. Anything else is a bug: 500 with nothing internal in
 * the answer, and an error line with the detail.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isMcpHostError, messageOf } from "../../errors.js";
import type { McpHost } from "../../host/host.js";
import type { Logger } from "../../logger.js";
import { sendJsonRpcError } from "./jsonrpc-response.js";

interface HttpStatusError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
}

/** The 4xx status an error says the client caused, or undefined. */
export function clientStatusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as HttpStatusError;
  const status = typeof e.status === "number" ? e.status : typeof e.statusCode === "number" ? e.statusCode : undefined;
  return status !== undefined && status >= 400 && status < 500 ? status : undefined;
}

/** True when the client closed the connection before its request was read (nobody is left to answer). */
export function isClientGone(error: unknown, req: IncomingMessage): boolean {
  const type = (error as HttpStatusError | null)?.type;
  return type === "request.aborted" || (req.readableAborted && req.socket.destroyed);
}

/**
 * Answers the host's own refusals that are no bug: a toolset nobody declared under strict selection (400, with the
 * declared ones — with auth on, `known`: only those the caller may reach) and a host not serving right now (503).
 * True when it answered.
 * @example
 * if (answeredHostRefusal(error, host, res, facts.permitted)) return;
 */
export function answeredHostRefusal(error: unknown, host: McpHost, res: ServerResponse, known?: readonly string[]): boolean {
  if (isMcpHostError(error, "SELECTION_UNKNOWN_TOOLSET")) {
    sendJsonRpcError(res, 400, -32602, error.message, {}, { declared: [...(known ?? host.declaredToolsets().map((t) => t.name))].sort() });
    return true;
  }
  if (isMcpHostError(error, "HOST_NOT_STARTED")) {
    sendJsonRpcError(res, 503, -32000, "The server is not serving right now (starting or shutting down); retry shortly.");
    return true;
  }
  return false;
}

/**
 * @example
 * app.use(finalErrorHandler(host, logger));
 */
export function finalErrorHandler(host: McpHost, logger: Logger) {
  return (error: unknown, req: IncomingMessage, res: ServerResponse, _next?: (error?: unknown) => void): void => {
    const where = `${req.method} ${(req.url ?? "").split("?")[0]}`;
    if (answeredHostRefusal(error, host, res)) return;
    if (isClientGone(error, req)) {
      logger.debug(`the client of ${where} went away before its request was read`);
      if (!res.headersSent && !res.destroyed) res.destroy();
      return;
    }
    const status = clientStatusOf(error);
    if (status !== undefined) {
      const message = (error as HttpStatusError).expose === false ? "Bad Request" : messageOf(error);
      logger.debug(`refused ${where} with ${status}: ${message}`);
      sendJsonRpcError(res, status, status === 413 ? -32600 : -32700, `${status === 413 ? "Request Entity Too Large" : "Bad Request"}: ${message}.`);
      return;
    }
    logger.error(`unexpected error serving ${where}: ${messageOf(error)}`, {
      ...(isMcpHostError(error) ? { code: error.code } : {}),
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    });
    sendJsonRpcError(res, 500, -32603, "Internal error");
  };
}
