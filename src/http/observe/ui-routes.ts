/**
 * The operator page's routes (docs/design.md §18): the page itself at `ui.path` (default `/`) — a shell with no data,
 * public, since a browser cannot send a bearer token when it navigates — and its data under `{path}/_ui/`, which
 * with auth on needs the token like `/toolsets` does and shows the caller's own view.
 */
import express, { type Request, type RequestHandler, type Router } from "express";
import type { McpHost } from "../../host/host.js";
import { callerOf } from "../auth/bearer-auth.js";
import type { HostAuth } from "../auth/host-auth.js";
import type { SelectionOptions } from "../http-options.js";
import type { EndpointLink } from "../../discovery/named-endpoints.js";
import { explore, type OverviewSources, overviewOf } from "./ui-data.js";
import { pageSecurityPolicy, renderPage } from "./ui-page.js";

const FRAMING_HEADERS = { "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };

export interface UiRouteOptions {
  /** Where the page is served (default `/`). */
  path: string;
  mcpPath: string;
  selection: SelectionOptions;
  sources: OverviewSources;
  /** The named endpoints a request's caller may reach, linked to their cards (absent: none). */
  endpointLinks?(req: Request, permitted: readonly string[] | undefined): EndpointLink[];
}

/**
 * The `_ui/` base under the page's path.
 * @example
 * uiApiBase("/") // "/_ui"
 * uiApiBase("/ops") // "/ops/_ui"
 */
export function uiApiBase(path: string): string {
  return `${path.replace(/\/+$/, "")}/_ui`;
}

function permittedOf(host: McpHost, auth: HostAuth | undefined, req: Request): string[] | undefined {
  if (auth === undefined) return undefined;
  return auth.permissions.permitted(
    host.declaredToolsets().map((t) => t.name),
    callerOf(req)?.scopes ?? [],
  );
}

/**
 * @example
 * app.use(uiRoutes(host, auth, { path: "/", mcpPath: "/mcp", selection: {}, sources }));
 */
export function uiRoutes(host: McpHost, auth: HostAuth | undefined, options: UiRouteOptions): Router {
  const router = express.Router();
  const api = uiApiBase(options.path);
  // Mounted under a prefix (`app.use("/ai", hostApp.app)`), the page's own requests must carry it: express says which
  // in req.baseUrl. One page per prefix, made once (an app has one or two).
  const pages = new Map<string, string>();
  const pageAt = (prefix: string) => {
    let page = pages.get(prefix);
    if (page === undefined) {
      page = renderPage({ service: host.name, api: `${prefix}${api}`, mcpPath: `${prefix}${options.mcpPath}`, auth: auth !== undefined });
      if (pages.size < 8) pages.set(prefix, page);
    }
    return page;
  };
  const gate: RequestHandler[] = auth === undefined ? [] : [auth.require];
  const policy = pageSecurityPolicy();
  // The page and its data: never framed by another page, never sniffed into something else, never cached.
  router.use(api, (_req, res, next) => {
    res.set(FRAMING_HEADERS);
    next();
  });
  router.get(options.path, (req, res) => {
    res.set(FRAMING_HEADERS).set("content-security-policy", policy).set("cache-control", "no-store").type("html").send(pageAt(req.baseUrl));
  });
  router.get(`${api}/overview`, ...gate, (req, res) => {
    const permitted = permittedOf(host, auth, req);
    res.set("cache-control", "no-store").json(overviewOf(options.sources, permitted, options.endpointLinks?.(req, permitted)));
  });
  router.get(`${api}/explore`, ...gate, async (req, res, next) => {
    try {
      const query = typeof req.query.q === "string" ? req.query.q : "";
      res.set("cache-control", "no-store").json(await explore(host, query, options.selection, permittedOf(host, auth, req)));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
