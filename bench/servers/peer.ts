/**
 * What a peer server is, to the process that runs it: an id, how many extra tools it serves, and a function
 * that starts it on 127.0.0.1 and says where its MCP endpoint is.
 */
export const PEER_IDS = ["mcp-host", "sdk-v2", "sdk-v2-sessions", "sdk-v1", "mcp-use", "fastmcp", "floor", "mcp-host-sdk-entry"] as const;
export type PeerId = (typeof PEER_IDS)[number];

export interface PeerConfig {
  peer: PeerId;
  /** Extra tools beside `echo` (0 or 1000 in the scenarios). */
  extraTools: number;
  /** Idle TTL of a 2025-era session, for the peers that have one (the host); default: the peer's own. */
  sessionIdleTtlMs?: number;
}

export interface RunningPeer {
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp */
  url: string;
  close(): Promise<void>;
}

export type PeerStarter = (config: PeerConfig) => Promise<RunningPeer>;
