/**
 * What a peer server is, to the process that runs it: an id, how many extra tools it serves, and a function
 * that starts it on 127.0.0.1 and says where its MCP endpoint is. mcp-host itself is not started this way: it is
 * the built CLI (`CLI_PEER_IDS`, bench/lib/cli-peer.ts); every other peer is forked through servers/serve.ts.
 */

/**
 * mcp-host as users run it: the built CLI's `serve`, with its default logging and with access and audit lines off;
 * `mcp-host-entry`, the same CLI with the HTTP fast path off (`http.fastPath: false`: every 2026-07-28 request through
 * the SDK's entry), so the fast path is measured on and off in one run; and `mcp-host-before`, another checkout's
 * built CLI (`MCP_HOST_BENCH_BEFORE`) with default logging, so a change is measured before and after in one
 * interleaved run.
 */
export const CLI_PEER_IDS = ["mcp-host", "mcp-host-silent", "mcp-host-entry", "mcp-host-before"] as const;
/** The peers servers/serve.ts starts in a forked process (tsx). */
export const FORKED_PEER_IDS = ["sdk-v2", "sdk-v2-sessions", "sdk-v1", "mcp-use", "fastmcp", "floor"] as const;
export const PEER_IDS = [...CLI_PEER_IDS, ...FORKED_PEER_IDS] as const;
export type CliPeerId = (typeof CLI_PEER_IDS)[number];
export type ForkedPeerId = (typeof FORKED_PEER_IDS)[number];
export type PeerId = (typeof PEER_IDS)[number];

export function isCliPeer(peer: PeerId): peer is CliPeerId {
  return (CLI_PEER_IDS as readonly string[]).includes(peer);
}

export interface PeerConfig {
  peer: PeerId;
  /** Extra tools beside `echo` (0 or 1000 in the scenarios). */
  extraTools: number;
  /** Idle TTL of a 2025-era session, for the peers that have one (the host); default: the peer's own. */
  sessionIdleTtlMs?: number;
  /**
   * Live 2025-era sessions one caller may hold, for the host (its `http.maxSessionsPerCaller`, default 100): the
   * idle-session measurement opens 1000 from one address. Default: the peer's own.
   */
  maxSessionsPerCaller?: number;
}

export interface RunningPeer {
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp */
  url: string;
  close(): Promise<void>;
}

export type PeerStarter = (config: PeerConfig) => Promise<RunningPeer>;
