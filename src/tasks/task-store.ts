/**
 * Where a deployment keeps its tasks (docs/tasks.md, "One task store"): in memory by default, in Redis in a fleet
 * (scale-out/fleet-tasks.ts, which has the same shape). A task is written by the instance that runs it; any instance
 * reads it (`tasks/get`), and steering a task — cancelling it, answering its questions — is a signal to the instance
 * that runs it. Every change to a task is heard by every instance, so a listen stream anywhere can follow it.
 */
import type { StoredTask } from "./task.js";

/** A request for the instance that runs a task: stop it, or take the client's answers to its questions. */
export type TaskSignal =
  | { readonly kind: "cancel"; readonly taskId: string; readonly instance: string }
  | { readonly kind: "input"; readonly taskId: string; readonly instance: string; readonly responses: Record<string, unknown> };

export interface TaskStore {
  /** Records a new task; resolves once any instance can read it (a `CreateTaskResult` goes out only then). */
  create(task: StoredTask): Promise<void>;
  /** The task as last written, or undefined when there is none (or it expired). */
  get(taskId: string): Promise<StoredTask | undefined>;
  /** Writes a task's new state (its running instance does; any instance may fail one whose lease ran out). */
  put(task: StoredTask): Promise<void>;
  /** How many unfinished tasks `owner` has (its share, `tasks.maxPerCaller`). */
  activeFor(owner: string): Promise<number>;
  /** Sends a signal to the instance that runs the task. */
  signal(signal: TaskSignal): Promise<void>;
  /** Hears the signals for tasks this instance runs. Returns the function that stops it. */
  onSignal(listener: (signal: TaskSignal) => void): () => void;
  /** Hears every change to any task, from any instance. Returns the function that stops it. */
  onChange(listener: (task: StoredTask) => void): () => void;
  /** How many tasks are kept now, by status (for `/metrics`); in a fleet, what this instance knows. */
  counts(): Record<string, number>;
  /** The tasks this store holds in this process, newest first (the operator page: never arguments or results). */
  recent(limit: number): StoredTask[];
  close(): Promise<void>;
}
