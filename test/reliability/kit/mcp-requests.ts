/**
 * Well-formed MCP requests over plain HTTP for the reliability suite: a 2025-era session (initialize, then calls
 * on its Mcp-Session-Id, then DELETE) and 2026-07-28 calls, with nothing but fetch — so hundreds can be in flight
 * without an SDK client each.
 */
const BASE = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** The JSON-RPC message of an answer (plain JSON, or the first event of a stream). */
export async function messageOf(response: Response): Promise<any> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    const data = text.split("\n").find((l) => l.startsWith("data: "));
    return data === undefined ? undefined : JSON.parse(data.slice(6));
  }
}

/**
 * A 2026-07-28 tools/call.
 * @example
 * const answer = await modernCall(url, "echo", { text: "hi" });
 */
export function modernCall(url: URL, name: string, args: Record<string, unknown>, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    ...init,
    method: "POST",
    headers: { ...BASE, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: MODERN_META } }),
  });
}

/** Opens a 2025-era session; resolves with its id, or with the refusal when there is none. */
export async function openSession(url: URL): Promise<{ id?: string; response: Response }> {
  const response = await fetch(url, {
    method: "POST",
    headers: BASE,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "reliability", version: "1" } },
    }),
  });
  const id = response.headers.get("mcp-session-id") ?? undefined;
  if (id === undefined) return { response };
  await response.arrayBuffer();
  const initialized = await fetch(url, {
    method: "POST",
    headers: { ...BASE, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.arrayBuffer();
  return { id, response };
}

/** Any request on a 2025-era session. */
export function sessionRequest(url: URL, session: string, method: string, params: Record<string, unknown>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...BASE, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 3, method, params }),
  });
}

/** A call on a 2025-era session. */
export function sessionCall(url: URL, session: string, name: string, args: Record<string, unknown>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...BASE, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } }),
  });
}

/** Ends a 2025-era session. */
export async function endSession(url: URL, session: string): Promise<number> {
  const response = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } });
  await response.arrayBuffer();
  return response.status;
}
