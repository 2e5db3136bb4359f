/**
 * mcp-host in-process with the modern fast path off: `buildHost` over one bench extension (zod tools through
 * `defineTool`) and `listenHost` on 127.0.0.1 with `modernFastPath: false`, so every modern request goes through the
 * SDK's `createMcpHandler` — the side-by-side with the fast path in scenario 1. It stays in-process (silent logger,
 * tsx) because the CLI has no config key for that internal option; mcp-host itself is measured as the built CLI
 * (bench/lib/cli-peer.ts). The suite drops this peer when src/http no longer has the option (peerUnavailable).
 */
import { buildHost, defineExtension, defineTool, listenHost, silentLogger, type ToolSpec } from "../mcp-host-api.js";
import type { PeerStarter } from "../peer.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../tools.js";

type ListenOptions = NonNullable<Parameters<typeof listenHost>[1]>;

export const startMcpHostSdkEntry: PeerStarter = async (config) => {
  const echo = defineTool({ name: ECHO_NAME, description: ECHO_DESCRIPTION, inputSchema: echoInput, handler: ({ text }) => echoResult(text) });
  const extras: ToolSpec<any>[] = extraTools(config.extraTools).map((tool) => ({ ...tool, handler: () => extraResult() }));
  const extension = defineExtension({ name: "bench", tools: [echo, ...extras] });
  const host = buildHost([extension], { name: "bench", version: "1.0.0", logger: silentLogger, toolsetsTool: false });
  await host.start();
  // Untyped on purpose: an internal option that may go away must not break the suite's type check.
  const fastPathOff: object = { modernFastPath: false };
  const options: ListenOptions = {
    host: "127.0.0.1",
    port: 0,
    ...fastPathOff,
    ...(config.sessionIdleTtlMs === undefined ? {} : { sessionIdleTtlMs: config.sessionIdleTtlMs }),
  };
  const served = await listenHost(host, options);
  return { url: served.url.href, close: () => served.close() };
};
