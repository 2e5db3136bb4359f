/**
 * The peers as the reports name them, the versions of their packages, which of them this checkout can run, how
 * many tools each lists, and starting a scenario's server processes together (closing the ones that started if
 * another failed): mcp-host as the built CLI (cli-peer.ts), every other peer forked (peer-process.ts).
 */
import { readFileSync } from "node:fs";
import { isCliPeer, type PeerConfig, type PeerId } from "../servers/peer.js";
import { CliPeer, HOST_OWN_TOOLS } from "./cli-peer.js";
import type { Measured } from "./measure.js";
import { type Memory, PeerProcess, type StartOptions } from "./peer-process.js";

/** A scenario's server process, whichever way it was started. */
export interface ServerProcess extends Measured {
  readonly config: PeerConfig;
  readonly url: URL;
  /** Its heap and RSS after a full GC. */
  memory(): Promise<Memory>;
  /** What it wrote on stderr lately (for failure reports). */
  stderr(): string;
  /** For the mcp-host CLI: how often it warned that it dropped log lines (its stderr pipe was full). */
  readonly dropWarnings?: number;
  close(): Promise<void>;
}

export const PEER_LABELS: Record<PeerId, string> = {
  "mcp-host": "mcp-host",
  "mcp-host-silent": "mcp-host-silent",
  "mcp-host-entry": "mcp-host (fast path off)",
  "mcp-host-before": "mcp-host (before)",
  "sdk-v2": "raw SDK v2",
  "sdk-v2-sessions": "raw SDK v2 (sessions)",
  "sdk-v1": "raw SDK v1",
  "mcp-use": "mcp-use",
  fastmcp: "fastmcp",
  floor: "floor (node:http)",
};

/** How many tools a peer's tools/list returns: echo, the extra tools, and for the CLI host its own catalog tool. */
export function listedTools(peer: PeerId, extraTools: number): number {
  return 1 + extraTools + (isCliPeer(peer) ? HOST_OWN_TOOLS.length : 0);
}

const PACKAGES = [
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/node",
  "@modelcontextprotocol/express",
  "@modelcontextprotocol/sdk",
  "mcp-use",
  "fastmcp",
  "zod",
  "express",
  "undici",
];

export function peerVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  const own = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  versions["mcp-host"] = own.version;
  // The root's copy first (what mcp-host runs on); the framework peers (mcp-use, fastmcp) are in bench/node_modules only.
  for (const name of PACKAGES) {
    versions[name] = "not installed";
    for (const folder of ["../../node_modules/", "../node_modules/"]) {
      try {
        const pkg = JSON.parse(readFileSync(new URL(`${folder}${name}/package.json`, import.meta.url), "utf8")) as { version: string };
        versions[name] = pkg.version;
        break;
      } catch {
        // not in this folder
      }
    }
  }
  return versions;
}

/** Whether a `--peers` filter lets this peer in ("sdk-v2" also admits "sdk-v2-sessions"). */
export function admitted(peer: PeerId, filter: readonly string[] | undefined): boolean {
  return !filter || filter.some((name) => peer === name || (name === "sdk-v2" && peer === "sdk-v2-sessions"));
}

/** Starts every server process at once; if one fails, closes the others and throws. */
export async function startPeers(configs: readonly PeerConfig[], options: (config: PeerConfig) => StartOptions = () => ({})): Promise<ServerProcess[]> {
  const start = (config: PeerConfig): Promise<ServerProcess> =>
    isCliPeer(config.peer) ? CliPeer.start({ ...config, peer: config.peer }, options(config)) : PeerProcess.start(config, options(config));
  const started = await Promise.allSettled(configs.map(start));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  const running = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  if (failed) {
    await Promise.all(running.map((p) => p.close()));
    throw failed.reason;
  }
  return running;
}

export async function closePeers(peers: readonly ServerProcess[]): Promise<void> {
  await Promise.all(peers.map((p) => p.close()));
}
