/**
 * The peers as the reports name them, the versions of their packages, and starting a scenario's server
 * processes together (closing the ones that started if another failed).
 */
import { readFileSync } from "node:fs";
import type { PeerConfig, PeerId } from "../servers/peer.js";
import { PeerProcess, type StartOptions } from "./peer-process.js";

export const PEER_LABELS: Record<PeerId, string> = {
  "mcp-host": "mcp-host",
  "sdk-v2": "raw SDK v2",
  "sdk-v2-sessions": "raw SDK v2 (sessions)",
  "sdk-v1": "raw SDK v1",
  "mcp-use": "mcp-use",
  fastmcp: "fastmcp",
  floor: "floor (node:http)",
  "mcp-host-sdk-entry": "mcp-host (fast path off)",
};

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
  for (const name of PACKAGES) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), "utf8")) as { version: string };
      versions[name] = pkg.version;
    } catch {
      versions[name] = "not installed";
    }
  }
  return versions;
}

/** Whether a `--peers` filter lets this peer in ("sdk-v2" also admits "sdk-v2-sessions"). */
export function admitted(peer: PeerId, filter: readonly string[] | undefined): boolean {
  return !filter || filter.some((name) => peer === name || (name === "sdk-v2" && peer === "sdk-v2-sessions"));
}

/** Starts every server process at once; if one fails, closes the others and throws. */
export async function startPeers(configs: readonly PeerConfig[], options: (config: PeerConfig) => StartOptions = () => ({})): Promise<PeerProcess[]> {
  const started = await Promise.allSettled(configs.map((config) => PeerProcess.start(config, options(config))));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  const running = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  if (failed) {
    await Promise.all(running.map((p) => p.close()));
    throw failed.reason;
  }
  return running;
}

export async function closePeers(peers: readonly PeerProcess[]): Promise<void> {
  await Promise.all(peers.map((p) => p.close()));
}
