/**
 * The raw SDK v1 (`@modelcontextprotocol/sdk` 1.32.2) as most deployed 2025-era servers run it, following its
 * simpleStreamableHttp example: `createMcpExpressApp`, one sessionful `StreamableHTTPServerTransport` plus one
 * `McpServer` with the zod tools per `Mcp-Session-Id`; DELETE ends a session. It speaks no 2026-07-28.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { Request, Response } from "express";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../tools.js";
import { SessionMap } from "../session-map.js";
import { listenLoopback } from "./node-http.js";

export const startSdkV1: PeerStarter = async (config) => {
  const extras = extraTools(config.extraTools);
  const sessions = new SessionMap<StreamableHTTPServerTransport>();
  const newServer = () => {
    const server = new McpServer({ name: "bench", version: "1.0.0" });
    server.registerTool(ECHO_NAME, { description: ECHO_DESCRIPTION, inputSchema: echoInput }, ({ text }) => echoResult(text));
    for (const tool of extras) server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, () => extraResult());
    return server;
  };
  const app = createMcpExpressApp();
  app.post("/mcp", async (req: Request, res: Response) => {
    if (req.headers["mcp-session-id"] === undefined && isInitializeRequest(req.body)) {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      sessions.forgetOnClose(transport);
      await newServer().connect(transport);
      return transport.handleRequest(req, res, req.body);
    }
    await sessions.existing(req, res)?.handleRequest(req, res, req.body);
  });
  app.get("/mcp", async (req: Request, res: Response) => void (await sessions.existing(req, res)?.handleRequest(req, res)));
  app.delete("/mcp", async (req: Request, res: Response) => void (await sessions.existing(req, res)?.handleRequest(req, res)));
  return listenLoopback(createServer(app), () => sessions.closeAll());
};
