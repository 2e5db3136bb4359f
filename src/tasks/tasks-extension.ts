/**
 * The MCP Tasks extension as the host speaks it (`io.modelcontextprotocol/tasks`, SEP-2663, the 2026-07-28 lifecycle;
 * docs/tasks.md): its id and capability, declared in one place, and how a request shows that its client declared it —
 * per request in the 2026-07-28 envelope (SEP-2575), or for the session in a 2025-era `initialize`. A client that did
 * not declare it gets no task, and `-32021` (Missing Required Client Capability) for the task methods and for a tool
 * that only runs as a task. The wire shapes come from the ecosystem's package, `@modelcontextprotocol/ext-tasks`.
 */
import { ClientTaskCapabilityEnvelopeV2Schema, TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { ProtocolError, type ClientCapabilities } from "@modelcontextprotocol/server";

export const TASKS_EXTENSION_ID = TASKS_EXTENSION_ID_V2;

/** What the host advertises under `capabilities.extensions` (no settings are defined: an empty object says "supported"). */
export const TASKS_CAPABILITY = Object.freeze({ [TASKS_EXTENSION_ID]: Object.freeze({}) });

/** The JSON-RPC code of a request the server cannot serve without a capability the client did not declare (SEP-2575). */
export const MISSING_CLIENT_CAPABILITY = -32021;

/**
 * True when these client capabilities declare the tasks extension.
 * @example
 * declaresTasks({ extensions: { "io.modelcontextprotocol/tasks": {} } }) // true
 */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities !== undefined && ClientTaskCapabilityEnvelopeV2Schema.safeParse(capabilities).success;
}

/**
 * The -32021 refusal, naming the extension the client must declare.
 * @example
 * throw missingTasksCapability("tasks/get needs the tasks extension");
 */
export function missingTasksCapability(why: string): ProtocolError {
  return new ProtocolError(
    MISSING_CLIENT_CAPABILITY,
    `Missing required client capability: ${why}. Declare "${TASKS_EXTENSION_ID}" under capabilities.extensions.`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
    },
  );
}
