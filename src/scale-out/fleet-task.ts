/**
 * One MCP task as the fleet keeps it in Redis (fleet-tasks.ts): the same fields as the host's `StoredTask`
 * (src/tasks/task.ts) — scale-out stands on the base files alone, so the shape is written here again and the command,
 * which sees both, checks they match — and how it is written: its JSON without its lease (a renewal changes only the
 * lease, so it is a field of its own), and read back from the JSON and the lease field.
 */

export type FleetTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as the host keeps it (src/tasks/task.ts's `StoredTask`). */
export interface FleetTask {
  readonly taskId: string;
  readonly owner: string;
  status: FleetTaskStatus;
  statusMessage?: string;
  readonly createdAt: number;
  lastUpdatedAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly tool: string;
  readonly toolset: string;
  readonly extension: string;
  readonly instance: string;
  leaseUntil?: number;
  inputRequests?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** A request for the instance that runs a task (src/tasks/task-store.ts's `TaskSignal`). */
export type FleetTaskSignal =
  | { readonly kind: "cancel"; readonly taskId: string; readonly instance: string }
  | { readonly kind: "input"; readonly taskId: string; readonly instance: string; readonly responses: Record<string, unknown> };

const FINISHED: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** True for `completed`, `failed` and `cancelled`: nothing changes a task after that. */
export function isFinished(status: string): boolean {
  return FINISHED.has(status);
}

/**
 * The task's JSON without its lease: what Redis keeps as the task, and what a renewal leaves unchanged.
 * @example
 * taskJson(task) === taskJson({ ...task, leaseUntil: later }) // true
 */
export function taskJson(task: FleetTask): string {
  const { leaseUntil: _lease, ...rest } = task;
  return JSON.stringify(rest);
}

/** The lease as Redis keeps it: whole milliseconds, or "" for none. */
export function leaseField(task: FleetTask): string {
  return task.leaseUntil === undefined ? "" : String(Math.ceil(task.leaseUntil));
}

/**
 * A task from what Redis holds (its parsed JSON and its lease field), or undefined when it is not one.
 * @example
 * taskFrom(parsedJson(held.task), held.lease)
 */
export function taskFrom(value: unknown, lease: unknown): FleetTask | undefined {
  const task = value as FleetTask | null | undefined;
  if (typeof task?.taskId !== "string" || typeof task.owner !== "string" || typeof task.status !== "string") return undefined;
  delete task.leaseUntil;
  const until = Number(lease);
  if (lease !== null && lease !== undefined && lease !== "" && Number.isFinite(until)) task.leaseUntil = until;
  return task;
}

/** JSON parsed, or undefined when it is not JSON (what another writer put on a channel). */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
