/**
 * A cheap first look at which protocol era a request speaks. A request that names a 2026 protocol version (header
 * or envelope) is modern and skips the SDK's full classification, which copies the request; anything else is
 * classified by the SDK (`isLegacyRequest`), so this can only ever save work, never change a verdict for legacy
 * traffic.
 */
import type { IncomingMessage } from "node:http";
import { PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";

/** The first value of a request header. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * @example
 * if (looksModern(req, req.body)) return serveModern();
 */
export function looksModern(req: IncomingMessage, body: unknown): boolean {
  const version = header(req, "mcp-protocol-version");
  if (version !== undefined && version >= "2026-") return true;
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  const enveloped = meta?.[PROTOCOL_VERSION_META_KEY];
  return typeof enveloped === "string" && enveloped >= "2026-";
}

/** The parsed JSON body express left on the request. */
export function bodyOf(req: IncomingMessage): unknown {
  return (req as { body?: unknown }).body;
}
