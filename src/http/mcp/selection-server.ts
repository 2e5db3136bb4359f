/**
 * The server a selection is built with (docs/design.md §7, §8, §9): the serving layer the HTTP app gives the host, so
 * that every build's handler — the one its serverFactory wraps — carries the deployment's checks, each made once,
 * in order: CORS (when configured) and the Origin check, the bearer token (before a byte of the body is read), the
 * caller's rate, the caller's toolset permissions (a selection that names a toolset the token does not reach is
 * refused 403, or served without it; an unnamed one is simply left out — the request then goes to the narrowed
 * build), then the body, the caller's streams and requests in flight, and the selection's MCP endpoint. A build
 * mounted anywhere else (its `server` in another app) is served the same way: no selection can be reached without
 * its checks.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { messageOf } from "../../errors.js";
import type { BuildCore } from "../../host/build/compiled-build.js";
import { compiledOf, type NodeHandler } from "../../host/built-server.js";
import type { McpHost } from "../../host/host.js";
import { withoutToken } from "../../host/protocol/request-context.js";
import { selectionOfIdentity } from "../../host/build/build-view.js";
import { assertNoUnknownToolsets, selectionKey } from "../../host/selection.js";
import type { ServingLayer } from "../../host/serving-port.js";
import type { Logger } from "../../logger.js";
import type { HostAuth } from "../auth/host-auth.js";
import { markLongLived } from "../edge/connection-tracker.js";
import { answeredHostRefusal } from "../edge/final-error-handler.js";
import { originAllowed, originSet, refuseOrigin } from "../edge/dns-rebinding.js";
import { HTTP_DEFAULTS } from "../edge/http-defaults.js";
import { isJsonMediaType, readJsonBody, type BodyLimits } from "../edge/json-body.js";
import { sendJsonRpcError } from "../edge/jsonrpc-response.js";
import { factsOf, header, type RequestFacts } from "../edge/request-facts.js";
import type { HostAppOptions } from "../http-options.js";
import type { CallerLimits } from "./caller-limits.js";
import { mcpCors } from "./cors.js";
import type { SelectionEndpoints } from "./selection-endpoints.js";

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** Runs a connect-style middleware as a step: true when it called `next` without an error. */
function ran(middleware: Middleware, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve, reject) => {
    try {
      middleware(req, res, (error) => (error ? reject(error) : resolve(true)));
      if (res.writableEnded) resolve(false);
    } catch (error) {
      reject(error);
    }
  });
}

function isPreflight(req: IncomingMessage): boolean {
  return req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
}

export interface SelectionServerParts {
  host: McpHost;
  options: HostAppOptions;
  auth: HostAuth | undefined;
  endpoints: SelectionEndpoints;
  limits: CallerLimits;
  logger: Logger;
}

/**
 * The serving layer: the handler of every build.
 * @example
 * const serving = host[OPEN_SERVING](new SelectionServer(parts));
 */
export class SelectionServer implements ServingLayer {
  private readonly cors: Middleware | undefined;
  private readonly origins: ReadonlySet<string>;
  private readonly checkOrigin: boolean;
  private readonly body: BodyLimits;
  private readonly legacySessions: boolean;
  private readonly reportedUnknown = new Set<string>();

  constructor(private readonly parts: SelectionServerParts) {
    const { options } = parts;
    this.cors = options.cors ? mcpCors(options.cors === true ? true : { ...options.cors, preflightContinue: true }) : undefined;
    this.origins = originSet(options.allowedOrigins);
    this.checkOrigin = options.dnsRebindingProtection !== false;
    this.body = { maxBodyBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes, maxJsonDepth: options.maxJsonDepth ?? HTTP_DEFAULTS.maxJsonDepth };
    this.legacySessions = (options.legacy ?? "stateful") === "stateful";
  }

  handlerFor(build: BuildCore): NodeHandler {
    return (req, res) => {
      this.serve(build, req, res).catch((error: unknown) => this.failed(error, req, res));
    };
  }

  private async serve(build: BuildCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const facts = factsOf(req);
    // Reached without the edge (a BuiltServer's server mounted elsewhere): the request asks for exactly this build.
    if (facts.selection === undefined) {
      facts.selection = selectionOfIdentity(build.toolsets);
      facts.named = [...build.toolsets];
    }
    if (this.cors !== undefined && !(await ran(this.cors, req, res))) return;
    if (this.checkOrigin && !originAllowed(req, res, this.origins)) {
      refuseOrigin(res, req.headers.origin ?? "");
      return;
    }
    if (isPreflight(req)) {
      // Allowed by CORS (its headers are set) or by nothing: either way a preflight carries no MCP request.
      res.writeHead(this.cors === undefined ? 405 : 204, { "content-length": "0", ...(this.cors === undefined ? { allow: "POST, GET, DELETE" } : {}) });
      res.end();
      return;
    }
    const { auth, limits } = this.parts;
    if (auth !== undefined) {
      if (facts.caller === undefined && !(await auth.gate(req, res))) return;
    } else if (facts.authInfo === undefined) {
      // A serverFactory's own verifier (the SDK's kind) left its caller on `req.auth`: its facts, without the token.
      const given = (req as { auth?: Parameters<typeof withoutToken>[0] }).auth;
      if (given !== undefined) facts.authInfo = withoutToken(given);
    }
    // In a fleet the rate is Redis's answer: awaited here, still before a byte of the body is read.
    const admitted = limits.admitRate(req, res, facts);
    if (admitted !== true && !(await admitted)) return;
    const target = auth === undefined ? build : await this.permitted(build, facts, auth, req, res);
    if (target === undefined) return;
    facts.built = target;
    if (req.method === "POST" && !(await this.readBody(facts, req, res))) return;
    if ((facts.body as { method?: unknown } | undefined)?.method === "subscriptions/listen") {
      facts.stream = true;
      markLongLived(req);
    }
    if (req.method === "GET") facts.stream = true;
    if (!limits.admitListen(req, res, facts) || !limits.admitConcurrent(req, res, facts)) return;
    this.reportUnknown(target, facts);
    await this.parts.endpoints.serve(target, facts, req, res);
  }

  /**
   * With auth on: the declared toolsets the caller may reach, and the build it is served — this one, or the same
   * selection narrowed to what it may reach (and with the dormant extensions it names woken). Undefined after
   * answering 403 for a named toolset the token does not reach.
   */
  private async permitted(build: BuildCore, facts: RequestFacts, auth: HostAuth, req: IncomingMessage, res: ServerResponse): Promise<BuildCore | undefined> {
    const { host } = this.parts;
    const caller = facts.caller;
    const declared = host.declaredToolsets().map((t) => t.name);
    const permitted = auth.permissions.permitted(declared, caller?.scopes ?? []);
    facts.permitted = permitted;
    // A request on a legacy session is served what the session was opened with, or refused as an unknown session.
    const onSession = this.legacySessions && header(req, "mcp-session-id") !== undefined;
    if (caller !== undefined && auth.permissions.guarded && !onSession) {
      const reachable = new Set(permitted);
      const known = new Set(declared);
      const named = [...new Set(facts.named)].filter((name) => known.has(name)).sort();
      const forbidden = named.filter((name) => !reachable.has(name));
      if (forbidden.length > 0) {
        if (auth.onInsufficientScope === "omit") {
          this.parts.logger.info("the selection names toolsets this caller's token does not reach; served without them", {
            toolsets: forbidden,
            subject: caller.subject,
          });
        } else {
          const granted = new Set(caller.scopes);
          const missing = auth.permissions.scopesFor(forbidden).filter((scope) => !granted.has(scope));
          this.parts.logger.info("the selection names toolsets this caller's token does not reach; refused", { toolsets: forbidden, subject: caller.subject });
          auth.refuseScopes(req, res, missing, auth.permissions.scopesFor(named));
          return undefined;
        }
      }
    }
    const selection = facts.selection!;
    facts.requested = selectionKey(host.activeFor(selection).active);
    const narrowed = await host.build(selection, { permitted });
    facts.unknown = narrowed.unknown;
    const served = compiledOf(narrowed);
    // The build this handler was made for is served only while it is what the caller may reach.
    return served.key === build.key && served.revision === build.revision ? build : served;
  }

  /** Reads the JSON body once (unless a parser in a serverFactory did); false when it answered the refusal. */
  private async readBody(facts: RequestFacts, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (facts.bodyRead) return true;
    const parsed = (req as { body?: unknown }).body;
    if (parsed !== undefined && req.readableEnded) {
      facts.body = parsed;
      facts.bodyRead = true;
      return true;
    }
    if (!isJsonMediaType(req.headers["content-type"])) {
      sendJsonRpcError(res, 415, -32700, 'Unsupported Media Type: an MCP request is a JSON-RPC message sent with "Content-Type: application/json".');
      return false;
    }
    const read = await readJsonBody(req, this.body);
    if (!read.ok) {
      const { refusal } = read;
      if (refusal.gone) {
        this.parts.logger.debug(`the client of ${req.method} ${req.url?.split("?")[0]} went away before its request was read`);
        if (!res.headersSent && !res.destroyed) res.destroy();
        return false;
      }
      this.parts.logger.debug(`refused ${req.method} ${req.url?.split("?")[0]} with ${refusal.status}: ${refusal.message}`);
      sendJsonRpcError(res, refusal.status, refusal.code, refusal.message, refusal.headers);
      return false;
    }
    facts.body = read.value;
    facts.bodyRead = true;
    return true;
  }

  /** Reports (once per selection and set of names) or, with `selection.strict`, refuses names nobody declared. */
  private reportUnknown(build: BuildCore, facts: RequestFacts): void {
    if (facts.unknown.length === 0) return;
    const { host, options, logger } = this.parts;
    if (options.selection?.strict)
      assertNoUnknownToolsets(
        facts.unknown,
        host.declaredToolsets().map((t) => t.name),
      );
    // Once per selection and set of unknown names (a session sends many requests, each with the same URL).
    const seen = `${build.key}\u0000${facts.unknown.join(",")}`;
    const first = !this.reportedUnknown.has(seen);
    if (first) {
      if (this.reportedUnknown.size >= 1_000) this.reportedUnknown.clear();
      this.reportedUnknown.add(seen);
    }
    logger[first ? "warn" : "debug"](`MCP client asked for unknown toolsets: ${facts.unknown.join(", ")}`, { unknown: [...facts.unknown] });
  }

  /** What went wrong serving: the client's mistake (strict selection) or a bug (500, logged with the detail). */
  private failed(error: unknown, req: IncomingMessage, res: ServerResponse): void {
    const { host, logger } = this.parts;
    if (answeredHostRefusal(error, host, res)) return;
    logger.error(
      `internal error serving ${req.method} ${req.url?.split("?")[0]}: ${messageOf(error)}`,
      error instanceof Error && error.stack ? { stack: error.stack } : {},
    );
    sendJsonRpcError(res, 500, -32603, "Internal error");
  }
}
