/**
 * The raw SDK v2 in the 2025 era with sessions, as its node adapter's docs show: `createMcpExpressApp` (express,
 * `express.json()`, Host/Origin validation on loopback) and one `NodeStreamableHTTPServerTransport` plus one
 * `McpServer` with the zod tools per `Mcp-Session-Id`; DELETE ends a session.
 */
import { randomUUID } from "node:crypto";
import { createMcpExpressApp } from "@modelcontextprotocol/express";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { isInitializeRequest, McpServer } from "@modelcontextprotocol/server";
import type { PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../tools.js";
import { SessionMap } from "../session-map.js";
import { listenLoopback } from "./node-http.js";

export const startSdkV2Sessions: PeerStarter = async (config) => {
  const extras = extraTools(config.extraTools);
  const sessions = new SessionMap<NodeStreamableHTTPServerTransport>();
  const newServer = () => {
    const server = new McpServer({ name: "bench", version: "1.0.0" });
    server.registerTool(ECHO_NAME, { description: ECHO_DESCRIPTION, inputSchema: echoInput }, ({ text }) => echoResult(text));
    for (const tool of extras) server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, () => extraResult());
    return server;
  };
  const app = createMcpExpressApp();
  app.post("/mcp", async (req, res) => {
    if (req.headers["mcp-session-id"] === undefined && isInitializeRequest(req.body)) {
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      sessions.forgetOnClose(transport);
      await newServer().connect(transport);
      return transport.handleRequest(req, res, req.body);
    }
    await sessions.existing(req, res)?.handleRequest(req, res, req.body);
  });
  app.get("/mcp", async (req, res) => void (await sessions.existing(req, res)?.handleRequest(req, res)));
  app.delete("/mcp", async (req, res) => void (await sessions.existing(req, res)?.handleRequest(req, res)));
  const { createServer } = await import("node:http");
  return listenLoopback(createServer(app), () => sessions.closeAll());
};
