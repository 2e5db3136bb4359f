/**
 * The MCP requests the load generator sends and how each answer is checked, in both eras: a 2026-07-28 request
 * carries its version, method and name in headers and `_meta`; a 2025-era request rides a session opened with
 * `initialize`. A check returns undefined when the answer is right and a short reason when it is not: a wrong
 * answer fails the run, it is never counted as throughput.
 */
export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";

/** `modern`: 2026-07-28 requests, no session. `session`: 2025-era requests on an initialized session. */
export type Era = "modern" | "session";

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
  sessionId?: string;
}

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };

export function requestHeaders(era: Era, method: string, options: { name?: string; sessionId?: string; version?: string } = {}): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (era === "modern") {
    headers["mcp-protocol-version"] = MODERN;
    headers["mcp-method"] = method;
    if (options.name !== undefined) headers["mcp-name"] = options.name;
    return headers;
  }
  if (options.version) headers["mcp-protocol-version"] = options.version;
  if (options.sessionId) headers["mcp-session-id"] = options.sessionId;
  return headers;
}

export function callBody(era: Era, id: number, text: string): string {
  const params: Record<string, unknown> = { name: "echo", arguments: { text } };
  if (era === "modern") params._meta = MODERN_META;
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
}

export function listBody(era: Era, id: number): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: era === "modern" ? { _meta: MODERN_META } : {} });
}

export function initializeBody(id: number): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
  });
}

export const INITIALIZED_BODY = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

/** The JSON-RPC messages of a JSON body or of an SSE stream's `data:` lines. */
export function messagesOf(text: string, contentType: string): Array<Record<string, any>> {
  if (!contentType.includes("text/event-stream")) return text ? [JSON.parse(text)] : [];
  const messages: Array<Record<string, any>> = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data) messages.push(JSON.parse(data));
  }
  return messages;
}

/** The JSON-RPC result for `id`, or a reason why there is none. */
export function resultOf(answer: Answer, id: number): { result?: Record<string, any>; problem?: string } {
  const text = answer.body.toString("utf8");
  if (answer.status !== 200) return { problem: `HTTP ${answer.status}: ${text.slice(0, 300)}` };
  let messages: ReturnType<typeof messagesOf>;
  try {
    messages = messagesOf(text, answer.contentType);
  } catch {
    return { problem: `not JSON: ${text.slice(0, 300)}` };
  }
  return resultIn(messages, id, () => text);
}

/** The JSON-RPC result for `id` among parsed messages (`shown`: what to quote when there is none). */
function resultIn(messages: ReadonlyArray<Record<string, any>>, id: number, shown: () => string): { result?: Record<string, any>; problem?: string } {
  const message = messages.find((m) => m.id === id);
  if (!message) return { problem: `no answer for id ${id}: ${shown().slice(0, 300)}` };
  if (message.error) return { problem: `JSON-RPC error: ${JSON.stringify(message.error).slice(0, 300)}` };
  return { result: message.result as Record<string, any> };
}

function checkEcho({ result, problem }: { result?: Record<string, any>; problem?: string }, text: string): string | undefined {
  if (problem) return problem;
  if (result?.isError || result?.content?.[0]?.text !== text) return `not the echo of "${text}": ${JSON.stringify(result).slice(0, 300)}`;
  return undefined;
}

/** Right when the answer is this request's echoed text. */
export function checkCall(answer: Answer, id: number, text: string): string | undefined {
  return checkEcho(resultOf(answer, id), text);
}

/** The same check on one JSON-RPC message already parsed (a stdio line). */
export function checkCallMessage(message: Record<string, any>, id: number, text: string): string | undefined {
  return checkEcho(
    resultIn([message], id, () => JSON.stringify(message)),
    text,
  );
}

/** Right when the answer lists exactly `expected` tools, `echo` among them, each with an input schema. */
export function checkList(answer: Answer, id: number, expected: number): string | undefined {
  const { result, problem } = resultOf(answer, id);
  if (problem) return problem;
  const tools = result?.tools as Array<{ name?: string; inputSchema?: { type?: string } }> | undefined;
  if (!Array.isArray(tools) || tools.length !== expected) return `expected ${expected} tools, got ${Array.isArray(tools) ? tools.length : "none"}`;
  if (!tools.some((t) => t.name === "echo")) return "echo is not listed";
  if (tools.some((t) => t.inputSchema?.type !== "object")) return "a tool has no object input schema";
  return undefined;
}

/** Right when an `initialize` answer opened a session; returns the session id and the negotiated version. */
export function checkInitialize(answer: Answer, id: number): { sessionId?: string; version?: string; problem?: string } {
  const { result, problem } = resultOf(answer, id);
  if (problem) return { problem };
  if (!answer.sessionId) return { problem: "initialize answered without an Mcp-Session-Id" };
  if (typeof result?.protocolVersion !== "string") return { problem: `initialize result has no protocolVersion: ${JSON.stringify(result).slice(0, 200)}` };
  return { sessionId: answer.sessionId, version: result.protocolVersion };
}
