/**
 * DNS-rebinding protection (DESIGN.md §8): a browser page on evil.example.com that resolves to 127.0.0.1 must not
 * reach a local MCP server. The Host header must name loopback or an allowed host; an Origin, when sent, must be
 * a loopback origin or an allowed one. Both are refused with 403 and a message that says how to allow them.
 */
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

/**
 * @example
 * app.use(dnsRebindingProtection({ allowedHosts: ["mcp.example.com"], allowedOrigins: [] }));
 */
export function dnsRebindingProtection(options: { allowedHosts?: readonly string[]; allowedOrigins?: readonly string[] }) {
  const hosts = new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase()));
  const origins = new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/$/, "")));
  return (req: Request, res: Response, next: NextFunction): void => {
    const hostHeader = req.headers.host ?? "";
    const hostname = hostnameOfHostHeader(hostHeader).toLowerCase();
    if (!isLoopbackHostname(hostname) && !hosts.has(hostname) && !hosts.has(hostHeader.toLowerCase())) {
      sendJsonRpcError(res, 403, -32000, `Forbidden: Host "${hostname}" is not allowed. Add it to http.allowedHosts to serve it.`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      let allowed = origins.has(origin.toLowerCase());
      if (!allowed) {
        try {
          allowed = isLoopbackHostname(new URL(origin).hostname);
        } catch {
          allowed = false;
        }
      }
      if (!allowed) {
        sendJsonRpcError(res, 403, -32000, `Forbidden: Origin "${origin}" is not allowed. Add it to http.allowedOrigins to serve it.`);
        return;
      }
    }
    next();
  };
}
