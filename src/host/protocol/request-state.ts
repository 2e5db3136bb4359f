/**
 * Seals the multi-round-trip `requestState` a handler returns with `inputRequired(...)` (DESIGN.md §10.11, the
 * MCP spec's MRTR integrity rule). The state round-trips through the client, so it is attacker-controlled: the
 * host signs it (HMAC, bound to the method and the caller) before it leaves and verifies it when it comes back,
 * so handlers read back exactly what they returned — or the retry is refused with -32602.
 */
import { randomBytes } from "node:crypto";
import { createRequestStateCodec, type InputRequiredResult, type RequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";

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

/** True for the `inputRequired(...)` result a handler returns to ask the client first. */
export function isInputRequired(value: unknown): value is InputRequiredResult {
  return typeof value === "object" && value !== null && (value as { resultType?: unknown }).resultType === "input_required";
}

/**
 * Signs the state of an `inputRequired(...)` result on its way out (the SDK verifies it on the retry); any other
 * result passes unchanged.
 * @example
 * return sealOutgoing(sealer, await handler(args, ctx), sdk);
 */
export async function sealOutgoing<T>(sealer: RequestStateSealer, value: T, sdk: ServerContext): Promise<T> {
  if (!isInputRequired(value) || value.requestState === undefined) return value;
  return { ...value, requestState: await sealer.mint(value.requestState, sdk) };
}
