/**
 * mcp-host as a deployment runs it: `buildHost` over one bench extension (zod tools through `defineTool`) and
 * `listenHost` on 127.0.0.1 — express, the DNS-rebinding check, selection, the build cache, both eras (modern
 * requests and 2025-era sessions on the same endpoint).
 */
import { buildHost, defineExtension, defineTool, listenHost, silentLogger, type ToolSpec } from "../mcp-host-api.js";
import type { PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../tools.js";

export const startMcpHost: PeerStarter = async (config) => {
  const echo = defineTool({ name: ECHO_NAME, description: ECHO_DESCRIPTION, inputSchema: echoInput, handler: ({ text }) => echoResult(text) });
  const extras: ToolSpec<any>[] = extraTools(config.extraTools).map((tool) => ({ ...tool, handler: () => extraResult() }));
  const extension = defineExtension({ name: "bench", tools: [echo, ...extras] });
  const host = buildHost([extension], { name: "bench", version: "1.0.0", logger: silentLogger, toolsetsTool: false });
  await host.start();
  const served = await listenHost(host, {
    host: "127.0.0.1",
    port: 0,
    ...(config.sessionIdleTtlMs === undefined ? {} : { sessionIdleTtlMs: config.sessionIdleTtlMs }),
  });
  return { url: served.url.href, close: () => served.close() };
};
