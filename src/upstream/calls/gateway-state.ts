/**
 * The state the gateway puts in an `input_required` result it hands its client, to know on the next round what the
 * round was for: an approval it asked for, a 2026-07-28 upstream's own `requestState` to send back, a call paused
 * on server-to-client requests, or an upstream task waiting for the client's answers (task-relay.ts: that state
 * stays in the host's task, never sent to the client). The host seals it (HMAC, bound to the caller's subject, the method and the tool) before
 * it leaves and verifies it when it returns, so what arrives here is what the gateway wrote for this caller and tool —
 * still checked to belong to the tool it comes back to. Signed, not encrypted: it holds nothing secret.
 */

/** What a round was for. `t` names the tool (`server/tool`) the state belongs to. */
export type GatewayState =
  | { k: "approve"; t: string; d: string }
  | { k: "upstream"; t: string; s?: string }
  | { k: "paused"; t: string; id: string; keys: string[] }
  | { k: "task"; t: string; id: string };

/**
 * @example
 * encodeState({ k: "upstream", t: "everything/echo", s: "abc" }) // '{"k":"upstream","t":"everything/echo","s":"abc"}'
 */
export function encodeState(state: GatewayState): string {
  return JSON.stringify(state);
}

const isText = (value: unknown): value is string => typeof value === "string";

/**
 * The state a round carried back (as `ctx.requestState()` gives it), or undefined for a first round or a shape the
 * gateway never writes.
 * @example
 * decodeState(ctx.requestState())?.k // "approve" | "upstream" | "paused" | "task" | undefined
 */
export function decodeState(raw: unknown): GatewayState | undefined {
  if (!isText(raw)) return undefined;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || !isText(value.t)) return undefined;
  if (value.k === "approve" && isText(value.d)) return { k: "approve", t: value.t, d: value.d };
  if (value.k === "upstream" && (value.s === undefined || isText(value.s))) return { k: "upstream", t: value.t, ...(isText(value.s) ? { s: value.s } : {}) };
  if (value.k === "task" && isText(value.id)) return { k: "task", t: value.t, id: value.id };
  if (value.k === "paused" && isText(value.id) && Array.isArray(value.keys) && value.keys.every(isText)) {
    return { k: "paused", t: value.t, id: value.id, keys: value.keys };
  }
  return undefined;
}
