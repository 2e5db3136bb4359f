/**
 * The shape check of a tool's task settings (docs/tasks.md): `taskSupport`, `taskAfterMs` and `taskTtlMs`. A wrong
 * value would otherwise turn a tool into a task it cannot be, or keep its tasks for a time nobody meant: it is
 * refused with the extension, like any other wrong shape.
 */
import { describeValue } from "../describe-value.js";

const TASK_SUPPORT = ["never", "optional", "required"];

/** The longest `taskAfterMs` or `taskTtlMs` a tool may ask for: a day (the host's own bounds may be tighter). */
const MAX_TASK_MS = 86_400_000;

function isWholeMs(value: unknown, min: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= MAX_TASK_MS;
}

/**
 * @example
 * taskProblems("tools[0] (\"export\")", { taskSupport: "sometimes" }) // ['tools[0] ("export"): taskSupport must be …']
 */
export function taskProblems(where: string, tool: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const { taskSupport, taskAfterMs, taskTtlMs } = tool;
  if (taskSupport !== undefined && !TASK_SUPPORT.includes(taskSupport as string))
    problems.push(`${where}: taskSupport must be "never", "optional" or "required" (got ${describeValue(taskSupport)}); leave it out for "never"`);
  if (taskAfterMs !== undefined && !isWholeMs(taskAfterMs, 0))
    problems.push(`${where}: taskAfterMs must be a whole number of milliseconds from 0 to ${MAX_TASK_MS} (got ${describeValue(taskAfterMs)})`);
  if (taskTtlMs !== undefined && !isWholeMs(taskTtlMs, 1))
    problems.push(`${where}: taskTtlMs must be a whole number of milliseconds from 1 to ${MAX_TASK_MS} (got ${describeValue(taskTtlMs)})`);
  const asksForTask = taskAfterMs !== undefined || taskTtlMs !== undefined;
  if (asksForTask && (taskSupport === undefined || taskSupport === "never"))
    problems.push(`${where}: taskAfterMs and taskTtlMs apply only to a tool with taskSupport "optional" or "required"; add taskSupport or leave them out`);
  return problems;
}
