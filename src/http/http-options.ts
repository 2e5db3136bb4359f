/**
 * The options of the HTTP face of a host (DESIGN.md §8, config `http:` and `selection:`).
 */
import type { CorsOptions } from "cors";
import type { LegacyServingOptions } from "../host/host-options.js";

export interface SelectionOptions {
  /** Applied when a request's selection is empty (same grammar as a query, e.g. "only=core"). */
  default?: string;
  /** Refuse names nobody declared with 400 instead of serving and reporting them. */
  strict?: boolean;
  /** Query keys that belong to the deployment and are not toolset names. */
  ignoreKeys?: string[];
}

export interface HostAppOptions extends LegacyServingOptions {
  /** The MCP endpoint (default `/mcp`). */
  path?: string;
  /** Host names accepted besides loopback (DNS-rebinding protection). */
  allowedHosts?: string[];
  /** Origins accepted besides loopback ones, e.g. `https://app.example.com`. */
  allowedOrigins?: string[];
  /** Check Host and Origin (default true). */
  dnsRebindingProtection?: boolean;
  /** CORS, off unless given: `{ origin: [...] }` or `true` for any origin. */
  cors?: CorsOptions | boolean;
  selection?: SelectionOptions;
}

/** Headers a browser client may send and must be able to read (DESIGN.md §8). */
export const CORS_ALLOWED_HEADERS = [
  "Content-Type",
  "Accept",
  "Authorization",
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "Mcp-Method",
  "Mcp-Name",
  "Mcp-Param-*",
  "Last-Event-ID",
  "X-MCP-Toolsets",
];
export const CORS_EXPOSED_HEADERS = ["Mcp-Session-Id", "MCP-Protocol-Version", "WWW-Authenticate"];
