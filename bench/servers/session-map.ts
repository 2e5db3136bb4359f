/**
 * The session bookkeeping the sessionful SDK peers (v1, and v2 in the 2025 era) write as the SDKs' own examples do:
 * transports by `Mcp-Session-Id`, a 404 for an id it does not know, a transport forgotten once it closes, and all
 * closed when the peer stops. Kept in one place so the two peers differ only where the SDKs do.
 */
import type { Request, Response } from "express";

/** What the map needs of a session transport (both SDKs' streamable HTTP server transports have it). */
export interface SessionTransport {
  sessionId?: string | undefined;
  onclose?: (() => void) | undefined;
  close(): Promise<void>;
}

/**
 * Transports by session id.
 * @example
 * const sessions = new SessionMap<StreamableHTTPServerTransport>();
 * sessions.forgetOnClose(transport); // before server.connect(transport), which chains onclose
 * await sessions.existing(req, res)?.handleRequest(req, res, req.body);
 */
export class SessionMap<T extends SessionTransport> extends Map<string, T> {
  /** Removes the transport once it closes; set before `connect`, so the SDK's own onclose chains after it. */
  forgetOnClose(transport: T): void {
    transport.onclose = () => {
      if (transport.sessionId) this.delete(transport.sessionId);
    };
  }

  /** The transport of the request's `Mcp-Session-Id`, or undefined after answering 404 "Session not found". */
  existing(req: Request, res: Response): T | undefined {
    const id = req.headers["mcp-session-id"];
    const transport = typeof id === "string" ? this.get(id) : undefined;
    if (!transport) res.status(404).json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
    return transport;
  }

  /** Closes every open session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.values()].map((t) => t.close()));
  }
}
