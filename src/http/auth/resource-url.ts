/**
 * The public URLs auth advertises, computed from the request (or a configured public base URL behind a proxy):
 * the MCP URL as the client sees it, its RFC 9728 metadata URL — which keeps the request's query, so a selection
 * such as `?only=admin` survives the OAuth round trip — and the resource identifier, which does not.
 */
import type { IncomingMessage } from "node:http";
import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";
import { McpHostError } from "../../errors.js";
import { carriedFacts } from "../edge/request-facts.js";
import { authConfigError } from "./refusals.js";

/** A node request, with what express adds when it is one. */
export type AuthRequest = IncomingMessage & { originalUrl?: string; protocol?: string };

export interface PublicUrlOptions {
  /** The origin (and optional path prefix) clients use, e.g. `https://mcp.example.com`; default: from the request. */
  publicBaseUrl?: string | URL;
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Checks a configured public base URL once: absolute http(s), no query, fragment or credentials.
 * @example
 * const base = publicBaseUrlOf("https://mcp.example.com/tools");
 */
export function publicBaseUrlOf(value: string | URL, owner = "auth"): URL {
  const text = value instanceof URL ? value.href : value;
  if (typeof text !== "string" || !URL.canParse(text))
    throw authConfigError(`${owner}: \`publicBaseUrl\` must be an absolute URL such as https://mcp.example.com`);
  const url = new URL(text);
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw authConfigError(`${owner}: \`publicBaseUrl\` must be a plain http(s) origin with an optional path, without query, fragment or credentials`);
  }
  return url;
}

function requestOrigin(req: AuthRequest): string {
  const host = req.headers.host;
  if (typeof host !== "string" || !HOST.test(host)) {
    throw new McpHostError(
      "AUTH_BAD_REQUEST",
      "the request has no usable Host header, so the resource metadata URL cannot be built; send a Host header (or configure publicBaseUrl)",
    );
  }
  // The scheme the client used: a trusted proxy's X-Forwarded-Proto or Forwarded, else the socket's (client-address.ts).
  const facts = carriedFacts(req);
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const protocol = facts !== undefined ? facts.protocol : (req.protocol ?? (encrypted ? "https" : "http"));
  return `${protocol === "https" ? "https" : "http"}://${host}`;
}

/** The request target's path and query (origin-form or absolute-form). */
function target(req: AuthRequest): { path: string; search: string } {
  const raw = req.originalUrl ?? req.url ?? "/";
  const parsed = new URL(raw.startsWith("/") ? raw : URL.canParse(raw) ? raw : "/", "http://target.invalid");
  return { path: parsed.pathname, search: parsed.search };
}

function baseOf(req: AuthRequest, base: URL | undefined): { origin: string; prefix: string } {
  if (base === undefined) return { origin: requestOrigin(req), prefix: "" };
  return { origin: base.origin, prefix: base.pathname.replace(/\/+$/, "") };
}

/**
 * The URL of this request as its client addressed it, query included.
 * @example
 * publicRequestUrl(req).href // "https://mcp.example.com/mcp?only=admin"
 */
export function publicRequestUrl(req: AuthRequest, options: PublicUrlOptions = {}): URL {
  const base = options.publicBaseUrl === undefined ? undefined : publicBaseUrlOf(options.publicBaseUrl);
  const { origin, prefix } = baseOf(req, base);
  const { path, search } = target(req);
  const url = new URL(origin);
  url.pathname = `${prefix}${path}`;
  url.search = search;
  return url;
}

/**
 * The RFC 9728 metadata URL for this request, keeping its query: for `POST /mcp?only=admin` it is
 * `<origin>/.well-known/oauth-protected-resource/mcp?only=admin`.
 * @example
 * res.set("WWW-Authenticate", `Bearer resource_metadata="${protectedResourceMetadataUrl(req)}"`);
 */
export function protectedResourceMetadataUrl(req: AuthRequest, options: PublicUrlOptions = {}): string {
  return getOAuthProtectedResourceMetadataUrl(publicRequestUrl(req, options));
}

/**
 * The resource identifier for an MCP path: origin (and public prefix) plus the path, with no query. One resource
 * covers every selection of the endpoint, so one token audience serves `?only=a` and `?only=b` alike.
 * @example
 * publicResourceUrl(req, "/mcp") // "https://mcp.example.com/mcp"
 */
export function publicResourceUrl(req: AuthRequest, resourcePath: string, options: PublicUrlOptions = {}): string {
  const base = options.publicBaseUrl === undefined ? undefined : publicBaseUrlOf(options.publicBaseUrl);
  const { origin, prefix } = baseOf(req, base);
  const url = new URL(origin);
  url.pathname = `${prefix}${resourcePath}`;
  return url.href;
}
