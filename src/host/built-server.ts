/**
 * BuiltServer: what one set of active toolsets compiles to (docs/design.md §7), as a caller of `host.build()` sees it.
 * Immutable; two builds with the same key share the same compiled tables and the same `server`; only `unknown`
 * belongs to each call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/server";
import type { CompiledBuild } from "./build/compiled-build.js";
import { createSdkServer } from "./protocol/sdk-server.js";
import type { ServeRequestInfo } from "./protocol/request-context.js";

/**
 * A node-style request handler; an express Router or middleware is one. (Declared through a method so that
 * handlers typed for express's richer request and response types fit too.)
 */
export type NodeHandler = {
  handle(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): unknown;
}["handle"];

/** What a deployment's `serverFactory` receives for one selection. */
export interface ServerFactoryParts {
  name: string;
  instructions: string | undefined;
  toolsets: readonly string[];
  key: string;
  /** The host's MCP handler for this selection, serving both protocol eras. */
  handler: NodeHandler;
}

/**
 * Makes what is served for a selection: whatever a deployment wants on every selection (CORS, token checks)
 * goes around `handler` here, so no selection can be served without it.
 * @example
 * serverFactory: ({ handler }) => express.Router().use(cors(), requireBearerAuth({ verifier }), handler)
 */
export type ServerFactory = (parts: ServerFactoryParts) => NodeHandler;

export interface BuiltServer {
  /** The active toolsets joined by commas. */
  readonly key: string;
  readonly revision: number;
  /** The active toolsets, sorted. */
  readonly toolsets: readonly string[];
  /** The tool names a client sees, sorted. */
  readonly toolNames: readonly string[];
  readonly instructions: string | undefined;
  /** What the serverFactory returned for this selection (serves HTTP once the host is served). */
  readonly server: NodeHandler;
  /** Names this request used that nobody declared (recomputed per call, even on a cache hit). */
  readonly unknown: readonly string[];
  /**
   * A fresh low-level SDK `Server` over this build's tables (one per request or legacy session).
   * @example
   * const server = built.createServer({ era: "legacy" }); await server.connect(transport);
   */
  createServer(info?: Partial<ServeRequestInfo>): Server;
}

const COMPILED = Symbol("mcp-host.compiledBuild");

/** A caller's view of a compiled build, with this call's unknown names. */
export function builtServerOf(compiled: CompiledBuild, unknown: readonly string[]): BuiltServer {
  const selection = { active: compiled.toolsets, unknown };
  return Object.freeze({
    key: compiled.key,
    revision: compiled.revision,
    toolsets: compiled.toolsets,
    toolNames: compiled.toolNames,
    instructions: compiled.instructions,
    server: compiled.server,
    unknown,
    createServer: (info: Partial<ServeRequestInfo> = {}) => createSdkServer(compiled.protocol, { era: "legacy", selection, ...info }),
    [COMPILED]: compiled,
  });
}

/** The compiled build behind a BuiltServer (internal: the serving layer and tests use it). */
export function compiledOf(built: BuiltServer): CompiledBuild {
  return (built as BuiltServer & { [COMPILED]: CompiledBuild })[COMPILED];
}
