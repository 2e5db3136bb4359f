/**
 * mcp-host as a deployment runs it: `buildHost` over one bench extension (zod tools through `defineTool`) and
 * `listenHost` on 127.0.0.1 — express, the DNS-rebinding check, selection, the build cache, both eras (modern
 * requests and 2025-era sessions on the same endpoint). `mcp-host-sdk-entry` is the same host with the modern fast
 * path off (every request through the SDK's `createMcpHandler`), for the side-by-side in scenario 1.
 */
import { buildHost, defineExtension, defineTool, listenHost, silentLogger, type ToolSpec } from "../mcp-host-api.js";
import type { PeerConfig, PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../tools.js";

async function start(config: PeerConfig) {
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
}

export const startMcpHost: PeerStarter = (config) => start(config);

/** Kept for the peer list: there is one way into the SDK now, so it is the same host (the fast path is gone). */
export const startMcpHostSdkEntry: PeerStarter = (config) => start(config);
