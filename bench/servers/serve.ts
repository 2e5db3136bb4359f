/**
 * The entry of one server process: starts the peer named in its argument (JSON PeerConfig) and answers the
 * suite over IPC — `ready` with its URL, `memory` after a full GC (needs --expose-gc), `close` (then exits, so a
 * --cpu-prof profile is written). It exits when the suite goes away, so it never lingers.
 *
 *   node --import tsx --expose-gc bench/servers/serve.ts '{"peer":"sdk-v2","extraTools":0}'
 */
import type { ForkedPeerId, PeerConfig, PeerStarter, RunningPeer } from "./peer.js";

export type ToServer = { type: "memory"; seq: number } | { type: "close" };
export type FromServer =
  | { type: "ready"; url: string }
  | { type: "failed"; message: string }
  | { type: "memory"; seq: number; heapUsed: number; rss: number; external: number; arrayBuffers: number };

/** Imported on demand: a process loads only its own peer's code, so its memory is that peer's alone. */
const STARTERS: Record<ForkedPeerId, () => Promise<PeerStarter>> = {
  "sdk-v2": async () => (await import("./peers/sdk-v2.js")).startSdkV2,
  "sdk-v2-sessions": async () => (await import("./peers/sdk-v2-sessions.js")).startSdkV2Sessions,
  "sdk-v1": async () => (await import("./peers/sdk-v1.js")).startSdkV1,
  "mcp-use": async () => (await import("./peers/mcp-use.js")).startMcpUse,
  fastmcp: async () => (await import("./peers/fastmcp.js")).startFastMcp,
  floor: async () => (await import("./peers/floor.js")).startFloor,
};

function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("the server process needs --expose-gc to report memory");
  gc();
  gc(); // a second pass collects what the first one's finalizers released
}

async function main(): Promise<void> {
  const send = (message: FromServer) => process.send!(message);
  const config = JSON.parse(process.argv[2] ?? "{}") as PeerConfig;
  let peer: RunningPeer;
  try {
    const starter = STARTERS[config.peer as ForkedPeerId];
    if (!starter) throw new Error(`"${config.peer}" is not a forked peer (mcp-host runs as the built CLI: bench/lib/cli-peer.ts)`);
    peer = await (await starter())(config);
  } catch (error) {
    send({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  }
  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= peer
      .close()
      .catch(() => {})
      .finally(() => process.exit(0)));
  process.on("disconnect", () => void shutdown());
  process.on("message", (message: ToServer) => {
    if (message.type === "close") return void shutdown();
    fullGc();
    const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
    send({ type: "memory", seq: message.seq, heapUsed, rss, external, arrayBuffers });
  });
  send({ type: "ready", url: peer.url });
}

await main();
