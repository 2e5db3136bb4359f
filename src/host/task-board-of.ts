/**
 * The host's task board (docs/tasks.md), made from `HostOptions.tasks`: the deployment's store (a fleet's Redis) or
 * one in memory, its limits, and the observer that logs and counts each task's start and end.
 */
import type { Clock } from "../clock.js";
import type { Logger } from "../logger.js";
import { MemoryTaskStore } from "../tasks/memory-task-store.js";
import { TaskBoard } from "../tasks/task-board.js";
import type { HostOptions } from "./host-options.js";

/** Tasks kept in memory at once by default. */
export const DEFAULT_MAX_TASKS = 10_000;

/**
 * @example
 * const board = taskBoardFor(options, clock, logger);
 */
export function taskBoardFor(options: HostOptions, clock: Clock, logger: Logger): TaskBoard {
  const tasks = options.tasks ?? {};
  const observer = options.observer;
  return new TaskBoard({
    store: tasks.store ?? new MemoryTaskStore({ clock, maxTasks: tasks.maxTasks ?? DEFAULT_MAX_TASKS }),
    clock,
    logger: logger.child("tasks"),
    instance: tasks.instance ?? "local",
    ...(tasks.limits === undefined ? {} : { limits: tasks.limits }),
    ...(observer?.task === undefined ? {} : { onEvent: (event) => observer.task?.(event) }),
  });
}
