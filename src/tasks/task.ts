/**
 * One task as the host keeps it (docs/tasks.md): what the wire's `Task` says (status, times, TTL, poll interval, the
 * questions it waits on, its result or error), plus what only the host needs — whose it is, which tool it runs, which
 * instance runs it and until when that instance holds it (its lease). It is plain JSON, so a fleet keeps it in Redis.
 * The wire shapes are the tasks extension's 2026-07-28 ones: `CreateTaskResult` (flat, `resultType: "task"`), and the
 * `DetailedTask` that `tasks/get` and `notifications/tasks` carry.
 */

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A JSON-RPC error, as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

export interface StoredTask {
  readonly taskId: string;
  /** Who may see and steer it: the caller that made it (docs/tasks.md, "Whose task"). */
  readonly owner: string;
  status: TaskStatus;
  statusMessage?: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  lastUpdatedAt: number;
  /** How long it is kept from its creation. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** What it runs, for operators (never its arguments or its result). */
  readonly tool: string;
  readonly toolset: string;
  readonly extension: string;
  /** The instance that runs it (a fleet's instance id; the process's own otherwise). */
  readonly instance: string;
  /** While it is not finished, in a fleet: past this instant its instance is taken to be gone (epoch ms). */
  leaseUntil?: number;
  /** While `input_required`: the questions outstanding, under keys unique for the task's life. */
  inputRequests?: Record<string, unknown>;
  /** When `completed`: the tool's result. */
  result?: Record<string, unknown>;
  /** When `failed`: the JSON-RPC error. */
  error?: TaskError;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** True for `completed`, `failed` and `cancelled`: nothing changes a task after that. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** True once a task's TTL has run out (it is then gone for every caller). */
export function isExpired(task: StoredTask, now: number): boolean {
  return now >= task.createdAt + task.ttlMs;
}

/** The `Task` fields every shape carries. */
function taskFields(task: StoredTask): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/**
 * The `CreateTaskResult` a `tools/call` is answered with: the task, flat, with `resultType: "task"`.
 * @example
 * createTaskResult(task) // { resultType: "task", taskId: "…", status: "working", createdAt: "…", … }
 */
export function createTaskResult(task: StoredTask): Record<string, unknown> {
  return { resultType: "task", ...taskFields(task) };
}

/**
 * The `DetailedTask` of `tasks/get` and `notifications/tasks`: the task, with what its status inlines — the
 * outstanding `inputRequests`, the `result`, or the `error`.
 * @example
 * detailedTask(task).result // the tool's result, once completed
 */
export function detailedTask(task: StoredTask): Record<string, unknown> {
  const detailed = taskFields(task);
  if (task.status === "input_required") detailed.inputRequests = task.inputRequests ?? {};
  // The inlined result is a 2026-07-28 `CallToolResult`, whose `resultType` the wire requires.
  else if (task.status === "completed") detailed.result = { ...(task.result ?? { content: [] }), resultType: "complete" };
  else if (task.status === "failed") detailed.error = task.error ?? { code: -32603, message: "Internal error" };
  return detailed;
}

/**
 * Who a task belongs to, as an operator reads it: the token's subject (and client), a 2025 session, or nobody in
 * particular — never the whole token identity the owner key holds.
 * @example
 * callerLabel('["token","https://id.example.com/","alice","web-app"]') // "alice (web-app)"
 */
export function callerLabel(owner: string): string {
  let parts: unknown;
  try {
    parts = JSON.parse(owner);
  } catch {
    return "unknown";
  }
  if (!Array.isArray(parts)) return "unknown";
  if (parts[0] === "token") return `${String(parts[2])}${parts[3] ? ` (${String(parts[3])})` : ""}`;
  if (parts[0] === "session") return `session ${String(parts[1]).slice(0, 8)}`;
  return String(parts[0]);
}
