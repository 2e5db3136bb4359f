/**
 * Seals the multi-round-trip `requestState` a handler returns with `inputRequired(...)` (docs/design.md §7, the MCP
 * spec's MRTR integrity rule). The state round-trips through the client, so it is attacker-controlled: the host signs
 * it (the SDK's HMAC codec, with a TTL) before it leaves and verifies it when it comes back, bound to who asked (the
 * verified token's subject and client), the method and its target (the tool, the prompt, the resource URI). Each state
 * carries a single-use id and when it was issued, and is accepted once (used-states.ts): a state that was tampered
 * with, has expired, was used already, or comes back from another caller, on another method or for another target is
 * refused with -32602 before any handler runs. It is signed, not encrypted: a client can read it.
 */
import { randomBytes } from "node:crypto";
import {
  createRequestStateCodec,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type AuthInfo,
  type InputRequest,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { systemClock, type Clock } from "../../clock.js";
import { isStandardSchema } from "../../extension/schema-types.js";
import type { ServeRequestInfo } from "./request-context.js";
import { UsedStates, type SharedClaims } from "./used-states.js";

/** What a sealed state is bound to: it is accepted back only where all three are the same. */
export interface StateBinding {
  /** The JSON-RPC method (`tools/call`, `prompts/get`, `resources/read`). */
  method: string;
  /** The tool or prompt name, or the resource URI. */
  target: string;
  /** Who asked (see `callerOf`). */
  caller: string;
}

/** Signs and checks request state for one host (every build shares it, so a retry may land on a newer build). */
export interface RequestStateSealer {
  /** The state as it leaves: signed, expiring, bound to `binding`. */
  seal(payload: unknown, binding: StateBinding): Promise<string>;
  /** The payload of a state that came back, or a -32602 ProtocolError when it does not verify against `binding`. */
  open(state: unknown, binding: StateBinding): Promise<unknown>;
}

/** How long a sealed state stays good: as long as the gateway keeps a paused call (a person may take minutes to answer). */
export const REQUEST_STATE_TTL_SECONDS = 600;

/** How a host seals its states. */
export interface SealerOptions {
  /** The HMAC key (a random per-process key when none is given; a fleet shares one). */
  key?: string | Uint8Array;
  ttlSeconds?: number;
  /** What issue times and single-use ids' lifetimes are read on (the host's clock). */
  clock?: Clock;
  /** In a fleet: the single-use claims made in Redis, so a state is accepted once across every instance. */
  shared?: SharedClaims;
}

/** What a sealed state carries: the handler's payload, its single-use id, and when it was issued. */
interface Sealed {
  v: unknown;
  n: string;
  t: number;
}

function isSealed(value: unknown): value is Sealed {
  const sealed = value as Partial<Sealed> | null;
  return typeof sealed === "object" && sealed !== null && typeof sealed.n === "string" && typeof sealed.t === "number" && "v" in sealed;
}

/** The one answer for every reason a state is refused (forged, expired, used, another caller's or target's). */
function invalidState(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState", { reason: "invalid_request_state" });
}

/**
 * @example
 * const sealer = requestStateSealer({ key: options.requestStateKey, clock }); // a random per-process key when none is given
 */
export function requestStateSealer(options: SealerOptions = {}): RequestStateSealer {
  const ttlSeconds = options.ttlSeconds ?? REQUEST_STATE_TTL_SECONDS;
  const clock = options.clock ?? systemClock;
  const used = new UsedStates({ clock, ttlMs: ttlSeconds * 1000, ...(options.shared ? { shared: options.shared } : {}) });
  // The SDK's codec binds to `bind(ctx)` of what mint/verify are given; here that is the binding itself (the SDK types
  // it as its own context, which knows neither the target nor the host's view of the caller).
  const codec = createRequestStateCodec<Sealed>({
    key: options.key ?? randomBytes(32),
    ttlSeconds,
    bind: (binding) => bindingText(binding as unknown as StateBinding),
  });
  return {
    seal: (payload, binding) => codec.mint({ v: payload, n: randomBytes(16).toString("base64url"), t: clock.now() }, binding as unknown as ServerContext),
    open: async (state, binding) => {
      let sealed: Sealed;
      try {
        if (typeof state !== "string") throw new Error("not a string");
        sealed = await codec.verify(state, binding as unknown as ServerContext);
      } catch {
        // One answer for every reason (forged, expired, another caller's, another target's): the client learns nothing.
        throw invalidState();
      }
      // Verified first, then claimed: a state sent with another binding is refused without using it up.
      if (!isSealed(sealed) || !(await used.claim(sealed.n, sealed.t))) throw invalidState();
      return sealed.v;
    },
  };
}

function bindingText(binding: StateBinding): string {
  return JSON.stringify([binding.method, binding.target, binding.caller]);
}

function subjectOf(auth: AuthInfo): string {
  const subject = auth.extra?.subject;
  return typeof subject === "string" && subject.length > 0 ? subject : auth.clientId;
}

function issuerOf(auth: AuthInfo): string {
  const iss = (auth.extra?.claims as { iss?: unknown } | undefined)?.iss;
  return typeof iss === "string" ? iss : "";
}

/**
 * Who is asking, as the state is bound to it: with auth, the verified token's issuer, subject and client (so another
 * user's token — even of the same client — cannot replay it); without auth, the legacy session, else the stdio
 * process's one client, else nobody in particular (an unauthenticated HTTP deployment cannot tell its callers apart).
 * A task belongs to the same caller (docs/tasks.md).
 * @example
 * callerOf(sdk, info) // '["token","https://id.example.com/","user-1","web-app"]'
 */
export function callerOf(sdk: ServerContext, info: ServeRequestInfo): string {
  return callerFrom(sdk.http?.authInfo ?? info.authInfo, info.sessionId ?? sdk.sessionId, info.transport);
}

/**
 * `callerOf` from the facts a request carries outside a handler (the HTTP layer's listen streams).
 * @example
 * callerFrom(facts.authInfo, undefined, "http") // '["anonymous"]' without auth
 */
export function callerFrom(auth: AuthInfo | undefined, session: string | undefined, transport: "http" | "stdio" | undefined): string {
  if (auth !== undefined) return JSON.stringify(["token", issuerOf(auth), subjectOf(auth), auth.clientId]);
  if (session !== undefined) return JSON.stringify(["session", session]);
  return JSON.stringify([transport === "stdio" ? "stdio" : "anonymous"]);
}

/** Where a state is sealed or opened: the request being handled and its target (the tool, prompt or resource URI). */
export interface StateSite {
  sdk: ServerContext;
  info: ServeRequestInfo;
  target: string;
}

function bindingOf(site: StateSite): StateBinding {
  return { method: site.sdk.mcpReq.method, target: site.target, caller: callerOf(site.sdk, site.info) };
}

/**
 * The state a retry carried, opened for this request: undefined on a first round, the payload the handler sealed when
 * it verifies, else a -32602 ProtocolError (thrown before any handler runs). A first round costs nothing.
 * @example
 * const state = await openIncoming(sealer, { sdk, info, target: tool.name });
 */
export async function openIncoming(sealer: RequestStateSealer, site: StateSite): Promise<unknown> {
  const raw = site.sdk.mcpReq.requestState();
  return raw === undefined ? undefined : sealer.open(raw, bindingOf(site));
}

/** True for the `inputRequired(...)` result a handler returns to ask the client first. */
export function isInputRequired(value: unknown): value is InputRequiredResult {
  return typeof value === "object" && value !== null && (value as { resultType?: unknown }).resultType === "input_required";
}

/**
 * A form elicitation built with the root's `inputRequired.elicit` may carry a zod schema: the SDK's own builder
 * converts it to the flat JSON Schema the protocol allows, and refuses what it cannot express. (A task's questions
 * go out through `tasks/get` the same way.)
 * @example
 * normalizedInputRequired(inputRequired({ inputRequests: { ok: inputRequired.elicit({ message, requestedSchema: z.object({…}) }) } }))
 */
export function normalizedInputRequired(value: InputRequiredResult): InputRequiredResult {
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
 * Readies an `inputRequired(...)` result to leave: its requests normalized, its state sealed to this request's caller,
 * method and target (opened with `openIncoming` on the retry). Any other result passes unchanged.
 * @example
 * return sealOutgoing(sealer, await handler(args, ctx), { sdk, info, target: tool.name });
 */
export async function sealOutgoing<T>(sealer: RequestStateSealer, value: T, site: StateSite): Promise<T> {
  if (!isInputRequired(value)) return value;
  const normalized = normalizedInputRequired(value);
  if (normalized.requestState === undefined) return normalized as T;
  return { ...normalized, requestState: await sealer.seal(normalized.requestState, bindingOf(site)) } as T;
}
