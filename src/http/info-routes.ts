/**
 * `/healthz` and `/toolsets` (docs/design.md §8, §9). Without auth they answer anyone. With auth, `/healthz` without a
 * valid token says only whether the service is up (extension errors and upstream names need a token), and
 * `/toolsets` needs the token — unless `publicToolsets`, which serves the catalogue without errors, sources or
 * upstream names to callers without one — and describes what this caller may reach, with the named endpoints it may
 * reach linked to their server cards.
 */
import type { Request, RequestHandler } from "express";
import type { HostDescription } from "../host/describe.js";
import type { McpHost } from "../host/host.js";
import type { Fleet } from "../scale-out/fleet.js";
import { assertNoUnknownToolsets } from "../host/selection.js";
import { callerOf } from "./auth/bearer-auth.js";
import { healthOf } from "./health.js";
import { passWithoutToken } from "./auth/pass-without-token.js";
import type { HostAuth } from "./auth/host-auth.js";
import type { HostAppOptions } from "./http-options.js";
import { selectionOf } from "./edge/request-selection.js";
import { endpointLinksOf } from "./discovery-routes.js";
import type { EndpointLink } from "../discovery/named-endpoints.js";

/** The catalogue as anyone may read it: extension errors, sources and upstream names left out. */
function publicView(description: HostDescription): HostDescription {
  return {
    ...description,
    extensions: description.extensions.map(({ error: _error, source: _source, ...rest }) => rest),
    unavailable: [],
  };
}

/**
 * @example
 * app.get("/healthz", healthRoute(host, auth));
 */
export function healthRoute(host: McpHost, auth: HostAuth | undefined, fleet?: Fleet): RequestHandler {
  return async (req, res) => {
    if (auth === undefined) {
      res.json(healthOf(host, undefined, fleet));
      return;
    }
    const caller = await auth.callerIfAny(req);
    const health = healthOf(
      host,
      caller === undefined
        ? []
        : auth.permissions.permitted(
            host.declaredToolsets().map((t) => t.name),
            caller.scopes,
          ),
      fleet,
    );
    res.json(caller === undefined ? { status: health.status, service: health.service } : health);
  };
}

/**
 * The handlers of `/toolsets`, in order.
 * @example
 * app.get("/toolsets", ...toolsetsRoute(host, options, auth));
 */
export function toolsetsRoute(host: McpHost, options: HostAppOptions, auth: HostAuth | undefined): RequestHandler[] {
  const described = async (req: Request): Promise<HostDescription> => {
    const { selection } = selectionOf(req, options.selection);
    if (options.selection?.strict)
      assertNoUnknownToolsets(
        host.activeFor(selection).unknown,
        host.declaredToolsets().map((t) => t.name),
      );
    if (auth === undefined) return host.describe(selection);
    const caller = callerOf(req);
    // A caller without a token wakes nothing: what dormant extensions would add shows once someone with a token asks.
    if (caller === undefined) return publicView(await host.describe(selection, { wake: false }));
    const permitted = auth.permissions.permitted(
      host.declaredToolsets().map((t) => t.name),
      caller.scopes,
    );
    return host.describe(selection, { permitted });
  };
  // The named endpoints this caller may reach, each linked to its server card (docs/discovery.md).
  const describe = async (req: Request): Promise<HostDescription & { endpoints?: EndpointLink[] }> => {
    const description = await described(req);
    if (options.endpoints === undefined || Object.keys(options.endpoints).length === 0) return description;
    const permitted =
      auth === undefined
        ? undefined
        : auth.permissions.permitted(
            host.declaredToolsets().map((t) => t.name),
            callerOf(req)?.scopes ?? [],
          );
    return { ...description, endpoints: endpointLinksOf(host, options, auth, req, permitted) };
  };
  const answer: RequestHandler = async (req, res, next) => {
    try {
      res.json(await describe(req));
    } catch (error) {
      next(error);
    }
  };
  if (auth === undefined) return [answer];
  // Public: a request without credentials gets the public catalogue; one that sends a token must send a good one.
  const gate: RequestHandler = !auth.publicToolsets
    ? auth.require
    : (req, res, next) => (req.headers.authorization !== undefined ? auth.require(req, res, next) : passWithoutToken(req, res, next));
  return [gate, answer];
}
