/**
 * The HTTP answer to an auth failure: status, `WWW-Authenticate` challenge (RFC 6750 §3, with RFC 9728's
 * `resource_metadata`) and a JSON-RPC error body that says what to do. Clients learn only "invalid" or "expired"
 * about a refused token; the precise reason stays in the server's log.
 */
import type { ServerResponse } from "node:http";
import { isMcpHostError } from "../../errors.js";
import { refusalReasonOf } from "./refusals.js";

export interface ChallengeOptions {
  /** The RFC 9728 metadata URL to advertise (omitted when unknown). */
  resourceMetadataUrl?: string;
  /** Every scope the request needs (named in `scope="…"`). */
  scopes?: readonly string[];
  /** Seconds a client should wait when verification is unavailable (default 10). */
  retryAfterSeconds?: number;
}

export interface AuthFailureResponse {
  status: number;
  headers: Record<string, string>;
  body: { jsonrpc: "2.0"; error: { code: number; message: string }; id: null };
}

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&").replace(/[^\x20-\x7e]/g, " ")}"`;
}

/**
 * A `Bearer` challenge with the given parameters, in RFC 6750 order, every value quoted and escaped.
 * @example
 * bearerChallenge({ error: "invalid_token", resource_metadata: url }) // 'Bearer error="invalid_token", resource_metadata="…"'
 */
export function bearerChallenge(params: Record<string, string | undefined>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "")
    .map(([name, value]) => `${name}=${quoted(value)}`);
  return parts.length === 0 ? "Bearer" : `Bearer ${parts.join(", ")}`;
}

function body(code: number, message: string): AuthFailureResponse["body"] {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

/**
 * What to answer for an auth error (any other error is a 500 that says nothing).
 * @example
 * const { status, headers, body } = authFailureResponse(error, { resourceMetadataUrl, scopes: ["mcp:admin"] });
 */
export function authFailureResponse(error: unknown, options: ChallengeOptions = {}): AuthFailureResponse {
  const meta = options.resourceMetadataUrl;
  const scope = options.scopes !== undefined && options.scopes.length > 0 ? [...new Set(options.scopes)].join(" ") : undefined;
  const code = isMcpHostError(error) ? error.code : undefined;
  const discover = "Get a token from the authorization server named in the resource metadata (the resource_metadata URL in WWW-Authenticate) and retry.";
  switch (code) {
    case "AUTH_TOKEN_MISSING":
      return {
        status: 401,
        headers: { "www-authenticate": bearerChallenge({ scope, resource_metadata: meta }) },
        body: body(-32000, `Unauthorized: this endpoint needs an OAuth access token, sent as "Authorization: Bearer <token>". ${discover}`),
      };
    case "AUTH_TOKEN_INVALID": {
      const expired = refusalReasonOf(error) === "expired";
      const description = expired ? "The access token has expired" : "The access token is invalid";
      return {
        status: 401,
        headers: { "www-authenticate": bearerChallenge({ error: "invalid_token", error_description: description, scope, resource_metadata: meta }) },
        body: body(-32000, `Unauthorized: ${expired ? "the access token has expired" : "the access token is invalid"}. ${discover}`),
      };
    }
    case "AUTH_INSUFFICIENT_SCOPE":
      return {
        status: 403,
        headers: {
          "www-authenticate": bearerChallenge({
            error: "insufficient_scope",
            error_description: "The access token lacks a required scope",
            scope,
            resource_metadata: meta,
          }),
        },
        body: body(
          -32000,
          `Forbidden: the access token lacks a scope this request needs${scope === undefined ? "" : ` (it needs: ${scope})`}. Request a token with ${scope === undefined ? "the needed scopes" : "these scopes"} and retry.`,
        ),
      };
    case "AUTH_BAD_REQUEST":
      return {
        status: 400,
        headers: { "www-authenticate": bearerChallenge({ error: "invalid_request", error_description: "The request carries its credentials wrongly" }) },
        body: body(-32600, `Bad Request: ${(error as Error).message}.`),
      };
    case "AUTH_UNAVAILABLE": {
      const seconds = Math.max(1, Math.round(options.retryAfterSeconds ?? 10));
      return {
        status: 503,
        headers: { "retry-after": String(seconds) },
        body: body(
          -32000,
          `Service Unavailable: the server cannot verify access tokens right now (its identity provider is not answering). Retry after ${seconds} seconds.`,
        ),
      };
    }
    default:
      return { status: 500, headers: {}, body: body(-32603, "Internal error") };
  }
}

/**
 * Writes an auth failure answer to a node response.
 * @example
 * writeAuthFailure(res, authFailureResponse(error, { resourceMetadataUrl }));
 */
export function writeAuthFailure(res: ServerResponse, answer: AuthFailureResponse): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

/**
 * Writes `authFailureResponse(error, options)` to a node response.
 * @example
 * sendAuthFailure(res, new McpHostError("AUTH_INSUFFICIENT_SCOPE", "…"), { resourceMetadataUrl, scopes: ["mcp:admin"] });
 */
export function sendAuthFailure(res: ServerResponse, error: unknown, options: ChallengeOptions = {}): void {
  writeAuthFailure(res, authFailureResponse(error, options));
}
