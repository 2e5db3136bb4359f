/**
 * createHostApp: the express app that serves a host over HTTP (DESIGN.md §8). It owns the edge — Host/Origin
 * checks, CORS, body limits, malformed JSON — then resolves the selection, builds (from the cache) and hands the
 * request to what the serverFactory made for that selection. A client's mistake never gets a 500.
 */
import cors from "cors";
import express, { type NextFunction, type Request, type Response } from "express";
import { isMcpHostError, messageOf } from "../errors.js";
import { compiledOf } from "../host/built-server.js";
import type { McpHost } from "../host/host.js";
import { assertNoUnknownToolsets } from "../host/selection.js";
import { markLongLived } from "./connection-tracker.js";
import { dnsRebindingProtection } from "./dns-rebinding.js";
import { healthOf } from "./health.js";
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, type HostAppOptions } from "./http-options.js";
import { sendJsonRpcError } from "./jsonrpc-response.js";
import { attachScope } from "./request-scope.js";
import { selectionOf } from "./request-selection.js";
import { SelectionEndpoints } from "./selection-endpoints.js";

export interface HostApp {
  /** The express app; mount it or `listen` on it. */
  app: express.Express;
  /** Every selection's MCP endpoint (legacy sessions live here). */
  endpoints: SelectionEndpoints;
  options: Readonly<HostAppOptions>;
  /** Ends every legacy session and modern stream; does not stop the host. */
  close(): Promise<void>;
}

function bodyErrors(maxBodyBytes: number) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    const type = (error as { type?: string }).type;
    if (type === "entity.too.large") {
      sendJsonRpcError(res, 413, -32600, `Request body too large: the limit is ${maxBodyBytes} bytes (http.maxBodyBytes).`);
      return;
    }
    if (type === "entity.parse.failed" || error instanceof SyntaxError) {
      sendJsonRpcError(res, 400, -32700, "Parse error: the request body is not valid JSON.");
      return;
    }
    next(error);
  };
}

/**
 * @example
 * const { app } = createHostApp(host, { path: "/mcp" }); app.listen(3000, "127.0.0.1");
 */
export function createHostApp(host: McpHost, options: HostAppOptions = {}): HostApp {
  const path = options.path ?? "/mcp";
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const logger = host.logger.child("http");
  const endpoints = new SelectionEndpoints(host, options);
  const app = express();
  app.disable("x-powered-by");
  if (options.dnsRebindingProtection !== false) {
    app.use(
      dnsRebindingProtection({
        ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
        ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      }),
    );
  }
  if (options.cors) {
    const base = options.cors === true ? { origin: true } : options.cors;
    app.use(cors({ allowedHeaders: CORS_ALLOWED_HEADERS, exposedHeaders: CORS_EXPOSED_HEADERS, ...base }));
  }
  app.use(express.json({ limit: maxBodyBytes, type: ["application/json", "application/*+json"] }));
  app.use(bodyErrors(maxBodyBytes));

  app.get("/healthz", (_req, res) => {
    res.json(healthOf(host));
  });

  app.get("/toolsets", async (req, res, next) => {
    try {
      const selection = selectionOf(req, options.selection);
      if (options.selection?.strict)
        assertNoUnknownToolsets(
          host.activeFor(selection).unknown,
          host.declaredToolsets().map((t) => t.name),
        );
      res.json(await host.describe(selection));
    } catch (error) {
      next(error);
    }
  });

  app.all(path, async (req, res, next) => {
    if (req.method === "POST" && !req.is(["application/json", "application/*+json"])) {
      sendJsonRpcError(res, 415, -32700, 'Unsupported Media Type: an MCP request is a JSON-RPC message sent with "Content-Type: application/json".');
      return;
    }
    try {
      if ((req.body as { method?: unknown } | undefined)?.method === "subscriptions/listen") markLongLived(req);
      const selection = selectionOf(req, options.selection);
      const built = await host.build(selection);
      if (built.unknown.length > 0) {
        if (options.selection?.strict)
          assertNoUnknownToolsets(
            built.unknown,
            host.declaredToolsets().map((t) => t.name),
          );
        logger.warn(`MCP client asked for unknown toolsets: ${built.unknown.join(", ")}`, { unknown: [...built.unknown] });
      }
      attachScope(req, { compiled: compiledOf(built), unknown: built.unknown });
      await built.server(req, res, next);
    } catch (error) {
      next(error);
    }
  });

  app.use((req, res) => {
    sendJsonRpcError(res, 404, -32601, `Not found: ${req.method} ${req.path}. The MCP endpoint is ${path}; see also /toolsets and /healthz.`);
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isMcpHostError(error, "SELECTION_UNKNOWN_TOOLSET")) {
      sendJsonRpcError(res, 400, -32602, error.message, {}, { declared: host.declaredToolsets().map((t) => t.name) });
      return;
    }
    if (isMcpHostError(error, "HOST_NOT_STARTED")) {
      sendJsonRpcError(res, 503, -32000, "The server is not serving right now (starting or shutting down); retry shortly.");
      return;
    }
    logger.error(`unexpected error serving ${req.method} ${req.path}: ${messageOf(error)}`, isMcpHostError(error) ? { code: error.code } : {});
    sendJsonRpcError(res, 500, -32603, "Internal error");
  });

  return { app, endpoints, options, close: () => endpoints.close() };
}
