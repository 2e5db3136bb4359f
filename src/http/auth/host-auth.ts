/**
 * Token verification for a served host, assembled from the `auth` option (docs/design.md §9): the verifier, the bearer
 * gate every MCP request and `/toolsets` pass, the RFC 9728 metadata route, the toolset permissions, and the
 * answers a selection gets when its token does not reach a toolset it names. The app and every selection's
 * handler share one, so a request is checked the same way wherever it enters.
 */
import type { ServerResponse } from "node:http";
import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";
import type { RequestHandler, Router } from "express";
import { silentLogger, type Logger } from "../../logger.js";
import { bearerAuth, bearerGate, type BearerGate } from "./bearer-auth.js";
import { bearerTokenOf } from "./bearer-token.js";
import { sendAuthFailure } from "./challenge.js";
import { protectedResourceMetadata } from "./protected-resource-metadata.js";
import { authConfigError, insufficientScope } from "./refusals.js";
import { publicBaseUrlOf, publicRequestUrl, publicResourceUrl, type AuthRequest } from "./resource-url.js";
import type { TokenVerifier, VerifiedCaller } from "./verified-caller.js";
import { tokenVerifierFrom, type HostAuthOptions } from "./host-auth-options.js";
import { ToolsetPermissions } from "./toolset-permissions.js";
import { defined } from "../../defined.js";

export interface HostAuth {
  readonly verifier: TokenVerifier;
  readonly permissions: ToolsetPermissions;
  readonly onInsufficientScope: "refuse" | "omit";
  readonly publicToolsets: boolean;
  /** Verifies the bearer token (the caller goes into the request's facts) or answers 400/401/403/503. */
  readonly gate: BearerGate;
  /** The same gate as express middleware (for `/toolsets` and the operator page's data). */
  readonly require: RequestHandler;
  /** The RFC 9728 route; absent when no authorization server is configured. */
  readonly metadata: Router | undefined;
  /** The public base URL (`publicBaseUrl`, else what `resource` implies), when one is configured. */
  readonly publicBase: URL | undefined;
  /** The caller of a request with a valid token, else undefined; never answers, never logs the token. */
  callerIfAny(req: AuthRequest): Promise<VerifiedCaller | undefined>;
  /** Answers 403 `insufficient_scope`: `missing` is what the token lacks, `needed` every scope the request needs. */
  refuseScopes(req: AuthRequest, res: ServerResponse, missing: readonly string[], needed: readonly string[]): void;
}

/** The public base URL: as configured, else what `resource` implies when it ends with the MCP path. */
function publicBaseOf(options: HostAuthOptions, path: string): URL | undefined {
  if (options.publicBaseUrl !== undefined) return publicBaseUrlOf(options.publicBaseUrl, "auth");
  if (options.resource === undefined) return undefined;
  if (typeof options.resource !== "string" || !URL.canParse(options.resource))
    throw authConfigError("auth.resource must be the absolute public URL of the MCP endpoint, e.g. https://mcp.example.com/mcp");
  const resource = new URL(options.resource);
  const tail = path.replace(/\/+$/, "");
  const pathname = resource.pathname.replace(/\/+$/, "");
  if (resource.search !== "" || !pathname.endsWith(tail)) return undefined;
  return publicBaseUrlOf(`${resource.origin}${pathname.slice(0, pathname.length - tail.length)}`, "auth");
}

function checkMode(value: unknown): "refuse" | "omit" {
  if (value === undefined) return "refuse";
  if (value === "refuse" || value === "omit") return value;
  throw authConfigError(`auth.onInsufficientScope must be "refuse" or "omit", got ${JSON.stringify(value)}`);
}

/**
 * @example
 * const auth = createHostAuth({ issuer, audience, jwksUri, toolsetScopes: { admin: ["mcp:admin"] } }, { path: "/mcp", logger });
 * app.all("/mcp", auth.require, handler);
 */
export function createHostAuth(options: HostAuthOptions, context: { path: string; logger?: Logger }): HostAuth {
  const verifier = tokenVerifierFrom(options);
  const permissions = new ToolsetPermissions(options.toolsetScopes ?? {});
  const onInsufficientScope = checkMode(options.onInsufficientScope);
  const logger = context.logger ?? silentLogger;
  const base = publicBaseOf(options, context.path);
  const servers = [...(options.authorizationServers ?? (options.issuer === undefined ? [] : [options.issuer]))];
  const metadata =
    servers.length === 0
      ? undefined
      : protectedResourceMetadata({
          authorizationServers: servers,
          resourcePath: context.path,
          ...defined({ resource: options.resource, publicBaseUrl: base }),
          ...(options.scopesSupported === undefined || options.scopesSupported.length === 0 ? {} : { scopesSupported: [...options.scopesSupported] }),
          ...defined({ allowInsecureHttp: options.allowInsecureHttp }),
        });
  // Whatever the request's path (/toolsets, /MCP, /mcp/), the metadata named is the MCP endpoint's, query kept.
  const metadataUrl = (req: AuthRequest): string | undefined => {
    if (metadata === undefined) return undefined;
    const publicUrl = defined({ publicBaseUrl: base });
    const resource = new URL(publicResourceUrl(req, context.path, publicUrl));
    resource.search = publicRequestUrl(req, publicUrl).search;
    return getOAuthProtectedResourceMetadataUrl(resource);
  };
  const gateOptions = {
    verifier,
    resourceMetadataUrl: metadataUrl,
    logger,
    ...defined({ retryAfterSeconds: options.retryAfterSeconds }),
  };
  const gate = bearerGate(gateOptions);
  const require = bearerAuth(gateOptions);
  return {
    verifier,
    permissions,
    onInsufficientScope,
    publicToolsets: options.publicToolsets === true,
    gate,
    require,
    metadata,
    publicBase: base,
    callerIfAny: async (req) => {
      try {
        return await verifier.verify(bearerTokenOf(req));
      } catch {
        return undefined;
      }
    },
    refuseScopes: (req, res, missing, needed) => {
      let resourceMetadataUrl: string | undefined;
      try {
        resourceMetadataUrl = metadataUrl(req);
      } catch {
        resourceMetadataUrl = undefined;
      }
      sendAuthFailure(res, insufficientScope(missing), {
        ...defined({ resourceMetadataUrl }),
        scopes: [...new Set([...verifier.requiredScopes, ...needed])],
      });
    },
  };
}
