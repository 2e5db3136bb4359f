/**
 * Builds the context a tool, resource or prompt handler receives from the SDK's per-request context and the
 * facts the host knows about the request (era, caller, selection). Sending to the client never throws into a
 * handler: a closed stream must not turn a finished result into an error. The caller's raw bearer token never
 * reaches a handler (docs/design.md §9): passing it on to another service is the token-passthrough anti-pattern.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type AuthInfo,
  type ClientCapabilities,
  type LoggingLevel,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { RequestContext, SelectionView, TaskControl, ToolContext } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import type { SessionSubscriptions } from "./subscriptions.js";
import { defined } from "../../defined.js";

/** What the host knows about the request (or legacy session) a server instance serves. */
export interface ServeRequestInfo {
  era: "legacy" | "modern";
  /** How the client reaches the server (default `http`); stdio has no URL to select toolsets with. */
  transport?: "http" | "stdio";
  authInfo?: AuthInfo;
  sessionId?: string;
  selection: SelectionView;
  /**
   * Legacy sessions: where `resources/subscribe` records the URIs this session follows (bounded). The host's own.
   * @internal
   */
  subscriptions?: SessionSubscriptions;
}

/**
 * What a long-lived modern server knows of each request it serves, read from the request's own SDK context: one
 * instance serves many requests, each with its own caller and facts (the HTTP fast path's pooled servers).
 */
export type RequestInfoOf = (sdk: ServerContext) => ServeRequestInfo;

/**
 * The caller as a handler sees it: the verified facts (client, scopes, expiry, resource, subject and claims in
 * `extra`) with `token` emptied, whatever the transport put there.
 * @example
 * withoutToken({ token: "eyJ…", clientId: "app", scopes: ["mcp"] }) // { token: "", clientId: "app", scopes: ["mcp"] }
 */
export function withoutToken(auth: AuthInfo): AuthInfo {
  return auth.token === "" ? auth : { ...auth, token: "" };
}

/**
 * What the request's client declared it can do: per request in the 2026-07-28 envelope, for the session in 2025.
 * @example
 * clientCapabilitiesOf(sdk, server, info)?.elicitation
 */
export function clientCapabilitiesOf(sdk: ServerContext, server: Server, info: ServeRequestInfo): ClientCapabilities | undefined {
  if (info.era === "modern") {
    const envelope = sdk.mcpReq.envelope as Record<string, unknown> | undefined;
    return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  }
  return server.getClientCapabilities();
}

/**
 * @example
 * const ctx = requestContext({ sdk, server, info, extension: "time", toolset: "time", signal, logger });
 */
export function requestContext(parts: {
  sdk: ServerContext;
  server: Server;
  info: ServeRequestInfo;
  extension: string;
  toolset: string;
  signal: AbortSignal;
  logger: Logger;
  /** The state the retry carried, already opened (verified against this caller, method and target). */
  requestState?: unknown;
  /** A task's later round: the client's answers (in place of the request's own). */
  inputResponses?: Record<string, unknown>;
}): RequestContext {
  const { sdk, server, info } = parts;
  // The request's own (a legacy session's later requests carry their own, fresher token) before the session's.
  const seen = sdk.http?.authInfo ?? info.authInfo;
  const capabilities = clientCapabilitiesOf(sdk, server, info);
  // Built field by field (each optional one only when present), in the order handlers have always seen: one object,
  // no temporaries to spread, on every call.
  const context: { -readonly [K in keyof RequestContext]: RequestContext[K] } = {
    extension: parts.extension,
    toolset: parts.toolset,
    signal: parts.signal,
  } as RequestContext;
  if (seen !== undefined) context.auth = withoutToken(seen);
  context.selection = info.selection;
  context.era = info.era;
  context.transport = info.transport ?? "http";
  if (info.sessionId !== undefined) context.sessionId = info.sessionId;
  if (capabilities !== undefined) context.clientCapabilities = capabilities;
  context.logger = parts.logger;
  context.log = async (level: LoggingLevel, data: unknown) => {
    try {
      await sdk.mcpReq.log(level, data, parts.extension);
    } catch {
      // The client went away or does not take log messages on this request; the handler goes on.
    }
  };
  const responses = parts.inputResponses ?? sdk.mcpReq.inputResponses;
  if (responses !== undefined) context.inputResponses = responses;
  const state = parts.requestState;
  context.requestState = <T>() => state as T | undefined;
  if (sdk.mcpReq._meta !== undefined) context.meta = sdk.mcpReq._meta as Record<string, unknown>;
  context.mcp = sdk;
  return context;
}

/**
 * A request context plus the tool's name and progress reporting, and a task-supporting call's task control. In a call
 * that runs as a task, progress lands in the task's status message (there is no request left to notify).
 */
export function toolContext(base: RequestContext, tool: string, sdk: ServerContext, task?: TaskControl): ToolContext {
  const token = sdk.mcpReq._meta?.progressToken;
  return {
    ...base,
    tool,
    ...(task === undefined ? {} : { task }),
    progress: async (progress: number, total?: number, message?: string) => {
      if (task?.running) {
        task.status(message ?? (total === undefined ? `${progress}` : `${progress}/${total}`));
        return;
      }
      if (token === undefined) return;
      try {
        await sdk.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken: token, progress, ...defined({ total, message }) },
        });
      } catch {
        // As with log(): a stream that closed must not fail the tool.
      }
    },
  };
}
