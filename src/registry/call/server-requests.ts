/**
 * Server-to-client requests (sampling, elicitation, roots) from upstream servers. Each goes, in order of preference,
 * to the per-call relay of the call in progress (the gateway's way to reach its downstream client), to the handler
 * on the server's spec, to the registry's handler — or is refused with a JSON-RPC error the upstream sees. A
 * handler's failure becomes such an error too; it never crashes anything.
 */
import { ProtocolError, ProtocolErrorCode, type Client, type ClientCapabilities } from "@modelcontextprotocol/client";
import { messageOf } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { ClientSetup } from "../connect/connection.js";
import type { ServerRequestContext, ServerRequestHandlers, ServerRequestKind, ServerRequestRelay, ServerSpecification, UpstreamRequest } from "../types.js";

/** A call in progress on one server, as far as server-to-client requests are concerned. */
export interface InFlightCall {
  server: string;
  tool?: string;
  relay?: ServerRequestRelay;
  signal?: AbortSignal;
  /** The upstream task this request follows (`tasks/result`): a pushed request that names it belongs here. */
  taskId?: string;
}

/** The `_meta` key a 2025-11-25 server tags a request with when it serves one of its tasks. */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

const KIND_OF: Record<string, ServerRequestKind> = { "sampling/createMessage": "sampling", "elicitation/create": "elicitation", "roots/list": "roots" };

/**
 * The request kind of a server-to-client JSON-RPC method (undefined for anything else).
 * @example
 * kindOfMethod("elicitation/create") // "elicitation"
 */
export function kindOfMethod(method: string): ServerRequestKind | undefined {
  return KIND_OF[method];
}

/**
 * Routes server-to-client requests for every server of one registry.
 * @example
 * const router = new ServerRequestRouter(registryOptions, logger);
 * const client = new Client(info, { capabilities: router.capabilities(spec) }); router.install(client, spec);
 */
export class ServerRequestRouter implements ClientSetup {
  private readonly inflight = new Map<string, Set<InFlightCall>>();

  constructor(
    private readonly registry: ServerRequestHandlers & { accept?: readonly ServerRequestKind[] },
    private readonly logger: Logger,
  ) {}

  /** The request kinds a server's client declares: those with a handler somewhere, or named in `accept`. */
  kinds(spec: ServerSpecification): ServerRequestKind[] {
    const all: ServerRequestKind[] = ["sampling", "elicitation", "roots"];
    return all.filter((k) => spec[k] !== undefined || this.registry[k] !== undefined || spec.accept?.includes(k) || this.registry.accept?.includes(k));
  }

  /** Client capabilities matching `kinds(spec)`. */
  capabilities(spec: ServerSpecification): ClientCapabilities {
    const kinds = this.kinds(spec);
    return {
      ...(kinds.includes("sampling") ? { sampling: {} } : {}),
      ...(kinds.includes("elicitation") ? { elicitation: { form: {} } } : {}),
      ...(kinds.includes("roots") ? { roots: {} } : {}),
    };
  }

  /** Answers pushed (2025-era) requests on this client. */
  install(client: Client, spec: ServerSpecification): void {
    const kinds = this.kinds(spec);
    const answer = (method: UpstreamRequest["method"]) => (request: { params?: unknown }) => {
      const params = (request.params ?? {}) as Record<string, unknown>;
      return this.answer(spec, method, params, this.pick(spec.name, params)) as never;
    };
    if (kinds.includes("sampling")) client.setRequestHandler("sampling/createMessage", answer("sampling/createMessage"));
    if (kinds.includes("elicitation")) client.setRequestHandler("elicitation/create", answer("elicitation/create"));
    if (kinds.includes("roots")) client.setRequestHandler("roots/list", answer("roots/list"));
  }

  /** Answers a request pushed on a forwarded request's stream, as `install`'s handlers answer one on the client. */
  answerPushed(spec: ServerSpecification, method: string, params: Record<string, unknown>): Promise<unknown> {
    if (!KIND_OF[method] || !this.kinds(spec).includes(KIND_OF[method]!)) {
      return Promise.reject(new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${method}`));
    }
    return this.answer(spec, method as UpstreamRequest["method"], params, this.pick(spec.name, params));
  }

  /** Registers a call in progress; returns its unregistration. */
  begin(call: InFlightCall): () => void {
    const set = this.inflight.get(call.server) ?? new Set<InFlightCall>();
    set.add(call);
    this.inflight.set(call.server, set);
    return () => void set.delete(call);
  }

  /**
   * The call a pushed request belongs to. A request that names the task it serves (2025-11-25 tasks, whose questions
   * come during `tasks/result`) goes to the request following that task, or to none. Otherwise a 2025-era request does not say
   * which call it serves, so it is tied to a call only when that is unambiguous: the one call in progress, or the one
   * call with a relay.
   */
  private pick(server: string, params: Record<string, unknown>): InFlightCall | undefined {
    const calls = [...(this.inflight.get(server) ?? [])];
    const related = (params._meta as Record<string, { taskId?: unknown } | undefined> | undefined)?.[RELATED_TASK_META]?.taskId;
    // A question for a task nobody follows now is nobody's call's (never another caller's by elimination).
    if (typeof related === "string") return calls.find((c) => c.taskId === related);
    if (calls.length === 1) return calls[0];
    const relaying = calls.filter((c) => c.relay);
    return relaying.length === 1 ? relaying[0] : undefined;
  }

  /**
   * Answers one request: the call's relay, else the spec's handler, else the registry's; throws a ProtocolError
   * (which the SDK sends upstream as the JSON-RPC error) when nobody can answer or the handler fails.
   */
  async answer(spec: ServerSpecification, method: UpstreamRequest["method"], params: Record<string, unknown>, call?: InFlightCall): Promise<unknown> {
    const kind = KIND_OF[method]!;
    const context: ServerRequestContext = { server: spec.name, ...(call?.tool ? { tool: call.tool } : {}), ...(call?.signal ? { signal: call.signal } : {}) };
    try {
      if (call?.relay) {
        const relayed = await call.relay({ method, params, server: spec.name, ...(call.tool ? { tool: call.tool } : {}) });
        if (relayed !== undefined) return relayed;
      }
      const handlers: ServerRequestHandlers = spec[kind] !== undefined ? spec : this.registry;
      switch (kind) {
        case "sampling": {
          if (!handlers.sampling) break;
          const reply = await handlers.sampling(params as never, context);
          return typeof reply === "string" ? { role: "assistant", content: { type: "text", text: reply }, model: "mcp-host" } : reply;
        }
        case "elicitation":
          if (!handlers.elicitation) break;
          return await handlers.elicitation(params as never, context);
        case "roots":
          if (!handlers.roots) break;
          return { roots: await handlers.roots(context) };
      }
    } catch (error) {
      this.logger.child(spec.name).warn(`the ${kind} handler failed`, { error: messageOf(error) });
      throw new ProtocolError(ProtocolErrorCode.InternalError, `${kind} handler failed: ${messageOf(error)}`);
    }
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `this client has no ${kind} handler for server "${spec.name}"; the request is refused`);
  }
}
