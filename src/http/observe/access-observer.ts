/**
 * The HTTP edge's observer (docs/design.md §18), mounted first: gives each request an id (sent back as `X-Request-Id`)
 * that every log line written while serving it carries, makes the `traceparent` header's context the ambient one,
 * and once the answer is sent writes the access line and counts the request (metrics, the operator page's rates).
 * An MCP request the protocol core did not answer itself (`initialize`, `ping`, a listen stream, a refusal at the
 * edge) gets its MCP server span here, after the fact. Nothing here can fail the request it watches.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Observability } from "../../observe/observability.js";
import { type RequestTrack, withLogFields } from "../../observe/log-context.js";
import { ambientOfHeaders } from "../../observe/tracing.js";
import { otel } from "../../observe/otel-api.js";
import { onResponseClose } from "../edge/connection-tracker.js";
import { factsOf } from "../edge/request-facts.js";
import { mcpFactsOf } from "./http-request-facts.js";
import { defined } from "../../defined.js";

/** A node-level step of the edge: `next` continues with the request. */
export type EdgeStep = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const at = url.indexOf("?");
  return at < 0 ? url : url.slice(0, at);
}

/** The paths the edge tells apart (for the `route` label). */
export interface ObservedRoutes {
  mcpPath: string;
  metricsPath?: string;
  uiPath?: string;
}

function routeMatcher(routes: ObservedRoutes): (path: string) => string {
  const trim = (p: string) => p.replace(/\/+$/, "").toLowerCase() || "/";
  const mcp = trim(routes.mcpPath);
  const metrics = routes.metricsPath === undefined ? undefined : trim(routes.metricsPath);
  const ui = routes.uiPath === undefined ? undefined : trim(routes.uiPath);
  return (path) => {
    const p = trim(path);
    if (p === mcp) return "mcp";
    if (p === "/toolsets") return "toolsets";
    if (p === "/healthz") return "healthz";
    if (metrics !== undefined && p === metrics) return "metrics";
    if (p.startsWith("/.well-known/")) return "metadata";
    if (ui !== undefined && (p === ui || p.startsWith(ui === "/" ? "/_ui/" : `${ui}/`))) return "ui";
    return "other";
  };
}

/** Open long-lived streams (listen, legacy GET) among the requests in flight. */
export type StreamCount = () => number;

/**
 * @example
 * const { middleware, openStreams } = accessObserver(observability, { mcpPath: "/mcp" }); app.use(middleware);
 */
export function accessObserver(observability: Observability, routes: ObservedRoutes): { middleware: EdgeStep; openStreams: StreamCount } {
  const routeOf = routeMatcher(routes);
  const inFlight = new Set<IncomingMessage>();
  const tracing = observability.tracing;
  if (observability.countsOnly) return { middleware: countingOnly(observability, routeOf, inFlight), openStreams: streamsOf(routeOf, inFlight) };
  const middleware: EdgeStep = (req, res, next) => {
    const known = factsOf(req);
    const started = known.startedAt;
    const requestId = known.id;
    // The caller's address (behind a trusted proxy, the client's) is on every line written while serving it.
    const client = known.client;
    const track: RequestTrack = { observed: false };
    const path = pathOf(req);
    const route = routeOf(path);
    const ambient = tracing?.live() === true ? ambientOfHeaders(req.headers) : undefined;
    const finish = () => {
      inFlight.delete(req);
      const durationMs = performance.now() - started;
      const facts = route === "mcp" ? mcpFactsOf(req) : undefined;
      const status = res.headersSent || res.writableFinished ? res.statusCode : 499;
      observability.httpRequest({
        method: req.method ?? "GET",
        path,
        route,
        status,
        durationMs,
        requestId,
        client,
        stream: facts?.stream ?? false,
        ...(facts === undefined ? {} : { era: facts.era }),
        ...defined({ rpcMethod: facts?.rpcMethod, selection: facts?.selection, subject: facts?.subject }),
      });
      if (facts !== undefined && tracing !== undefined && ambient !== undefined && !track.observed) {
        tracing.recordFinished(
          {
            method: facts.rpcMethod ?? req.method ?? "GET",
            id: facts.id ?? "",
            era: facts.era,
            transport: "http",
            ...defined({ meta: facts.meta, subject: facts.subject }),
          },
          ambient,
          new Date(performance.timeOrigin + started),
          { durationMs, ...(status >= 400 ? { errorCode: status, error: `HTTP ${status}` } : {}) },
        );
      }
    };
    try {
      res.setHeader("x-request-id", requestId);
      inFlight.add(req);
      // The close listener every part of the edge shares (it follows "finish", and is the only event of an aborted request).
      onResponseClose(res, () => {
        track.ended = true;
        finish();
      });
    } catch {
      // Observing is best effort; the request goes on.
    }
    const go = () => withLogFields({ requestId, client }, () => next(), track);
    if (ambient === undefined) go();
    else otel().context.with(ambient, go);
  };
  return { middleware, openStreams: streamsOf(routeOf, inFlight) };
}

function streamsOf(routeOf: (path: string) => string, inFlight: ReadonlySet<IncomingMessage>): StreamCount {
  return () => {
    let open = 0;
    for (const req of inFlight) if (routeOf(req.url?.split("?")[0] ?? "") === "mcp" && mcpFactsOf(req).stream) open += 1;
    return open;
  };
}

/** The edge when only the page's counters listen: a timer per request, nothing else. */
function countingOnly(observability: Observability, routeOf: (path: string) => string, inFlight: Set<IncomingMessage>): EdgeStep {
  return (req, res, next) => {
    const facts = factsOf(req);
    inFlight.add(req);
    onResponseClose(res, () => {
      inFlight.delete(req);
      const stream = facts.stream && routeOf(pathOf(req)) === "mcp";
      observability.rates.record({ status: res.headersSent ? res.statusCode : 499, durationMs: performance.now() - facts.startedAt, stream });
    });
    next();
  };
}
