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
import { defined } from "../defined.js";
import { passWithoutToken } from "./auth/pass-without-token.js";
import { answeredHostRefusal } from "./edge/final-error-handler.js";
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
  /** The toolsets this request's caller may reach (undefined: every one — no auth, or the public catalogue). */
  const permittedOf = (req: Request): string[] | undefined => {
    const caller = auth === undefined ? undefined : callerOf(req);
    if (auth === undefined || caller === undefined) return undefined;
    return auth.permissions.permitted(
      host.declaredToolsets().map((t) => t.name),
      caller.scopes,
    );
  };
  const describe = async (req: Request, permitted: string[] | undefined): Promise<HostDescription> => {
    const { selection, named } = selectionOf(req, options.selection);
    // Checked as the caller may have the selection: a name it may not reach is as unknown as one nobody declared.
    if (options.selection?.strict)
      assertNoUnknownToolsets(host.activeFor(selection, defined({ permitted, named })).unknown, permitted ?? host.declaredToolsets().map((t) => t.name));
    if (auth === undefined) return host.describe(selection);
    // A caller without a token wakes nothing: what dormant extensions would add shows once someone with a token asks.
    if (permitted === undefined) return publicView(await host.describe(selection, { wake: false }));
    return host.describe(selection, { permitted, named });
  };
  /** The named endpoints this caller may reach, each linked to its server card (docs/discovery.md); none configured: none. */
  const endpointsOf = (req: Request): { endpoints?: EndpointLink[] } => {
    if (options.endpoints === undefined || Object.keys(options.endpoints).length === 0) return {};
    // Without a token the catalogue lists the endpoints any valid token reaches: those no scope guards.
    const reachable =
      auth === undefined
        ? undefined
        : auth.permissions.permitted(
            host.declaredToolsets().map((t) => t.name),
            callerOf(req)?.scopes ?? [],
          );
    return { endpoints: endpointLinksOf(host, options, auth, req, reachable) };
  };
  const answer: RequestHandler = async (req, res, next) => {
    const permitted = permittedOf(req);
    try {
      res.json({ ...(await describe(req, permitted)), ...endpointsOf(req) });
    } catch (error) {
      if (!answeredHostRefusal(error, host, res, permitted)) next(error);
    }
  };
  if (auth === undefined) return [answer];
  // Public: a request without credentials gets the public catalogue; one that sends a token must send a good one.
  const gate: RequestHandler = !auth.publicToolsets
    ? auth.require
    : (req, res, next) => (req.headers.authorization !== undefined ? auth.require(req, res, next) : passWithoutToken(req, res, next));
  return [gate, answer];
}
