/**
 * The registry's public shapes: how servers are described, what the registry lists, and the hooks an agent (or the
 * gateway) plugs in. Plain typed objects; the only behaviour lives in McpRegistry and the ServerSpec helpers.
 * Every type here is public: `mcp-host/registry` exports this file whole (`export type *`), so an internal shape
 * belongs in the module that uses it.
 */
import type { Skill } from "@modelcontextprotocol/client/ext/skills";
import type {
  AuthProvider,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  FetchLike,
  InputRequiredResult,
  Progress,
  Prompt,
  Resource,
  ResourceTemplateType,
  Root,
  Tool,
  Transport,
} from "@modelcontextprotocol/client";
import type { Clock } from "../clock.js";
import type { McpHostErrorCode } from "../errors.js";
import type { Logger } from "../logger.js";
import type { SecretRedactor } from "../secret-redactor.js";

/** The kinds of request an upstream server can send to its client. */
export type ServerRequestKind = "sampling" | "elicitation" | "roots";

/** Who is asking, when an upstream sends a server-to-client request. */
export interface ServerRequestContext {
  /** The upstream server's name. */
  server: string;
  /** The upstream name of the tool whose call is in progress, when the registry can tell. */
  tool?: string;
  /** Aborted when the call in progress ends. */
  signal?: AbortSignal;
}

/** Answers an upstream's sampling request; a plain string becomes an assistant text message. */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  context: ServerRequestContext,
) => string | CreateMessageResult | Promise<string | CreateMessageResult>;
/** Answers an upstream's elicitation request. */
export type ElicitationHandler = (params: ElicitRequestParams, context: ServerRequestContext) => ElicitResult | Promise<ElicitResult>;
/** Answers an upstream's roots request. */
export type RootsHandler = (context: ServerRequestContext) => Root[] | Promise<Root[]>;

/** Handlers for server-to-client requests, on a ServerSpec or on the registry (sync or async). */
export interface ServerRequestHandlers {
  sampling?: SamplingHandler;
  elicitation?: ElicitationHandler;
  roots?: RootsHandler;
}

/** A server-to-client request as the per-call relay sees it: the raw JSON-RPC method and params. */
export interface UpstreamRequest {
  method: "sampling/createMessage" | "elicitation/create" | "roots/list";
  params: Record<string, unknown>;
  server: string;
  tool?: string;
}

/**
 * Per-call relay for server-to-client requests (what the gateway uses to reach the downstream client of the call in
 * progress). Return the raw result to send upstream, or `undefined` to let the spec or registry handler answer.
 */
export type ServerRequestRelay = (request: UpstreamRequest) => unknown | Promise<unknown>;

/** Which calls need approval: none, destructive ones, or all. */
export type ApprovalPolicy = "never" | "destructive" | "always";

/** What an approval handler is asked about. */
export interface ApprovalRequest {
  server: string;
  /** The name the caller used to reach the tool (as listed). */
  tool: string;
  upstreamName: string;
  arguments: Record<string, unknown>;
  destructive: boolean;
  policy: ApprovalPolicy;
}

/** Decides whether a call may run. Sync or async; a throw counts as a refusal. */
export type ApprovalHandler = (request: ApprovalRequest) => boolean | Promise<boolean>;

/** Protocol era to speak with a server: probe, the 2025 handshake, or 2026-07-28 only. */
export type EraPreference = "auto" | "legacy" | "modern";

/** Settings every kind of server spec accepts. */
export interface ServerOptions extends ServerRequestHandlers {
  /** Idle timeout per request, reset by progress (default: the registry's callTimeoutMs, 60 000). */
  timeoutMs?: number;
  /** Cap on a call's whole duration, progress or not (default: the registry's maxTotalTimeoutMs). */
  maxTotalTimeoutMs?: number;
  /** Which calls need approval (default "never"). */
  approval?: ApprovalPolicy;
  /** Decides approvals for this server (preferred over the registry's). */
  approve?: ApprovalHandler;
  /** How to treat a tool with no destructiveHint and no readOnlyHint: "safe" (default) or "destructive". */
  unannotated?: "safe" | "destructive";
  /** Globs over the server's own tool names: matching tools are hidden and calls to them refused. */
  deniedTools?: readonly string[];
  /** What an outputSchema violation does: "error" (default) turns the result into an error, "lenient" warns. */
  structuredContent?: "error" | "lenient";
  /** Protocol era (default: "auto" over HTTP, "legacy" over stdio and custom transports). */
  era?: EraPreference;
  /** Bound on the era probe over HTTP (default 5000 ms). */
  probeTimeoutMs?: number;
  /** Server-to-client request kinds to declare even without a handler here or on the registry (for relays). */
  accept?: readonly ServerRequestKind[];
}

/** Settings of a stdio server beyond the common ones. */
export interface StdioServerOptions extends ServerOptions {
  /** Variables added to the minimal environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** Between SIGTERM and SIGKILL of the process group on close (default 3000 ms). */
  killGraceMs?: number;
}

/** Settings of a Streamable HTTP server beyond the common ones. */
export interface HttpServerOptions extends ServerOptions {
  /** Sent on every request (credentials belong here; they never appear in messages). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Supplies the bearer token of every request, and renews it when the server answers 401 (the SDK's AuthProvider,
   * e.g. an OAuth client-credentials provider). The token is never logged.
   */
  authProvider?: AuthProvider;
  /** The fetch the transport uses (e.g. one that adds headers computed per request). */
  fetch?: FetchLike;
}

/** A stdio server: a command the registry starts itself. */
export interface StdioServerSpec extends StdioServerOptions {
  name: string;
  transport: "stdio";
  command: string;
  args: readonly string[];
}

/** A Streamable HTTP server. */
export interface HttpServerSpec extends HttpServerOptions {
  name: string;
  transport: "http";
  url: string;
}

/** A server reached through a transport the caller builds (an in-process server, a custom channel). */
export interface CustomServerSpec extends ServerOptions {
  name: string;
  transport: "custom";
  /** Called for every (re)connection. */
  connect: () => Transport | Promise<Transport>;
}

/** One upstream server, made with the ServerSpec helpers. */
export type ServerSpecification = StdioServerSpec | HttpServerSpec | CustomServerSpec;

/** Options of the registry as a whole; per-server settings win over these. */
export interface RegistryOptions extends ServerRequestHandlers {
  /** Idle timeout per upstream request, reset by progress (default 60 000 ms). */
  callTimeoutMs?: number;
  /** Cap on a call's whole duration (default ten times the idle timeout). */
  maxTotalTimeoutMs?: number;
  /** One deadline for connecting and listing every server in parallel (default 10 000 ms). */
  startupTimeoutMs?: number;
  /** Where the registry logs (default: warnings and errors to stderr). */
  logger?: Logger;
  /** Decides approvals for servers that have no handler of their own. */
  approve?: ApprovalHandler;
  /** Globs over `server__tool` and bare tool names, hidden and refused on every server. */
  deniedTools?: readonly string[];
  /** Default for servers that do not set it ("error"). */
  structuredContent?: "error" | "lenient";
  /** Server-to-client request kinds to declare on every server, handler or not (for per-call relays). */
  accept?: readonly ServerRequestKind[];
  /** How the registry introduces itself to servers. */
  clientInfo?: { name: string; version: string };
  /**
   * What the registry's own budgets run on: the start-up deadline, the total-call cap, the kill grace, the list-change
   * stream's re-open delay (default: the system clock). The SDK's per-request idle timeout always runs on real time.
   */
  clock?: Clock;
  /**
   * The largest result a caller may get, in bytes of JSON (default 8 MiB, the host's `tools.maxResultBytes`). Every
   * answer a server sends — a JSON body, an SSE event, a stdio line — is counted as it arrives and given up past this
   * and a quarter more (at least 64 KiB, for the envelope): the request fails with `MCP_ANSWER_TOO_LARGE`.
   */
  maxResultBytes?: number;
  /**
   * The deepest an answer's JSON may nest, its JSON-RPC envelope counted (default 64, the host's `http.maxJsonDepth`):
   * a deeper one is refused unparsed, and the request fails with `MCP_ANSWER_TOO_DEEP`.
   */
  maxJsonDepth?: number;
  /**
   * Secrets to keep out of everything the registry reports besides each server's own (URL, headers, env): a
   * deployment's resolved secret references and the credentials it obtains while running (the gateway passes its one).
   */
  redactor?: SecretRedactor;
}

/** A tool as the registry offers it. */
export interface RegistryTool {
  /** The name to call it by: bare when unique, `server__tool` on a clash, cleaned to ^[a-zA-Z0-9_-]{1,64}$. */
  name: string;
  server: string;
  /** The tool's name on its server. */
  upstreamName: string;
  destructive: boolean;
  /** The upstream definition, verbatim. */
  definition: Tool;
}

/** A resource as the registry offers it. */
export interface RegistryResource {
  /** The URI to read it by: bare when unique, `server:uri` when two servers list it. */
  uri: string;
  server: string;
  upstreamUri: string;
  definition: Resource;
}

/** A resource template, reached with `readResource(uri, { server })`. */
export interface RegistryResourceTemplate {
  server: string;
  definition: ResourceTemplateType;
}

/** A prompt as the registry offers it (named like tools). */
export interface RegistryPrompt {
  name: string;
  server: string;
  upstreamName: string;
  definition: Prompt;
}

/** A server the registry could not connect to or list. Its message never carries a URL or a secret. */
export interface UnavailableServer {
  server: string;
  phase: "connect" | "list";
  code: McpHostErrorCode;
  message: string;
}

/** Where one server stands. */
export interface ServerStatus {
  server: string;
  transport: "stdio" | "http" | "custom";
  state: "idle" | "connecting" | "connected" | "broken" | "unavailable" | "closed";
  era?: "legacy" | "modern";
  /** The stdio child's pid (its process group id too). */
  pid?: number;
  stale: boolean;
}

/** A change to what the registry offers, found when a server is re-listed. */
export interface WatchEvent {
  kind: "added" | "removed" | "updated";
  server: string;
  /** Set for a tool change: the listed name. */
  tool?: string;
  /** Set for a prompt change: the listed name. */
  prompt?: string;
  /** Set for a resource change: the listed URI. */
  resource?: string;
}

/**
 * Multi-round-trip input handled by the caller instead of the registry (protocol 2026-07-28): the gateway's stateless
 * pass-through of an upstream's `input_required` to its own client.
 */
export interface InputRoundOptions {
  /**
   * What an `input_required` answer of a 2026-07-28 server does: `"answer"` (default) answers its requests through
   * the relay and the handlers and asks again; `"return"` hands the result back to the caller as it is, to be answered
   * elsewhere and asked again with `inputResponses` and `requestState`.
   */
  inputRequired?: InputMode;
  /** The answers to an earlier `input_required` result's requests, sent with this request. */
  inputResponses?: Record<string, unknown>;
  /** The server's `requestState` from that earlier result, sent back byte for byte. */
  requestState?: string;
}

/** Who answers a 2026-07-28 server's `input_required`: the registry (`"answer"`), or the caller (`"return"`). */
export type InputMode = "answer" | "return";

/** What a request resolves to: in `"return"` mode it may also be an `input_required` result. */
export type MaybeInputRequired<M extends InputMode, R> = "return" extends M ? R | InputRequiredResult : R;

/** Per-call options of callTool. */
export interface CallToolOptions extends InputRoundOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
  /** Sent as the request's `_meta` (a progress token here is replaced by the registry's own). */
  meta?: Record<string, unknown>;
  /** Overrides the server's idle timeout for this call. */
  timeoutMs?: number;
  /** Relays server-to-client requests made during this call (preferred over spec and registry handlers). */
  onServerRequest?: ServerRequestRelay;
  /** Decides approval for this call (preferred over spec and registry handlers). */
  approve?: ApprovalHandler;
  /**
   * Forward the call on the connection's raw channel when it needs nothing but forwarding — a first round, of a tool
   * with no `outputSchema`, on a stdio or plain HTTP connection — instead of an SDK client round: the same limits,
   * retry rule, errors and result, at a fraction of the cost (docs/registry.md, "Forwarded calls"). Anything else runs
   * the client round as always.
   */
  forward?: boolean;
  /**
   * Extensions to declare to a 2026-07-28 server on this call only (its `_meta` envelope), e.g. the tasks extension
   * when the gateway's own caller declared it. Only a forwarded call declares them; a client round never does.
   */
  extensions?: Readonly<Record<string, object>>;
  /**
   * Asks a 2025-11-25 server to run the call as one of its experimental tasks (`params.task`): it answers with
   * `{ task: { taskId, status, … } }`, followed with `taskRequest`. Only a forwarded call sends it; a client round never
   * does (the SDK client refuses a task answer).
   */
  task?: { ttl?: number };
}

/** Per-call options of readResource and getPrompt. */
export interface RegistryRequestOptions extends InputRoundOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onServerRequest?: ServerRequestRelay;
  /** Sent as the request's `_meta`. */
  meta?: Record<string, unknown>;
  /** As for callTool: a first round is forwarded on the connection's raw channel when it can be. */
  forward?: boolean;
}

/** A server's skills (SEP-2640), as `McpRegistry.listSkills` gives them; `invalid` the entries its client refused. */
export interface UpstreamSkills {
  skills: Skill[];
  invalid: { uri?: string; reason: string }[];
}

/** One file of a skill, as `McpRegistry.readSkill` gives it: its bytes (and text, when the server sent text), checked. */
export interface UpstreamSkillFile {
  bytes: Uint8Array;
  text?: string;
  mimeType?: string;
}
