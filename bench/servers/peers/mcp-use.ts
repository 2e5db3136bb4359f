/**
 * mcp-use (2.5.2, a server framework on SDK v2): `MCPServer` with the zod tools through `server.tool`, served by
 * its own `listen` on 127.0.0.1. It builds a fresh SDK `McpServer` per request (2026-07-28 model); 2025-era
 * requests get its default stateless legacy leg, so it has no sessions. Its per-request log line is switched off
 * (the host logs nothing per request either) and its telemetry is off through MCP_USE_ANONYMIZED_TELEMETRY=false,
 * which the suite sets for every server process (bench/lib/peer-process.ts).
 */
import { MCPServer } from "mcp-use";
import type { PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../tools.js";

export const startMcpUse: PeerStarter = async (config) => {
  if (process.env.MCP_USE_ANONYMIZED_TELEMETRY !== "false") throw new Error("mcp-use must run with MCP_USE_ANONYMIZED_TELEMETRY=false (no phoning home)");
  const server = new MCPServer({ name: "bench", version: "1.0.0", logging: { enabled: false } });
  server.tool({ name: ECHO_NAME, description: ECHO_DESCRIPTION, inputSchema: echoInput }, async ({ text }) => echoResult(text));
  for (const tool of extraTools(config.extraTools)) {
    server.tool({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }, async () => extraResult());
  }
  const { port } = await server.listen(0, { host: "127.0.0.1" });
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => server.close() };
};
