/**
 * What following an upstream's task needs in both of its shapes (task-relay.ts for the 2026-07-28 lifecycle,
 * legacy-task-relay.ts for 2025-11-25's experimental tasks): the poll interval kept within bounds, a wait that the
 * call's cancellation cuts short, the code a failed task request is reported with, and the scrubbing of what is handed
 * on — the deployment's secrets redacted and the upstream's task id taken out, so it never reaches the client.
 */
import type { Clock } from "../../clock.js";
import { isMcpHostError, type McpHostErrorCode } from "../../errors.js";
import type { SecretRedactor } from "../../secret-redactor.js";

/** The poll interval's bounds: an upstream cannot make the gateway spin, nor wait longer than this between looks. */
const MIN_POLL_MS = 20;
const MAX_POLL_MS = 5_000;
/** Used when the upstream suggests none. */
export const DEFAULT_POLL_MS = 500;
/** What stands where the upstream's task id was, in anything relayed. */
const HIDDEN_ID = "<upstream task>";
/**
 * The shortest upstream task id taken out of relayed text: a shorter one ("7", "job-1") would mangle the text it
 * occurs in by chance. Such an id still never reaches the client as a task id (the client only ever gets the host's).
 */
const MIN_HIDDEN_ID_LENGTH = 8;

/**
 * The interval to poll at: the upstream's suggestion within bounds, else `fallback`.
 * @example
 * pollInterval(task.pollIntervalMs, 500) // 20 for a suggested 1, 5000 for a suggested 60000
 */
export function pollInterval(suggested: unknown, fallback: number): number {
  return typeof suggested === "number" && Number.isFinite(suggested) ? Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested)) : fallback;
}

/** The code a failed task request is reported with: an answer limit or a timeout keeps its own, anything else is MCP_CALL_FAILED. */
export function codeOf(error: unknown): McpHostErrorCode {
  for (const code of ["MCP_ANSWER_TOO_LARGE", "MCP_ANSWER_TOO_DEEP", "MCP_REQUEST_TIMEOUT"] as const) if (isMcpHostError(error, code)) return code;
  return "MCP_CALL_FAILED";
}

/**
 * Waits `ms` on the gateway's clock, or until `signal` aborts.
 * @example
 * await pause(clock, ctx.signal, interval);
 */
export function pause(clock: Clock, signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      timer.clear();
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * A scrubber for what one upstream task hands on: the deployment's secrets redacted and the task's id (when it is
 * long enough to be told from ordinary text) replaced.
 * @example
 * const scrub = taskScrubber(redactor, taskId); ctx.task?.status(scrub(statusMessage));
 */
export function taskScrubber(redactor: SecretRedactor, taskId: string): <T>(value: T) => T {
  const hiddenId = taskId.length >= MIN_HIDDEN_ID_LENGTH ? JSON.stringify(taskId).slice(1, -1) : "";
  return <T>(value: T): T => {
    const redacted = redactor.redactValue(value);
    if (hiddenId === "" || redacted === undefined) return redacted;
    const text = JSON.stringify(redacted);
    return text.includes(hiddenId) ? (JSON.parse(text.split(hiddenId).join(HIDDEN_ID)) as T) : redacted;
  };
}
