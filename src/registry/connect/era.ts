/**
 * Which protocol era to speak with a server, and remembering the answer. Over HTTP the registry probes (bounded) and
 * caches the verdict, so a reconnect costs no second probe. Over stdio it keeps the SDK's 2025 handshake unless the
 * spec says the server is modern: a probe on stdio costs an extra round trip at best, and stalls on servers that
 * silently ignore anything before `initialize`.
 */
import type { Client, PriorDiscovery, VersionNegotiationOptions } from "@modelcontextprotocol/client";
import type { ServerSpecification } from "../types.js";

/** The 2026 protocol revision a "modern" spec pins. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
/** Default bound on the era probe. */
export const DEFAULT_PROBE_TIMEOUT_MS = 5000;

/**
 * The SDK negotiation options for a spec (undefined is the SDK's plain 2025 handshake).
 * @example
 * negotiationFor(ServerSpec.http("h", "https://x.example/mcp")) // { mode: "auto", probe: { timeoutMs: 5000 } }
 */
export function negotiationFor(spec: ServerSpecification): VersionNegotiationOptions | undefined {
  const era = spec.era ?? (spec.transport === "http" ? "auto" : "legacy");
  if (era === "legacy") return undefined;
  if (era === "modern") return { mode: { pin: MODERN_PROTOCOL_VERSION } };
  return { mode: "auto", probe: { timeoutMs: spec.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS } };
}

/**
 * The verdict to remember after a negotiated connect, for `connect(transport, { prior })` next time.
 * @example
 * const prior = verdictOf(client); … await next.connect(transport, { prior });
 */
export function verdictOf(client: Client): PriorDiscovery | undefined {
  const era = client.getProtocolEra();
  if (era === "modern") {
    const discover = client.getDiscoverResult();
    return discover ? { kind: "modern", discover } : undefined;
  }
  return era === "legacy" ? { kind: "legacy" } : undefined;
}
