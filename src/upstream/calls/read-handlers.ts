/**
 * Resource reads and prompt gets of an upstream, re-served through the host. A 2026-07-28 upstream's
 * `input_required` is handed to the client as the host's own (its state sealed inside the gateway's, exactly as for
 * tools); the upstream's "not found" and "invalid params" answers become the same protocol errors downstream, and
 * anything else fails the request with the host's internal-error answer (the details are logged). What the upstream
 * answers reaches the client without the deployment's secrets (the gateway's SecretRedactor).
 */
import type { GetPromptResult, InputRequiredResult, ReadResourceResult } from "@modelcontextprotocol/client";
import { isMcpHostError } from "../../errors.js";
import { inputRequired } from "../../extension/input-required.js";
import { invalidParams, resourceNotFound } from "../../extension/request-errors.js";
import type { RequestContext } from "../../extension/types.js";
import { isInputRequired, type McpRegistry } from "../../registry/index.js";
import type { SecretRedactor } from "../../secret-redactor.js";
import { decodeState, encodeState } from "./gateway-state.js";
import { unanswerable } from "./refusals.js";
import { defined } from "../../defined.js";

type ReadOutcome<R> = R | InputRequiredResult;

/** Where a server's reads go, and what keeps the deployment's secrets out of their answers. */
export interface ReadSource {
  registry: McpRegistry;
  redactor: SecretRedactor;
}

/** The JSON-RPC code an upstream answered with, when the registry's error carries one. */
function upstreamCode(error: unknown): number | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === "number" ? cause.code : undefined;
}

/** Runs one read (or get) round: the upstream's answer, its questions handed on, or its refusal turned into ours. */
async function roundOf<R>(
  redactor: SecretRedactor,
  key: string,
  ctx: RequestContext,
  run: (inputs: { inputResponses?: Record<string, unknown>; requestState?: string; forward?: true; meta?: Record<string, unknown> }) => Promise<ReadOutcome<R>>,
  notFound: { error: () => Error; codes: readonly number[] },
): Promise<ReadOutcome<R>> {
  const raw = ctx.requestState();
  const state = raw === undefined ? undefined : decodeState(raw);
  if (raw !== undefined && (state?.k !== "upstream" || state.t !== key)) throw invalidParams(`the request state sent does not belong to ${key}`);
  let result: ReadOutcome<R>;
  try {
    // A first round needs nothing but forwarding (the registry forwards it when it can); the client's `_meta` goes on.
    const meta = ctx.meta === undefined ? {} : { meta: { ...ctx.meta } };
    result = await run(
      state?.k === "upstream"
        ? { inputResponses: { ...(ctx.inputResponses ?? {}) }, ...defined({ requestState: state.s }), ...meta }
        : { forward: true, ...meta },
    );
  } catch (error) {
    const code = upstreamCode(error);
    if (isMcpHostError(error) && code !== undefined && notFound.codes.includes(code)) throw notFound.error();
    if (isMcpHostError(error) && code === -32602) throw invalidParams(error.message);
    throw error;
  }
  if (!isInputRequired(result)) return redactor.redactValue(result);
  const requests = redactor.redactValue((result.inputRequests ?? {}) as Record<string, { method?: string }>);
  const missing = unanswerable(
    ctx.clientCapabilities,
    Object.values(requests).map((r) => String(r.method)),
  );
  if (missing.length > 0) throw invalidParams(`${key} asked the client for ${missing.join(" and ")}, which this client did not declare it can answer`);
  return inputRequired({
    inputRequests: requests as never,
    requestState: encodeState({ k: "upstream", t: key, ...(typeof result.requestState === "string" ? { s: result.requestState } : {}) }),
  });
}

/**
 * Reads `uri` (a listed resource, or one a template expands to) from `server`.
 * @example
 * read: (ctx) => readUpstream(calls, "everything", "demo://resource/static/document/features.md", ctx)
 */
export function readUpstream(source: ReadSource, server: string, uri: string, ctx: RequestContext): Promise<ReadOutcome<ReadResourceResult>> {
  const { registry } = source;
  return roundOf(
    source.redactor,
    `resource:${server}:${uri}`,
    ctx,
    (inputs) => registry.readResource(uri, { server, signal: ctx.signal, inputRequired: "return", ...inputs }),
    // Resource not found is -32002 in the 2025 protocol and -32602 from 2026-07-28 on.
    { error: () => resourceNotFound(uri), codes: [-32002, -32602] },
  );
}

/**
 * Gets the prompt `name` (the registry's name for it) from `server`.
 * @example
 * get: (args, ctx) => getUpstreamPrompt(calls, "everything", "args-prompt", args, ctx)
 */
export function getUpstreamPrompt(
  source: ReadSource,
  server: string,
  name: string,
  args: Record<string, string>,
  ctx: RequestContext,
): Promise<ReadOutcome<GetPromptResult>> {
  return roundOf(
    source.redactor,
    `prompt/${server}/${name}`,
    ctx,
    (inputs) => source.registry.getPrompt(name, args, { signal: ctx.signal, inputRequired: "return", ...inputs }),
    {
      error: () => invalidParams(`prompt "${name}" was not found on server "${server}"`),
      codes: [],
    },
  );
}
