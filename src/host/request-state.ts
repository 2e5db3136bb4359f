/**
 * Seals the multi-round-trip `requestState` a handler returns with `inputRequired(...)` (DESIGN.md §10.11, the
 * MCP spec's MRTR integrity rule). The state round-trips through the client, so it is attacker-controlled: the
 * host signs it (HMAC, bound to the method and the caller) before it leaves and verifies it when it comes back,
 * so handlers read back exactly what they returned — or the retry is refused with -32602.
 */
import { randomBytes } from "node:crypto";
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";

export type RequestStateSealer = RequestStateCodec<unknown>;

/**
 * @example
 * const sealer = requestStateSealer(options.requestStateKey); // a random per-process key when none is given
 */
export function requestStateSealer(key?: string | Uint8Array, ttlSeconds = 600): RequestStateSealer {
  return createRequestStateCodec<unknown>({
    key: key ?? randomBytes(32),
    ttlSeconds,
    bind: (ctx: ServerContext) => `${ctx.mcpReq.method}\u0000${ctx.http?.authInfo?.clientId ?? ""}`,
  });
}
