/**
 * fastmcp (4.20.16, the TypeScript framework on SDK v1): `FastMCP` with the zod tools through `addTool`, started
 * with its `httpStream` transport on 127.0.0.1 — sessionful, 2025 era only (its README says it does not speak
 * 2026-07-28). Its logger is silenced like every other peer's; it has no telemetry (checked: no outbound calls in
 * its dist or mcp-proxy's). Its default keep-alive ping to sessions stays on, as a deployment gets it.
 */
import { FastMCP } from "fastmcp";
import type { PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../tools.js";
import { freePort } from "./node-http.js";

const quiet = { debug() {}, error() {}, info() {}, log() {}, warn() {} };

export const startFastMcp: PeerStarter = async (config) => {
  const server = new FastMCP({ name: "bench", version: "1.0.0", logger: quiet });
  server.addTool({ name: ECHO_NAME, description: ECHO_DESCRIPTION, parameters: echoInput, execute: async ({ text }) => echoResult(text) });
  for (const tool of extraTools(config.extraTools)) {
    server.addTool({ name: tool.name, description: tool.description, parameters: tool.inputSchema, execute: async () => extraResult() });
  }
  // fastmcp cannot listen on port 0 and report the port, so take one that was free a moment ago.
  const port = await freePort();
  await server.start({ transportType: "httpStream", httpStream: { port, host: "127.0.0.1" } });
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => server.stop() };
};
