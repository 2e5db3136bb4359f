/**
 * The server a selection is built with (docs/design.md §7, §8, §9): the serving layer the HTTP app gives the host, so
 * that every build's handler — the one its serverFactory wraps — carries the deployment's checks, each made once,
 * in order: CORS (when configured) and the Origin check, the bearer token (before a byte of the body is read), the
 * caller's rate, the caller's toolset permissions (a selection that names a toolset the token does not reach is
 * refused 403, or served without it; an unnamed one is simply left out — the request then goes to the narrowed
 * build; a legacy session whose toolsets the token no longer reaches is refused 403), then the body, the caller's
 * streams and requests in flight, and the selection's MCP endpoint.
 *
 * The edge enters through `route`: the checks that need no build run first, the selection's plan is narrowed by the
 * caller's permissions (a pure function), and only then is anything built or woken — a caller who is not yet
 * authenticated, or is over its rate, makes the host build nothing. A build mounted anywhere else (its `server` in
 * another app) is served by the same checks from its handler: no selection can be reached without them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BuildCore, CompiledBuild } from "../../host/build/compiled-build.js";
import type { NodeHandler } from "../../host/built-server.js";
import type { McpHost } from "../../host/host.js";
import { withoutToken } from "../../host/protocol/request-context.js";
import { buildIdOf, sameBuild, selectionOfBuild, toolsetsBehind } from "../../host/build/build-id.js";
import { narrowPlan, planOfBuild, type SelectionPlan } from "../../host/build/selection-plan.js";
import { assertNoUnknownToolsets, unknownNamesText } from "../../host/selection.js";
import type { HostServing, ServingLayer } from "../../host/serving-port.js";
import type { Logger } from "../../logger.js";
import type { HostAuth } from "../auth/host-auth.js";
import { markLongLived } from "../edge/connection-tracker.js";
import { answeredHostRefusal, finalErrorHandler } from "../edge/final-error-handler.js";
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

/** A caller's plans as it may have them. */
type Narrowing = (plan: SelectionPlan) => SelectionPlan;

const asPlanned: Narrowing = (plan) => plan;

/** What a preflight is served by with auth on: the build of nothing, in which no extension takes part. */
const NOTHING = planOfBuild(buildIdOf([]));

export interface SelectionServerParts {
  host: McpHost;
  options: HostAppOptions;
  auth: HostAuth | undefined;
  endpoints: SelectionEndpoints;
  /** The host's side of the serving port (given once the layer is attached). */
  serving: HostServing;
  limits: CallerLimits;
  logger: Logger;
  /**
   * Makes a request an express one before a deployment's serverFactory sees it (its middleware may be an express
   * Router). Absent with the default factory: nothing is paid for it.
   */
  expressify?(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * The serving layer: the handler of every build, and the edge's way to the right build.
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
  /** A client's mistake (a serverFactory's body parser, a client gone) or a bug (500, logged with the detail). */
  private readonly finalError: ReturnType<typeof finalErrorHandler>;

  constructor(private readonly parts: SelectionServerParts) {
    const { options } = parts;
    this.finalError = finalErrorHandler(parts.host, parts.logger);
    this.cors = options.cors ? mcpCors(options.cors === true ? true : { ...options.cors, preflightContinue: true }) : undefined;
    this.origins = originSet(options.allowedOrigins);
    this.checkOrigin = options.dnsRebindingProtection !== false;
    this.body = { maxBodyBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes, maxJsonDepth: options.maxJsonDepth ?? HTTP_DEFAULTS.maxJsonDepth };
    this.legacySessions = (options.legacy ?? "stateful") === "stateful";
  }

  /**
   * The edge's request for the MCP path, its selection already read into its facts. With auth on, nothing is built
   * before the caller is known: the deployment's CORS, the token and the caller's rate are checked first (a preflight,
   * which carries no token, goes to the build of nothing, in which no extension takes part). Then the plan is
   * narrowed by the caller's permissions and the build made or found — and the request goes to what its serverFactory
   * made, whose handler runs the rest.
   * @example
   * selections.route(req, res).catch(failed);
   */
  async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const facts = factsOf(req);
    try {
      facts.plan ??= this.parts.serving.plan(facts.selection!);
      let narrow: Narrowing | undefined = asPlanned;
      if (this.parts.auth !== undefined && isPreflight(req)) {
        if (!(await this.applyCors(facts, req, res))) return;
        facts.plan = NOTHING;
      } else if (this.parts.auth !== undefined) {
        if (!(await this.applyCors(facts, req, res))) return;
        if (!(await this.parts.auth.gate(req, res)) || !(await this.rated(facts, req, res))) return;
        narrow = this.narrowing(facts, req, res);
      } else narrow = this.narrowing(facts, req, res);
      if (narrow === undefined) return;
      const build = await this.buildOf(facts, narrow);
      facts.routed = true;
      this.parts.expressify?.(req, res);
      await this.handOver(build.server, req, res);
    } catch (error) {
      this.failed(error, req, res);
    }
  }

  handlerFor(build: BuildCore): NodeHandler {
    return (req, res) => {
      this.serve(build, req, res).catch((error: unknown) => this.failed(error, req, res));
    };
  }

  /** What a serverFactory made may throw, reject, or pass an error on: each is a bug of the deployment's. */
  private handOver(server: NodeHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const served = server(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(error))) as PromiseLike<unknown> | undefined;
      if (served !== null && typeof served?.then === "function") served.then(() => resolve(), reject);
      else resolve();
    });
  }

  private async serve(build: BuildCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const facts = factsOf(req);
    if (!facts.routed || facts.built === undefined || !sameBuild(facts.built.id, build.id)) {
      // Reached without the edge (a BuiltServer's server mounted elsewhere), or handed another build than the edge
      // chose: the request asks for exactly this build, and is checked for it.
      facts.selection = selectionOfBuild(build.id);
      facts.named = [...build.toolsets];
      facts.plan = planOfBuild(build.id);
      facts.routed = false;
    }
    const cors = this.applyCors(facts, req, res);
    if (cors !== true && !(await cors)) return;
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
    const rated = this.rated(facts, req, res);
    if (rated !== true && !(await rated)) return;
    let target = build;
    if (!facts.routed) {
      const narrow = this.narrowing(facts, req, res);
      if (narrow === undefined) return;
      const plan = narrow(facts.plan!);
      facts.unknown = plan.unknown;
      target = sameBuild(plan.id, build.id) ? build : await this.buildOf(facts, narrow);
    }
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
   * The deployment's CORS (http.cors), once per request; false when it answered. `true` itself when there is nothing
   * to wait for: on the way of every request, a promise (and with AsyncLocalStorage on, its hooks) is not free.
   */
  private applyCors(facts: RequestFacts, req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
    if (this.cors === undefined || facts.corsApplied) return true;
    facts.corsApplied = true;
    return ran(this.cors, req, res);
  }

  /**
   * The caller's rate, once per request (in a fleet Redis's answer, a promise): still before a byte of the body is
   * read. `true` itself when admitted at once, as `applyCors`.
   */
  private rated(facts: RequestFacts, req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
    if (facts.rated) return true;
    facts.rated = true;
    return this.parts.limits.admitRate(req, res, facts);
  }

  /**
   * How this caller's plans are narrowed (with auth on: to the toolsets its token reaches; a pure function). Undefined
   * after answering 403 — for a toolset the selection names that the token does not reach (unless
   * `onInsufficientScope: omit`, which serves without it and reports it as unknown, like a name nobody declared), or
   * for a legacy session whose toolsets the token no longer reaches.
   */
  private narrowing(facts: RequestFacts, req: IncomingMessage, res: ServerResponse): Narrowing | undefined {
    const { host, auth } = this.parts;
    facts.requested = facts.plan!.id.key;
    if (auth === undefined) return asPlanned;
    const caller = facts.caller;
    const declared = host.declaredToolsets().map((t) => t.name);
    const permitted = auth.permissions.permitted(declared, caller?.scopes ?? []);
    facts.permitted = permitted;
    const reachable = new Set(permitted);
    let hidden: string[] = [];
    if (caller !== undefined && auth.permissions.guarded) {
      const sessionId = this.legacySessions ? header(req, "mcp-session-id") : undefined;
      if (sessionId !== undefined) {
        // A session answers to each request's token: the toolsets it was opened with must still be reachable.
        const session = this.parts.endpoints.sessions.get(sessionId);
        const lacking = session !== undefined && session.subject === facts.subject ? toolsetsBehind(session.served).filter((name) => !reachable.has(name)) : [];
        if (lacking.length > 0) {
          this.refuse(facts, req, res, lacking, "this legacy session's toolsets are no longer all reached by the caller's token; refused");
          return undefined;
        }
      } else {
        const known = new Set(declared);
        const forbidden = [...new Set(facts.named)].filter((name) => known.has(name) && !reachable.has(name)).sort();
        if (forbidden.length > 0 && auth.onInsufficientScope === "omit") {
          this.parts.logger.info("the selection names toolsets this caller's token does not reach; served without them", {
            toolsets: forbidden,
            subject: caller.subject,
          });
          hidden = forbidden;
        } else if (forbidden.length > 0) {
          this.refuse(facts, req, res, forbidden, "the selection names toolsets this caller's token does not reach; refused");
          return undefined;
        }
      }
    }
    return (plan) => narrowPlan(plan, reachable, hidden);
  }

  /** Answers 403 `insufficient_scope` naming the scopes `toolsets` need that the caller's token lacks. */
  private refuse(facts: RequestFacts, req: IncomingMessage, res: ServerResponse, toolsets: readonly string[], why: string): void {
    const auth = this.parts.auth!;
    const granted = new Set(facts.caller?.scopes ?? []);
    const needed = auth.permissions.scopesFor(toolsets);
    this.parts.logger.info(why, { toolsets: [...toolsets], subject: facts.caller?.subject ?? "" });
    auth.refuseScopes(
      req,
      res,
      needed.filter((scope) => !granted.has(scope)),
      needed,
    );
  }

  /**
   * The build the caller's plan asks for: its dormant extensions woken first (and the selection planned again when that
   * changed the offer), then compiled or cached.
   */
  private async buildOf(facts: RequestFacts, narrow: Narrowing): Promise<CompiledBuild> {
    const { serving } = this.parts;
    let plan = narrow(facts.plan!);
    // Nothing dormant to wake (the usual case): no promise to wait on.
    if (plan.wake.length > 0 && (await serving.wake(plan))) {
      facts.plan = serving.plan(facts.selection!);
      plan = narrow(facts.plan);
    }
    facts.unknown = plan.unknown;
    const build = await serving.compiled(plan.id);
    facts.built = build;
    return build;
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
    // With auth on, the names said (the declared list, "did you mean") are only those the caller may reach.
    const known = facts.permitted ?? host.declaredToolsets().map((t) => t.name);
    if (options.selection?.strict) assertNoUnknownToolsets(facts.unknown, known);
    // Once per selection and set of unknown names (a session sends many requests, each with the same URL).
    const seen = `${build.key}\u0000${facts.unknown.join(",")}`;
    const first = !this.reportedUnknown.has(seen);
    if (first) {
      if (this.reportedUnknown.size >= 1_000) this.reportedUnknown.clear();
      this.reportedUnknown.add(seen);
    }
    logger[first ? "warn" : "debug"](`MCP client asked for ${unknownNamesText(facts.unknown, known)}`, { unknown: [...facts.unknown] });
  }

  /** What went wrong serving: the client's mistake (strict selection) or a bug (500, logged with the detail). */
  private failed(error: unknown, req: IncomingMessage, res: ServerResponse): void {
    if (answeredHostRefusal(error, this.parts.host, res, factsOf(req).permitted)) return;
    this.finalError(error, req, res);
  }
}
