/**
 * The MCP Tasks fixtures (SEP-2663) the official suite's `tasks-*` scenarios call: a sync-only `greet`; `slow_compute`,
 * which sleeps and is cancelled while it sleeps; `failing_job` (task support required), which ends with a tool error;
 * `protocol_error_job`, which fails with a JSON-RPC error; `confirm_delete` and `multi_input`, which ask the client
 * once they run as tasks; and `test_tool_with_task` (required), which asks on the request (multi-round-trip) and then
 * runs as a task. Each runs on the host's task machinery like any extension's tool (docs/tasks.md).
 */
import { acceptedContent, defineTool, inputRequired, invalidParams, type ExtensionContext, type InputRequest, type ToolContext, type ToolSpec } from "mcp-host";
import { NO_ARGUMENTS } from "./arguments.js";

function text(value: string) {
  return { content: [{ type: "text" as const, text: value }] };
}

/** Waits `ms` on the host's clock, or rejects when the call's signal aborts (a task's `tasks/cancel`). */
function sleep(context: () => ExtensionContext | undefined, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const clock = context()?.clock;
    const done = () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    const timer = clock ? clock.setTimeout(done, ms) : undefined;
    function onAbort() {
      timer?.clear();
      reject(signal.reason);
    }
    signal.addEventListener("abort", onAbort, { once: true });
    if (timer === undefined) done();
  });
}

function confirmForm(message: string, field: string): InputRequest {
  return inputRequired.elicit({
    mode: "form",
    message,
    requestedSchema: { type: "object", properties: { [field]: { type: "boolean" } }, required: [field] } as never,
  });
}

/** A task's status: what `tasks/get` shows while it works. */
function status(ctx: ToolContext, message: string): void {
  ctx.task?.status(message);
}

/**
 * The fixtures, reading the host's clock from the extension's setup context.
 * @example
 * tools: [...taskTools(() => context)]
 */
export function taskTools(context: () => ExtensionContext | undefined): ToolSpec<any>[] {
  return [
    defineTool({
      name: "greet",
      description: "Tasks fixture, sync only: returns Hello, {name}!",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      handler: (args) => text(`Hello, ${String(args.name)}!`),
    }),
    defineTool({
      name: "slow_compute",
      description: "Tasks fixture: sleeps `seconds` seconds, then answers; cancelled while it sleeps. seconds: 0 answers at once.",
      inputSchema: {
        type: "object",
        properties: { seconds: { type: "number", minimum: 0, maximum: 600 }, label: { type: "string" } },
        required: ["seconds"],
      },
      taskSupport: "optional",
      handler: async (args, ctx) => {
        const seconds = Number(args.seconds);
        const label = typeof args.label === "string" ? args.label : "compute";
        status(ctx, `computing ${label} for ${seconds} s`);
        await sleep(context, seconds * 1000, ctx.signal);
        return text(`computed ${label} after ${seconds} s`);
      },
    }),
    defineTool({
      name: "failing_job",
      description: "Tasks fixture (task support required): runs about a second, then ends with a tool execution error.",
      inputSchema: NO_ARGUMENTS,
      taskSupport: "required",
      handler: async (_args, ctx) => {
        await sleep(context, 1000, ctx.signal);
        return { content: [{ type: "text" as const, text: "failing_job failed: the job could not complete" }], isError: true };
      },
    }),
    defineTool({
      name: "protocol_error_job",
      description: "Tasks fixture: fails with a JSON-RPC error (a protocol-level error), so its task ends failed.",
      inputSchema: NO_ARGUMENTS,
      taskSupport: "optional",
      handler: async (_args, ctx) => {
        await ctx.task?.start("about to fail");
        throw invalidParams("protocol_error_job: the job's request cannot be served (a protocol-level error)");
      },
    }),
    defineTool({
      name: "confirm_delete",
      description: "Tasks fixture: runs as a task, asks the client to confirm (elicitation), then completes.",
      inputSchema: { type: "object", properties: { filename: { type: "string" } } },
      taskSupport: "optional",
      handler: async (args, ctx) => {
        const filename = typeof args.filename === "string" ? args.filename : "the file";
        const answer = acceptedContent<{ confirm?: unknown }>(ctx.inputResponses, "confirm");
        if (answer === undefined) {
          await ctx.task?.start(`waiting to delete ${filename}`);
          return inputRequired({ inputRequests: { confirm: confirmForm(`Delete ${filename}?`, "confirm") } });
        }
        return text(answer.confirm === true ? `deleted ${filename}` : `kept ${filename}`);
      },
    }),
    defineTool({
      name: "multi_input",
      description: "Tasks fixture: runs as a task and asks two questions at once; completes once both are answered.",
      inputSchema: NO_ARGUMENTS,
      taskSupport: "optional",
      handler: async (_args, ctx) => {
        const first = acceptedContent(ctx.inputResponses, "first");
        const second = acceptedContent(ctx.inputResponses, "second");
        if (first === undefined || second === undefined) {
          await ctx.task?.start("waiting for two answers");
          return inputRequired({
            inputRequests: { first: confirmForm("First question: go on?", "confirm"), second: confirmForm("Second question: go on?", "confirm") },
          });
        }
        return text(`both answered: ${JSON.stringify(first)} ${JSON.stringify(second)}`);
      },
    }),
    defineTool({
      name: "test_tool_with_task",
      description: "Tasks fixture (task support required): asks for user_name on the request, then runs as a task that greets them.",
      inputSchema: NO_ARGUMENTS,
      taskSupport: "required",
      handler: async (_args, ctx) => {
        const name = acceptedContent<{ name?: unknown }>(ctx.inputResponses, "user_name")?.name;
        if (typeof name !== "string") {
          return inputRequired({
            inputRequests: {
              user_name: inputRequired.elicit({
                mode: "form",
                message: "What is your name?",
                requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as never,
              }),
            },
          });
        }
        await ctx.task?.start(`greeting ${name}`);
        await sleep(context, 200, ctx.signal);
        return text(`Hello, ${name}! (from a task)`);
      },
    }),
  ];
}
