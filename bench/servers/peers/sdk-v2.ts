/**
 * The raw SDK v2 in the 2026-07-28 era, the way its docs show a stateless server: `createMcpHandler` whose factory
 * makes a fresh `McpServer` and registers the zod tools on every request, mounted with `toNodeHandler` on bare
 * node:http. The body is parsed here and handed over (what an `express.json()` app does): the SDK's faster path,
 * measured in the earlier http-throughput bench. Legacy requests get the handler's default (stateless) leg.
 */
import { createServer } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import type { PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../tools.js";
import { listenLoopback, parseError, readJson } from "./node-http.js";

export const startSdkV2: PeerStarter = async (config) => {
  const extras = extraTools(config.extraTools);
  const factory = () => {
    const server = new McpServer({ name: "bench", version: "1.0.0" });
    server.registerTool(ECHO_NAME, { description: ECHO_DESCRIPTION, inputSchema: echoInput }, ({ text }) => echoResult(text));
    for (const tool of extras) server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, () => extraResult());
    return server;
  };
  const handler = createMcpHandler(factory);
  const node = toNodeHandler(handler);
  const http = createServer((req, res) => {
    if (req.method !== "POST") return void node(req, res);
    void readJson(req).then((body) => (body === undefined ? parseError(res) : node(req, res, body)));
  });
  return listenLoopback(http, () => handler.close());
};
