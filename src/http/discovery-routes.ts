/**
 * Discovery over HTTP (docs/discovery.md): each named endpoint's server card at its MCP URL's path plus
 * `/server-card`, its selection as the query (`/mcp/server-card?only=spaces`, as the server-card draft reserves),
 * and the site's catalog at `/.well-known/mcp/catalog.json` and `/.well-known/ai-catalog.json`. Public like the
 * RFC 9728 metadata — read by browsers from any origin (`Access-Control-Allow-Origin: *`), cached with an ETag —
 * except that with auth on a caller sees only the endpoints it may reach: without a valid token, those whose
 * toolsets no scope guards.
 */
import { createHash } from "node:crypto";
import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";
import express, { type Request, type Response, type Router } from "express";
import { CATALOG_PATHS, catalogDocument, catalogIdentifier } from "../discovery/catalog.js";
import { endpointLink, namedEndpoints, reachable, type EndpointLink, type NamedEndpoint } from "../discovery/named-endpoints.js";
import { reverseDns, SERVER_CARD_MEDIA_TYPE, serverCard } from "../discovery/server-card.js";
import type { McpHost } from "../host/host.js";
import type { HostAuth } from "./auth/host-auth.js";
import { publicResourceUrl } from "./auth/resource-url.js";
import { rawQuery } from "./edge/request-selection.js";
import { sendJsonRpcError } from "./edge/jsonrpc-response.js";
import type { HostAppOptions } from "./http-options.js";
import { defined } from "../defined.js";

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET",
  "access-control-allow-headers": "Authorization, Content-Type, If-None-Match",
  "access-control-expose-headers": "ETag",
};

/** The MCP endpoint's public URL (no query): auth's public base (`publicBaseUrl`, or what `resource` implies), else the request's origin. */
function mcpUrlOf(req: Request, options: HostAppOptions, auth: HostAuth | undefined): URL {
  return new URL(publicResourceUrl(req, options.path ?? "/mcp", defined({ publicBaseUrl: auth?.publicBase })));
}

/** The toolsets this request's caller may reach (undefined: nothing is guarded, or auth is off). */
async function permittedOf(host: McpHost, auth: HostAuth | undefined, req: Request): Promise<string[] | undefined> {
  if (auth === undefined) return undefined;
  const caller = await auth.callerIfAny(req);
  return auth.permissions.permitted(
    host.declaredToolsets().map((t) => t.name),
    caller?.scopes ?? [],
  );
}

/**
 * The named endpoints this request's caller may reach, each with its URL and its card's: what `/toolsets` and the
 * operator page link. Empty when the deployment names none.
 * @example
 * const links = endpointLinksOf(host, options, req, permitted);
 */
export function endpointLinksOf(
  host: McpHost,
  options: HostAppOptions,
  auth: HostAuth | undefined,
  req: Request,
  permitted: readonly string[] | undefined,
): EndpointLink[] {
  const named = options.endpoints ?? {};
  if (Object.keys(named).length === 0) return [];
  const mcpUrl = mcpUrlOf(req, options, auth);
  return namedEndpoints(host, named, options.selection)
    .filter((endpoint) => reachable(endpoint, permitted))
    .map((endpoint) => endpointLink(endpoint, mcpUrl));
}

/** The endpoint a card request names by its query: the selection as the config writes it (or the same parameters). */
function endpointOfQuery(endpoints: readonly NamedEndpoint[], query: string): NamedEndpoint | undefined {
  const normal = (text: string) => new URLSearchParams(text).toString();
  return endpoints.find((e) => e.selection === query) ?? endpoints.find((e) => normal(e.selection) === normal(query));
}

/** Sends a discovery document: CORS for any origin, an ETag (a 304 when the client has it), caching by auth. */
function sendDocument(req: Request, res: Response, body: unknown, mediaType: string, authenticated: boolean): void {
  const text = JSON.stringify(body);
  const etag = `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;
  res.set(CORS).set("etag", etag);
  // With auth on the answer depends on the caller's token: no shared cache may keep it.
  if (authenticated) res.set("cache-control", "private, max-age=300").set("vary", "Authorization");
  else res.set("cache-control", "public, max-age=3600");
  if (req.headers["if-none-match"] === etag) {
    res.status(304).end();
    return;
  }
  res.status(200).type(mediaType).send(text);
}

/**
 * @example
 * rest.use(discoveryRoutes(host, options, auth));
 */
export function discoveryRoutes(host: McpHost, options: HostAppOptions, auth: HostAuth | undefined): Router {
  const router = express.Router();
  const mcpPath = (options.path ?? "/mcp").replace(/\/+$/, "");
  const cardPath = `${mcpPath}/server-card`;
  const named = () => namedEndpoints(host, options.endpoints ?? {}, options.selection);
  const preflight = (_req: Request, res: Response) => void res.status(204).set(CORS).set("access-control-max-age", "86400").end();

  router.options([cardPath, ...Object.keys(CATALOG_PATHS)], preflight);
  router.get(cardPath, async (req, res, next) => {
    try {
      const permitted = await permittedOf(host, auth, req);
      const endpoint = endpointOfQuery(named(), rawQuery(req));
      // One the caller may not reach is as absent as one that does not exist: its card says nothing to it.
      if (endpoint === undefined || !reachable(endpoint, permitted)) {
        const cards = endpointLinksOf(host, options, auth, req, permitted).map((link) => link.card);
        const known = cards.length === 0 ? "this deployment names no endpoints you may reach (config endpoints:)" : `the cards are ${cards.join(", ")}`;
        sendJsonRpcError(res.set(CORS), 404, -32601, `No named endpoint has the selection ${JSON.stringify(rawQuery(req))}; ${known}.`);
        return;
      }
      const mcpUrl = mcpUrlOf(req, options, auth);
      const url = endpointLink(endpoint, mcpUrl).url;
      const card = serverCard(endpoint, {
        serverName: host.name,
        version: host.version,
        namespace: reverseDns(mcpUrl.hostname),
        url,
        legacy: options.legacy !== "reject",
        ...(auth === undefined
          ? {}
          : {
              auth: {
                ...(auth.metadata === undefined ? {} : { metadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)) }),
                scopes: [...new Set([...auth.verifier.requiredScopes, ...auth.permissions.scopesFor(endpoint.active)])],
              },
            }),
      });
      sendDocument(req, res, card, SERVER_CARD_MEDIA_TYPE, auth !== undefined);
    } catch (error) {
      next(error);
    }
  });
  for (const [path, format] of Object.entries(CATALOG_PATHS)) {
    router.get(path, async (req, res, next) => {
      try {
        const links = endpointLinksOf(host, options, auth, req, await permittedOf(host, auth, req));
        const publisher = mcpUrlOf(req, options, auth).hostname;
        const document = catalogDocument(
          format.specVersion,
          links.map((link) => ({ identifier: catalogIdentifier(publisher, link.name), url: link.card })),
        );
        sendDocument(req, res, document, format.mediaType, auth !== undefined);
      } catch (error) {
        next(error);
      }
    });
  }
  return router;
}
