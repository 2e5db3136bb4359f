/**
 * The task methods on a per-request SDK server (docs/tasks.md): `tasks/get`, `tasks/update` and `tasks/cancel`, with
 * the extension's own parameter schemas, gated on the client's declaration of the extension (-32021 without it), and
 * answered for the caller alone. `tasks/result` and `tasks/list` (the 2025-11-25 experimental surface) stay unknown
 * methods (-32601), as SEP-2663 says. The capability itself is declared with the server's others (TASKS_CAPABILITY).
 */
import { CancelTaskRequestV2Schema, GetTaskRequestV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import * as z from "zod";
import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from "@modelcontextprotocol/server";
import type { TaskBoard } from "./task-board.js";
import { missingTasksCapability } from "./tasks-extension.js";

/** What the methods need to know of one request: whether its client declared the extension, and who it is. */
export interface TaskRequestFacts {
  declares(sdk: ServerContext): boolean;
  owner(sdk: ServerContext): string;
}

/**
 * @example
 * registerTaskMethods(server, board, { declares, owner });
 */
export function registerTaskMethods(server: Server, board: TaskBoard, facts: TaskRequestFacts): void {
  // The capability is checked before the parameters: a client that did not declare the extension is told that, not
  // that its parameters are wrong (SEP-2663 requires -32021 for every task method then).
  const handle = <P>(method: string, schema: ParamsSchema<P>, run: (params: P, owner: string) => Promise<Record<string, unknown>>) =>
    server.setRequestHandler(method, { params: ANY_PARAMS }, async (raw: unknown, sdk: ServerContext) => {
      if (!facts.declares(sdk)) throw missingTasksCapability(`${method} is part of the tasks extension, which this request's client did not declare`);
      // The SDK lifts a request's `inputResponses` out of its params (the multi-round-trip envelope): put them back.
      const lifted = sdk.mcpReq.inputResponses;
      const params = lifted === undefined || typeof raw !== "object" || raw === null ? raw : { inputResponses: lifted, ...raw };
      const parsed = schema.safeParse(params);
      if (!parsed.success)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Invalid params for ${method}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "params"}: ${i.message}`).join("; ")}`,
        );
      return run(parsed.data, facts.owner(sdk));
    });
  handle("tasks/get", GetTaskRequestV2Schema.shape.params, (params, owner) => board.get(params.taskId, owner));
  handle("tasks/update", UPDATE_PARAMS, async (params, owner) => {
    await board.update(params.taskId, owner, params.inputResponses as Record<string, unknown>);
    return {};
  });
  handle("tasks/cancel", CancelTaskRequestV2Schema.shape.params, async (params, owner) => {
    await board.cancel(params.taskId, owner);
    return {};
  });
}

/**
 * `tasks/update`'s params: each answer is checked only when its key is outstanding (running-task.ts), since the spec
 * says a server ignores answers to keys it did not ask — whatever their shape.
 */
const UPDATE_PARAMS = z.object({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()) });

/** A zod schema of a method's params, as the extension's package ships them. */
interface ParamsSchema<P> {
  safeParse(value: unknown): { success: true; data: P } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

/** Lets every params object through to the handler, which checks the capability first and then the params. */
const ANY_PARAMS = { "~standard": { version: 1 as const, vendor: "mcp-host", validate: (value: unknown) => ({ value }) } };
