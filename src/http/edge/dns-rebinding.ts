/**
 * DNS-rebinding protection (docs/design.md §8): a browser page on evil.example.com that resolves to 127.0.0.1 must not
 * reach a local MCP server. The Host header must name loopback or an allowed host; an Origin, when sent, must be
 * a loopback origin, an allowed one, or one a CORS layer accepted for this request (a configured CORS origin is
 * an allowed origin — whether CORS runs at the edge or in a serverFactory). Both are refused with 403 and a
 * message that says how to allow them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { localhostAllowedHostnames, validateHostHeader } from "@modelcontextprotocol/server";
import type { NextFunction, Request, Response } from "express";
import { sendJsonRpcError } from "./jsonrpc-response.js";

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** True for localhost, 127.0.0.0/8 and [::1]. */
export function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.toLowerCase();
  return LOOPBACK_HOSTNAMES.has(bare) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function hostnameOfHostHeader(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.split(":")[0] ?? "";
}

/** Origins accepted besides loopback ones, normalised for comparison. */
export function originSet(origins: readonly string[] | undefined): ReadonlySet<string> {
  return new Set((origins ?? []).map((o) => o.toLowerCase().replace(/\/$/, "")));
}

/**
 * True when the request sends no Origin, or a loopback or listed one, or one the response already allows by CORS
 * (`Access-Control-Allow-Origin` naming it, or `*`).
 * @example
 * if (!originAllowed(req, res, originSet(["https://app.example.com"]))) refuseOrigin(res, req.headers.origin!);
 */
export function originAllowed(req: IncomingMessage, res: ServerResponse, allowed: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || allowed.has(origin.toLowerCase())) return true;
  const cors = res.getHeader("access-control-allow-origin");
  if (cors === "*" || (typeof cors === "string" && cors.toLowerCase() === origin.toLowerCase())) return true;
  try {
    return isLoopbackHostname(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Answers 403 for an Origin that is not allowed. */
export function refuseOrigin(res: ServerResponse, origin: string): void {
  sendJsonRpcError(
    res,
    403,
    -32000,
    `Forbidden: Origin "${origin}" is not allowed. Add it to http.allowedOrigins, or to http.cors for a browser app, to serve it.`,
  );
}

/**
 * The Host check alone.
 * @example
 * app.use(hostCheck({ allowedHosts: ["mcp.example.com"] }));
 */
export function hostCheck(options: { allowedHosts?: readonly string[] }) {
  const allowed = hostAllowed(options.allowedHosts);
  return (req: Request, res: Response, next: NextFunction): void => {
    const refusal = allowed(req);
    if (refusal !== undefined) {
      sendJsonRpcError(res, 403, -32000, refusal);
      return;
    }
    next();
  };
}

/**
 * The Host rule as a function of a request: undefined when its Host names loopback or an allowed host, else why it
 * is refused. Every listener of the host applies it (the MCP app's port and a `metrics.port` of its own).
 * @example
 * const refusal = hostAllowed(["mcp.example.com"])(req); if (refusal) answer403(refusal);
 */
export function hostAllowed(allowedHosts: readonly string[] | undefined): (req: IncomingMessage) => string | undefined {
  const hosts = new Set((allowedHosts ?? []).map((h) => h.toLowerCase()));
  // The SDK's own check on its own list; what it cannot list — all of 127.0.0.0/8, an allowed `host:port` — is ours.
  const listed = [...localhostAllowedHostnames(), ...[...hosts].filter((h) => !h.includes(":") || h.startsWith("["))];
  return (req) => {
    const hostHeader = req.headers.host ?? "";
    const checked = validateHostHeader(hostHeader, listed);
    if (checked.ok) return undefined;
    const hostname = checked.hostname ?? hostnameOfHostHeader(hostHeader).toLowerCase();
    if (checked.errorCode === "invalid_host" && (isLoopbackHostname(hostname) || hosts.has(hostHeader.toLowerCase()))) return undefined;
    return `Forbidden: Host "${hostname}" is not allowed. Add it to http.allowedHosts to serve it.`;
  };
}

/**
 * The Origin check alone; `defer(req)` leaves a request to a later check (the selection's, after the serverFactory).
 * @example
 * app.use(originCheck({ allowedOrigins: ["https://app.example.com"] }));
 */
export function originCheck(options: { allowedOrigins?: readonly string[]; defer?: (req: Request) => boolean }) {
  const origins = originSet(options.allowedOrigins);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!originAllowed(req, res, origins) && !options.defer?.(req)) {
      refuseOrigin(res, req.headers.origin ?? "");
      return;
    }
    next();
  };
}

/**
 * Both checks, Host first.
 * @example
 * app.use(dnsRebindingProtection({ allowedHosts: ["mcp.example.com"], allowedOrigins: [] }));
 */
export function dnsRebindingProtection(options: { allowedHosts?: readonly string[]; allowedOrigins?: readonly string[] }) {
  const host = hostCheck(options);
  const origin = originCheck(options);
  return (req: Request, res: Response, next: NextFunction): void => host(req, res, (error?: unknown) => (error ? next(error) : origin(req, res, next)));
}
