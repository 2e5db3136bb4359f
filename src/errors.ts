import { defined } from "./defined.js";
/**
 * McpHostError and the catalog of its codes.
 * Codes are public API: callers match on `code` (never on `instanceof`, which breaks when two copies of the
 * package are installed). Every code is documented in docs/errors.md; a test keeps the two in step.
 */

/** Every error code mcp-host raises, with a one-line meaning (the long form lives in docs/errors.md). */
export const ERROR_CODES = {
  CONFIG_INVALID: "The configuration does not match the schema.",
  CONFIG_SECRET_UNRESOLVED: "A ${env:…} or ${file:…} secret reference could not be resolved.",
  CONFIG_RELOAD_REFUSED: "A reload changed a config section only a restart applies, so none of it was applied.",
  CONFIG_SECRET_TOO_SHORT: "A secret reference resolved to a value too short to be redacted (fewer than 4 characters).",
  CONFIG_STATE_KEY_TOO_SHORT: "scaleOut.stateKey holds fewer than 32 bytes: too weak to sign requestState for a fleet.",
  MCP_CREDENTIALS_INLINE: "A credential was written literally where a secret reference is required.",
  MCP_URL_INVALID:
    "A configured URL (an upstream server, a token, key or introspection endpoint) is not acceptable (scheme, userinfo, query, fragment, or malformed).",
  MCP_TRANSPORT_INVALID: "An upstream server's transport settings are inconsistent.",
  MCP_AUTH_CONFLICT: "An upstream server sets both `headers` and `auth`.",
  MCP_AUTH_STRATEGY_UNKNOWN: "An upstream server names an auth kind nobody registered.",
  MCP_AUTH_STRATEGY_INVALID: "An auth strategy rejected its settings or returned something unusable.",
  MCP_OAUTH_ENDPOINT_REQUIRED: "An upstream's OAuth client credentials name neither a tokenUrl nor an issuer.",
  MCP_SERVER_UNREACHABLE: "An upstream MCP server could not be connected to or listed in time.",
  MCP_SERVER_UNKNOWN: "An operation named an upstream server the registry does not have.",
  MCP_SERVER_NAME_INVALID: "An upstream server spec has an empty or blank name.",
  MCP_SERVER_NAME_TAKEN: "Two upstream servers given to one registry share a name.",
  MCP_SERVER_CLOSE_FAILED: "An upstream server did not close cleanly when the registry closed.",
  MCP_TOOL_UNKNOWN: "No upstream server offers a tool of that name.",
  MCP_TOOL_AMBIGUOUS: "A bare tool, prompt or resource name is offered by several upstream servers.",
  MCP_RESOURCE_UNKNOWN: "No upstream server lists a resource with that URI.",
  MCP_PROMPT_UNKNOWN: "No upstream server offers a prompt of that name.",
  MCP_CALL_FAILED: "An upstream request failed at the transport or protocol level.",
  MCP_REQUEST_TIMEOUT: "An upstream prompt or resource request ran past its idle timeout or total cap.",
  MCP_ANSWER_TOO_LARGE:
    "An upstream's answer was larger than a result may be (maxResultBytes, and a quarter more); it was given up unread and the request failed.",
  MCP_ANSWER_TOO_DEEP: "An upstream's answer nested deeper than maxJsonDepth; it was refused unparsed and the request failed.",
  MCP_REGISTRY_CLOSED: "The registry was used after close().",
  TOOL_FILTER_MATCHES_NOTHING: "An include/exclude filter leaves an upstream server with no tools.",
  EXTENSION_NAME_TAKEN: "Two extensions have the same name.",
  EXTENSION_LOAD_FAILED: "An extension module could not be imported or its factory threw.",
  EXTENSION_INVALID: "An extension (or a package's mcpExtensions field) does not have the expected shape.",
  EXTENSION_SETUP_FAILED: "An extension's setup() threw.",
  EXTENSION_SETUP_TIMEOUT: "An extension's setup() did not finish within the setup timeout.",
  EXTENSION_DISPOSE_FAILED: "One or more extensions' dispose() threw.",
  EXTENSION_HOOK_FAILED: "An extension's onServer() threw; its changes to that build were discarded.",
  TOOL_SCHEMA_INVALID: "A tool's input or output schema is not object-rooted, does not compile, or has a pattern no linear-time engine can run.",
  SKILL_INVALID: "A skill an extension ships or serves breaks the Agent Skills rules or the SEP-2640 limits, or cannot be read; that skill alone was left out.",
  SKILL_DIGEST_MISMATCH: "A skill file's content did not match the digest and size its entry publishes; it was refused, not served.",
  TOOL_EXTENSION_FAILED: "A tool extension threw or its wrap() returned a non-function; the tool was left out.",
  TOOL_NAME_CLASH: "Two extensions contributed the same tool, prompt or resource to one toolset.",
  TOOL_HANDLER_FAILED: "A tool handler threw; the caller got an isError result.",
  TOOL_TIMEOUT: "A tool handler, or an upstream tool call, ran past its timeout.",
  TOOL_CPU_LIMIT: "An isolated tool call used more than its CPU-time budget; its worker was ended.",
  TOOL_HEAP_LIMIT: "An isolated tool call ran out of its worker's heap; the worker was ended.",
  TOOL_WORKERS_BUSY: "Every worker of an isolated extension was busy and its queue was full; the call was refused.",
  TOOL_CONCURRENCY_LIMIT: "A tool already ran its most calls at once (tools.maxConcurrent) and no turn came in time; the call was refused.",
  TASK_LIMIT:
    "A task was refused: its caller has its most unfinished tasks (tasks.maxPerCaller), or the server keeps its most tasks and all are still running (tasks.maxTasks).",
  TASK_LEASE_EXPIRED:
    "A task's instance stopped renewing its lease before the task finished (it ended, or lost the fleet's Redis): the task was marked failed.",
  TASK_STORE_UNAVAILABLE:
    "In a fleet, the task store (Redis) did not answer in time: a call that would have become a task was answered on its request, or a task method failed with -32603.",
  TOOL_RESULT_TOO_LARGE: "A tool's result was larger than the host sends (tools.maxResultBytes); the caller got an isError result instead.",
  TOOL_ISOLATION_FAILED: "A worker could not find or run an isolated tool (its module, its extension or the tool is missing, or the worker died).",
  EVENT_LOOP_BLOCKED: "The host's event loop was blocked longer than the threshold; the log names the tools that were running.",
  SELECTION_UNKNOWN_TOOLSET: "A selection named toolsets nobody declared, or tools nobody offers (refused in strict mode).",
  ALREADY_STARTED: "start() was called on a host that is already started.",
  HOST_NOT_STARTED: "The host was used before start() or after stop().",
  HOST_INPUT_INVALID: "buildHost() was given something that is not extensions, a loadExtensions() result, or valid options.",
  HOST_ALREADY_SERVED: "A second HTTP app was made for a host that is already being served.",
  HTTP_SESSION_LIMIT: "The legacy session cap was reached.",
  HTTP_RATE_LIMITED: "A caller sent more requests a second, or more at once, than its limit (HTTP 429 with Retry-After).",
  SCALE_OUT_REDIS_DOWN:
    "The fleet's Redis is unreachable or too slow: events stay on this instance, and rate limits and used request states are counted per instance until it is back.",
  HTTP_CONNECTION_LIMIT: "A connection was closed at once: the server, or its client address, held its most connections.",
  HTTP_LISTEN_FAILED: "mcp-host could not listen on its HTTP (or metrics) address: the port is in use, or the address cannot be bound.",
  MCP_TOOL_DENIED: "A call to an upstream tool was refused: deniedTools hides it, or it needed approval that was not given.",
  MCP_OUTPUT_INVALID: "An upstream tool's structuredContent does not match the outputSchema it declares.",
  CLI_USAGE: "The mcp-host command was given arguments it does not understand.",
  AUTH_TOKEN_MISSING: "A protected request carried no bearer token (HTTP 401).",
  AUTH_TOKEN_INVALID: "A bearer token is invalid, expired, not yet valid, or issued for another resource (HTTP 401).",
  AUTH_INSUFFICIENT_SCOPE: "A valid bearer token lacks a scope the request needs (HTTP 403).",
  AUTH_BAD_REQUEST: "A request carried its credentials wrongly: a token in the query, a malformed or oversized Authorization header (HTTP 400).",
  AUTH_UNAVAILABLE: "Tokens cannot be verified right now: the JWKS or introspection endpoint is unreachable, slow or failing (HTTP 503).",
  AUTH_CONFIG_INVALID: "A token verifier or the auth middleware was configured wrongly (missing issuer or audience, alg none, HS256 without a secret, …).",
} as const;

/** A stable, documented error code. */
export type McpHostErrorCode = keyof typeof ERROR_CODES;

/** Where an error came from, when it can be named. */
export interface McpHostErrorDetails {
  extension?: string;
  server?: string;
  cause?: unknown;
}

/**
 * The one error class mcp-host throws.
 * @example
 * try { await host.start(); } catch (e) { if (isMcpHostError(e) && e.code === "ALREADY_STARTED") … }
 */
export class McpHostError extends Error {
  readonly code: McpHostErrorCode;
  readonly extension?: string;
  readonly server?: string;

  constructor(code: McpHostErrorCode, message: string, details: McpHostErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "McpHostError";
    this.code = code;
    if (details.extension !== undefined) this.extension = details.extension;
    if (details.server !== undefined) this.server = details.server;
  }

  /** A plain object for logs and JSON answers; never includes the cause's stack. */
  toJSON(): { code: McpHostErrorCode; message: string; extension?: string; server?: string } {
    return {
      code: this.code,
      message: this.message,
      ...defined({ extension: this.extension, server: this.server }),
    };
  }
}

/**
 * True for any object carrying a known mcp-host code, including one from another installed copy of the package.
 * @example
 * if (isMcpHostError(err, "TOOL_TIMEOUT")) retryLater();
 */
export function isMcpHostError(value: unknown, code?: McpHostErrorCode): value is McpHostError {
  if (typeof value !== "object" || value === null) return false;
  const candidate = (value as { code?: unknown }).code;
  if (typeof candidate !== "string" || !(candidate in ERROR_CODES)) return false;
  return code === undefined || candidate === code;
}

/** The message of anything thrown, for logs and isError results. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * Wraps an error an extension threw, once, with `[extension <name>]`, keeping the original as `cause`.
 * @example
 * throw extensionError("EXTENSION_SETUP_FAILED", "spaces", "setup failed", err);
 */
export function extensionError(code: McpHostErrorCode, extension: string, what: string, cause?: unknown): McpHostError {
  const detail = cause === undefined ? "" : `: ${messageOf(cause)}`;
  return new McpHostError(code, `[extension ${extension}] ${what}${detail}`, { extension, cause });
}

/**
 * The `_meta` key under which the registry's and the gateway's own `isError` results carry their code
 * (`{ code: McpHostErrorCode }`); the observer reads it to tell a timeout or a refusal from a tool's own error.
 */
export const ERROR_META_KEY = "mcp-host/error";
