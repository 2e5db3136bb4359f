/**
 * The RFC 9728 protected-resource metadata route, `/.well-known/oauth-protected-resource{path}`, which tells a
 * client that got a 401 which authorization server to ask. It answers the same document with or without the
 * selection's query (mcp-remote drops it when looking the metadata up; the SDK client keeps it), and its
 * `resource` carries no query: the SDK client accepts a resource whose origin matches and whose path is a prefix
 * of the MCP URL's, ignoring the query, and one resource identifier keeps one token audience for every selection.
 */
import express, { type Request, type Response, type Router } from "express";
import type { OAuthProtectedResourceMetadata } from "@modelcontextprotocol/server";
import { endpointUrl } from "./endpoint-url.js";
import { authConfigError } from "./refusals.js";
import { publicBaseUrlOf, publicResourceUrl, type AuthRequest } from "./resource-url.js";
import { defined } from "../../defined.js";

export interface ProtectedResourceMetadataOptions {
  /** Issuer URLs of the authorization servers that mint tokens for this resource (at least one). */
  authorizationServers: string[];
  /** The MCP endpoint's path (default "/mcp"); the document is served at `/.well-known/oauth-protected-resource<path>`. */
  resourcePath?: string;
  /** A fixed resource identifier; default: the public origin (publicBaseUrl, else the request's) plus resourcePath. */
  resource?: string | URL;
  /** The public origin clients use, when behind a proxy. */
  publicBaseUrl?: string | URL;
  scopesSupported?: string[];
  resourceName?: string;
  resourceDocumentation?: string;
  /** Accept plain-http authorization servers off loopback (default false). */
  allowInsecureHttp?: boolean;
}

const ALLOW = "GET, HEAD, OPTIONS";
const OWNER = "protectedResourceMetadata";

/**
 * The well-known path of the metadata for an MCP path.
 * @example
 * protectedResourceMetadataPath("/mcp") // "/.well-known/oauth-protected-resource/mcp"
 */
export function protectedResourceMetadataPath(resourcePath: string): string {
  const trimmed = resourcePath.length > 1 ? resourcePath.replace(/\/+$/, "") : resourcePath;
  return `/.well-known/oauth-protected-resource${trimmed === "/" ? "" : trimmed}`;
}

function checkedResource(value: string | URL | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value instanceof URL ? value.href : value;
  if (typeof text !== "string" || !URL.canParse(text))
    throw authConfigError(`${OWNER}: \`resource\` must be an absolute URL such as https://mcp.example.com/mcp`);
  const url = new URL(text);
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.hash !== "")
    throw authConfigError(`${OWNER}: \`resource\` must be an http(s) URL without a fragment`);
  return text;
}

function checkOptions(options: ProtectedResourceMetadataOptions) {
  const servers = options?.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0) throw authConfigError(`${OWNER}: \`authorizationServers\` must list at least one issuer URL`);
  for (const [i, server] of servers.entries()) endpointUrl(OWNER, `authorizationServers[${i}]`, server, options.allowInsecureHttp);
  const resourcePath = options.resourcePath ?? "/mcp";
  if (typeof resourcePath !== "string" || !resourcePath.startsWith("/")) throw authConfigError(`${OWNER}: \`resourcePath\` must start with "/" (e.g. "/mcp")`);
  if (options.scopesSupported !== undefined && !(Array.isArray(options.scopesSupported) && options.scopesSupported.every((s) => typeof s === "string"))) {
    throw authConfigError(`${OWNER}: \`scopesSupported\` must be a list of scope names`);
  }
  return {
    servers: [...servers],
    resourcePath,
    resource: checkedResource(options.resource),
    base: options.publicBaseUrl === undefined ? undefined : publicBaseUrlOf(options.publicBaseUrl, OWNER),
  };
}

/**
 * An express router serving the RFC 9728 metadata for one MCP path; mount it at the app's root.
 * @example
 * app.use(protectedResourceMetadata({ authorizationServers: ["https://idp.example.com"], scopesSupported: ["mcp"] }));
 */
export function protectedResourceMetadata(options: ProtectedResourceMetadataOptions): Router {
  const settings = checkOptions(options);
  const path = protectedResourceMetadataPath(settings.resourcePath);
  const documentFor = (req: Request): OAuthProtectedResourceMetadata => ({
    resource: settings.resource ?? publicResourceUrl(req as AuthRequest, settings.resourcePath, defined({ publicBaseUrl: settings.base })),
    authorization_servers: settings.servers,
    ...(options.scopesSupported === undefined ? {} : { scopes_supported: [...options.scopesSupported] }),
    bearer_methods_supported: ["header"],
    ...defined({ resource_name: options.resourceName, resource_documentation: options.resourceDocumentation }),
  });

  const router = express.Router();
  router.use((req: Request, res: Response, next) => {
    const requested = req.path.length > 1 ? req.path.replace(/\/+$/, "") : req.path;
    if (requested !== path) {
      next();
      return;
    }
    res.set("access-control-allow-origin", "*");
    if (req.method === "OPTIONS") {
      res.set("access-control-allow-methods", ALLOW);
      const asked = req.get("access-control-request-headers");
      if (asked !== undefined) res.set({ "access-control-allow-headers": asked, vary: "Access-Control-Request-Headers" });
      res.status(204).end();
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res
        .status(405)
        .set("allow", ALLOW)
        .json({ error: "method_not_allowed", error_description: `${req.method} is not allowed here; use GET` });
      return;
    }
    let document: OAuthProtectedResourceMetadata;
    try {
      document = documentFor(req);
    } catch {
      res.status(400).json({ error: "invalid_request", error_description: "the request has no usable Host header; send one (or configure publicBaseUrl)" });
      return;
    }
    res.status(200).json(document);
  });
  return router;
}
