/**
 * BuiltServer: what one set of active toolsets compiles to (DESIGN.md §7). Immutable once built; two builds
 * with the same key share the same tables and the same `server`; only `unknown` belongs to each call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/server";
import type { ServeRequestInfo } from "./protocol/request-context.js";
import type { ServerCore } from "./protocol/sdk-server.js";

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

/** The compiled form of one build, shared by every call with the same key. */
export interface BuiltCore {
  readonly key: string;
  readonly revision: number;
  readonly toolsets: readonly string[];
  readonly toolNames: readonly string[];
  readonly instructions: string | undefined;
  /** What the serverFactory returned for this selection. */
  readonly server: NodeHandler;
  /** The tables every per-request SDK server reads. */
  readonly core: ServerCore;
}

export interface BuiltServer extends BuiltCore {
  /** Names this request used that nobody declared (recomputed per call, even on a cache hit). */
  readonly unknown: readonly string[];
  /**
   * A fresh low-level SDK `Server` over this build's tables (one per request or legacy session).
   * @example
   * const server = built.createServer({ era: "legacy" }); await server.connect(transport);
   */
  createServer(info?: Partial<ServeRequestInfo>): Server;
}
