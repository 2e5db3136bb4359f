/**
 * What the tasks tests share: a raw 2026-07-28 client that declares (or not) the tasks extension per request and can
 * carry a bearer token, polling until a task reaches a status, and a listen stream read event by event.
 */
import assert from "node:assert/strict";
import { lastRpcMessage, modernHeaders } from "../helpers/http-host.js";

export const TASKS = "io.modelcontextprotocol/tasks";

let nextId = 1;

/** The `_meta` of a 2026-07-28 request, declaring the tasks extension unless `tasks` is false. */
export function metaOf(tasks = true): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": tasks ? { extensions: { [TASKS]: {} }, elicitation: { form: {} } } : {},
    "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "1" },
  };
}

/** The name `Mcp-Name` mirrors for a method (the tool, or the task id), base64-wrapped when a header cannot carry it. */
function nameOf(method: string, params: Record<string, unknown>): string | undefined {
  const name = method === "tools/call" ? String(params.name) : method.startsWith("tasks/") && typeof params.taskId === "string" ? params.taskId : undefined;
  if (name === undefined || /^[\x20-\x7e]*$/.test(name)) return name;
  return `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
}

export interface RpcAnswer {
  status: number;
  result?: any;
  error?: { code: number; message: string; data?: any };
}

/**
 * One 2026-07-28 request; `tasks: false` leaves the extension out of the request's capabilities.
 * @example await rpc(url, "tools/call", { name: "job", arguments: {} })
 */
export async function rpc(url: URL, method: string, params: Record<string, unknown>, options: { tasks?: boolean; token?: string } = {}): Promise<RpcAnswer> {
  const name = nameOf(method, params);
  const response = await fetch(url, {
    method: "POST",
    headers: { ...modernHeaders(method, name), ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }) },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: metaOf(options.tasks ?? true) } }),
  });
  const text = await response.text();
  const message = text === "" ? undefined : lastRpcMessage(text);
  return {
    status: response.status,
    ...(message?.result === undefined ? {} : { result: message.result }),
    ...(message?.error === undefined ? {} : { error: message.error }),
  };
}

/** Calls a tool and asserts it was answered with a task; returns its id. */
export async function startTask(url: URL, name: string, args: Record<string, unknown> = {}, token?: string): Promise<string> {
  const answer = await rpc(url, "tools/call", { name, arguments: args }, token === undefined ? {} : { token });
  assert.equal(answer.result?.resultType, "task", `${name} was answered with a task: ${JSON.stringify(answer)}`);
  return answer.result.taskId as string;
}

/** Polls `tasks/get` (without sleeping between polls longer than needed) until the task has `status`. */
export async function untilStatus(url: URL, taskId: string, status: string, token?: string, limit = 2_000): Promise<any> {
  for (let poll = 0; poll < limit; poll++) {
    const answer = await rpc(url, "tasks/get", { taskId }, token === undefined ? {} : { token });
    assert.equal(answer.error, undefined, JSON.stringify(answer));
    if (answer.result.status === status) return answer.result;
    assert.ok(
      !["completed", "failed", "cancelled"].includes(answer.result.status) || answer.result.status === status,
      `task ended ${answer.result.status}, not ${status}`,
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`task ${taskId} did not reach ${status}`);
}
