/**
 * Seals the multi-round-trip `requestState` a handler returns with `inputRequired(...)` (docs/design.md §10.11, the
 * MCP spec's MRTR integrity rule). The state round-trips through the client, so it is attacker-controlled: the
 * host signs it (HMAC, bound to the method and the caller) before it leaves and verifies it when it comes back,
 * so handlers read back exactly what they returned — or the retry is refused with -32602.
 */
import { randomBytes } from "node:crypto";
import {
  createRequestStateCodec,
  inputRequired,
  type InputRequest,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { isStandardSchema } from "../../extension/schema-types.js";

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
 * A form elicitation built with the root's `inputRequired.elicit` may carry a zod schema: the SDK's own builder
 * converts it to the flat JSON Schema the protocol allows, and refuses what it cannot express.
 */
function normalizeRequests(value: InputRequiredResult): InputRequiredResult {
  const requests = value.inputRequests as Record<string, InputRequest> | undefined;
  if (requests === undefined) return value;
  let changed = false;
  const normalized: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(requests)) {
    const params = (request as { params?: { requestedSchema?: unknown } }).params;
    if (request.method === "elicitation/create" && isStandardSchema(params?.requestedSchema)) {
      normalized[key] = inputRequired.elicit(params as Parameters<typeof inputRequired.elicit>[0]) as InputRequest;
      changed = true;
    } else normalized[key] = request;
  }
  return changed ? ({ ...value, inputRequests: normalized } as InputRequiredResult) : value;
}

/**
 * Readies an `inputRequired(...)` result to leave: its requests normalized, its state signed (the SDK verifies it
 * on the retry). Any other result passes unchanged.
 * @example
 * return sealOutgoing(sealer, await handler(args, ctx), sdk);
 */
export async function sealOutgoing<T>(sealer: RequestStateSealer, value: T, sdk: ServerContext): Promise<T> {
  if (!isInputRequired(value)) return value;
  const normalized = normalizeRequests(value);
  if (normalized.requestState === undefined) return normalized as T;
  return { ...normalized, requestState: await sealer.mint(normalized.requestState, sdk) } as T;
}
