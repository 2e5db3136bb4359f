/**
 * Reading the bearer token from a request — only from `Authorization: Bearer <token>` (RFC 6750 §2.1). A token in
 * the URL query is refused outright, because URLs end up in access logs, proxies and browser history; so are
 * headers of absurd size and Bearer headers whose token is not a token.
 */
import { McpHostError } from "../../errors.js";
import type { AuthRequest } from "./resource-url.js";

/** Authorization headers longer than this many bytes are refused (400). */
export const DEFAULT_MAX_AUTHORIZATION_BYTES = 8 * 1024;

const QUERY_TOKEN_NAMES = new Set(["access_token", "token"]);
const SCHEME = /^([A-Za-z0-9!#$%&'*+.^_`|~-]{1,32})(?: +(.*))?$/s;
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

/**
 * Throws `AUTH_BAD_REQUEST` when the query carries `access_token=…` or `token=…` (a bare `?token`, which the
 * selection grammar reads as a toolset name, is not a credential).
 * @example
 * refuseQueryToken("/mcp?only=a"); // passes
 */
export function refuseQueryToken(url: string): void {
  const at = url.indexOf("?");
  if (at < 0) return;
  for (const part of url.slice(at + 1).split("&")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = decodeName(part.slice(0, eq));
    if (QUERY_TOKEN_NAMES.has(name)) {
      throw new McpHostError(
        "AUTH_BAD_REQUEST",
        `a token was sent in the URL query (${name}=); tokens are accepted only in the Authorization header ("Authorization: Bearer <token>") — remove it from the URL, which may already have been logged`,
      );
    }
  }
}

/**
 * The bearer token of a request. Throws `AUTH_TOKEN_MISSING` (no Authorization header, or another scheme such as
 * Basic) or `AUTH_BAD_REQUEST` (token in the query, header over `maxBytes`, Bearer without a well-formed token).
 * @example
 * const token = bearerTokenOf(req);
 */
export function bearerTokenOf(req: AuthRequest, options: { maxBytes?: number } = {}): string {
  refuseQueryToken(req.originalUrl ?? req.url ?? "");
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_AUTHORIZATION_BYTES;
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === "") {
    throw new McpHostError("AUTH_TOKEN_MISSING", 'the request has no Authorization header; send "Authorization: Bearer <token>"');
  }
  if (Buffer.byteLength(header, "utf8") > maxBytes) {
    throw new McpHostError("AUTH_BAD_REQUEST", `the Authorization header is larger than ${maxBytes} bytes; send a single bearer token`);
  }
  const match = SCHEME.exec(header);
  if (match === null || match[1]!.toLowerCase() !== "bearer") {
    throw new McpHostError("AUTH_TOKEN_MISSING", 'the Authorization header does not use the Bearer scheme; send "Authorization: Bearer <token>"');
  }
  const token = (match[2] ?? "").trim();
  if (!B64TOKEN.test(token)) {
    throw new McpHostError("AUTH_BAD_REQUEST", 'the Authorization header is malformed: "Bearer" must be followed by one space and a single token');
  }
  return token;
}
