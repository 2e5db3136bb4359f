/**
 * Task status notifications on a listen stream (docs/tasks.md, SEP-2663 "Task Status Notifications"): a
 * `subscriptions/listen` whose filter names `taskIds` gets `notifications/tasks` — the task's whole `DetailedTask` —
 * each time one of those tasks changes, on whichever instance of a fleet it runs. The SDK's listen stream knows only
 * list changes and resource updates, so the host lays this on top of it: the SDK serves the rest of the filter, its
 * acknowledgement gains the task ids honoured, and the task notifications join its stream between its frames. Only
 * the caller's own tasks are honoured (another's id is silently left out of the acknowledgement, as an unknown one
 * is), a client that did not declare the tasks extension is refused with -32021, and each honoured task's current
 * state is sent right after the acknowledgement, so a task that finished before the stream opened is not missed.
 */
import { SUBSCRIPTION_ID_META_KEY } from "@modelcontextprotocol/server";
import { CLIENT_CAPABILITIES_META_KEY } from "@modelcontextprotocol/server";
import { detailedTask, isTerminal, type StoredTask } from "../../tasks/task.js";
import type { TaskStore } from "../../tasks/task-store.js";
import { declaresTasks, MISSING_CLIENT_CAPABILITY, TASKS_EXTENSION_ID } from "../../tasks/tasks-extension.js";

/** The most task ids one listen stream follows; the rest of a longer list is not honoured. */
export const MAX_LISTENED_TASKS = 64;

/** The SDK filter field that keeps its stream open when the task ids were all the client asked for; its events are dropped. */
const KEEP_OPEN = "resourcesListChanged";
const KEEP_OPEN_METHOD = "notifications/resources/list_changed";

interface ListenBody {
  id?: unknown;
  method?: unknown;
  params?: { notifications?: Record<string, unknown>; _meta?: Record<string, unknown> };
}

/** A listen request's answer before the SDK sees it: refused here, or served with task notifications laid on. */
export type TaskListen =
  | { kind: "refused"; id: string | number | null; code: number; message: string; data: unknown }
  | { kind: "follow"; wrap(response: Response): Response };

/** Whether a body is a `subscriptions/listen` request (only one may follow tasks: see `taskListenOf`). */
export function isListen(body: unknown): body is ListenBody {
  return (body as ListenBody | undefined)?.method === "subscriptions/listen";
}

/**
 * The task part of a listen request, or undefined when it names no task ids. The body the SDK then sees has no
 * `taskIds` (the SDK's filter schema does not know them).
 * @example
 * const listen = await taskListenOf(facts.body, { store, owner }); if (listen?.kind === "refused") …
 */
export async function taskListenOf(body: unknown, parts: { store: TaskStore; owner: string }): Promise<TaskListen | undefined> {
  if (!isListen(body)) return undefined;
  const filter = body.params?.notifications;
  const asked = filter?.taskIds;
  if (filter === undefined || asked === undefined) return undefined;
  const id = typeof body.id === "string" || typeof body.id === "number" ? body.id : null;
  const capabilities = body.params?._meta?.[CLIENT_CAPABILITIES_META_KEY] as Parameters<typeof declaresTasks>[0];
  if (!declaresTasks(capabilities))
    return {
      kind: "refused",
      id,
      code: MISSING_CLIENT_CAPABILITY,
      message: `Missing required client capability: task notifications need the "${TASKS_EXTENSION_ID}" extension declared on the request`,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
    };
  const ids = Array.isArray(asked) ? [...new Set(asked.filter((v): v is string => typeof v === "string"))].slice(0, MAX_LISTENED_TASKS) : [];
  const owned: StoredTask[] = [];
  for (const taskId of ids) {
    const task = await parts.store.get(taskId);
    if (task !== undefined && task.owner === parts.owner) owned.push(task);
  }
  delete filter.taskIds;
  const keptOpen = !Object.values(filter).some((value) => value === true || (Array.isArray(value) && value.length > 0));
  if (keptOpen) filter[KEEP_OPEN] = true;
  return { kind: "follow", wrap: (response) => followTasks(response, { store: parts.store, owned, keptOpen, subscriptionId: body.id }) };
}

/** The SDK's listen stream, its acknowledgement naming the tasks honoured, with their notifications joined in. */
function followTasks(response: Response, parts: { store: TaskStore; owned: StoredTask[]; keptOpen: boolean; subscriptionId: unknown }): Response {
  if (response.body === null || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return response;
  const source = response.body.getReader();
  const followed = new Set(parts.owned.filter((task) => !isTerminal(task.status)).map((task) => task.taskId));
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let stop: (() => void) | undefined;
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (frame: string) => {
        if (!closed) controller.enqueue(encoder.encode(frame));
      };
      const notify = (task: StoredTask) => {
        send(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...detailedTask(task), _meta: { [SUBSCRIPTION_ID_META_KEY]: parts.subscriptionId } } })}\n\n`,
        );
      };
      let pending = "";
      let acknowledged = false;
      try {
        for (;;) {
          const { done, value } = await source.read();
          if (done) break;
          pending += decoder.decode(value, { stream: true });
          for (let end = pending.indexOf("\n\n"); end >= 0; end = pending.indexOf("\n\n")) {
            const frame = pending.slice(0, end + 2);
            pending = pending.slice(end + 2);
            const passed = rewritten(frame, parts);
            if (passed !== undefined) send(passed);
            if (!acknowledged && passed?.includes("notifications/subscriptions/acknowledged")) {
              acknowledged = true;
              for (const task of parts.owned) notify(task);
              stop = parts.store.onChange((task) => {
                if (!followed.has(task.taskId)) return;
                notify(task);
                if (isTerminal(task.status)) followed.delete(task.taskId);
              });
            }
          }
        }
      } catch {
        // The SDK's stream failed or was cancelled: end ours too.
      }
      stop?.();
      if (!closed) {
        closed = true;
        controller.close();
      }
    },
    cancel(reason) {
      closed = true;
      stop?.();
      return source.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, headers: response.headers });
}

/** One SSE frame of the SDK's stream as the client gets it: the acknowledgement with the task ids, a kept-open event dropped. */
function rewritten(frame: string, parts: { owned: StoredTask[]; keptOpen: boolean }): string | undefined {
  const data = frame.split("\n").find((line) => line.startsWith("data: "));
  if (data === undefined) return frame;
  let message: { method?: unknown; params?: { notifications?: Record<string, unknown> } };
  try {
    message = JSON.parse(data.slice(6)) as typeof message;
  } catch {
    return frame;
  }
  if (parts.keptOpen && message.method === KEEP_OPEN_METHOD) return undefined;
  if (message.method !== "notifications/subscriptions/acknowledged") return frame;
  const notifications = { ...(message.params?.notifications ?? {}) };
  if (parts.keptOpen) delete notifications[KEEP_OPEN];
  notifications.taskIds = parts.owned.map((task) => task.taskId);
  return `event: message\ndata: ${JSON.stringify({ ...message, params: { ...message.params, notifications } })}\n\n`;
}
