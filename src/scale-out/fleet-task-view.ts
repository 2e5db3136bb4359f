/**
 * The tasks this instance made, as it last wrote them (fleet-tasks.ts): its own view of the fleet's tasks, which
 * `/metrics` and the operator page read (each instance counts its own, so a fleet's sum counts each task once), and
 * what tells a lease renewal (only `leaseUntil` moved) from a change listeners must hear. Bounded: a task goes when its
 * TTL runs out, and beyond the most kept the oldest finished one goes first.
 */
import type { Clock } from "../clock.js";
import { type FleetTask, isFinished, taskJson } from "./fleet-task.js";

function copy(task: FleetTask): FleetTask {
  return structuredClone(task);
}

/**
 * @example
 * const view = new FleetTaskView(clock, 10_000); view.add(task); view.counts() // { working: 1, … }
 */
export class FleetTaskView {
  private readonly tasks = new Map<string, FleetTask>();

  constructor(
    private readonly clock: Clock,
    private readonly most: number,
  ) {}

  /** A task made here. */
  add(task: FleetTask): void {
    this.sweep();
    this.tasks.set(task.taskId, copy(task));
    if (this.tasks.size <= this.most) return;
    const oldestFinished = [...this.tasks.values()].find((t) => isFinished(t.status));
    this.tasks.delete(oldestFinished?.taskId ?? this.tasks.keys().next().value!);
  }

  /** A task made here, written again; true when only its lease moved (a renewal). Tasks made elsewhere are not kept. */
  update(task: FleetTask): boolean {
    const before = this.tasks.get(task.taskId);
    if (before === undefined) return false;
    this.tasks.set(task.taskId, copy(task));
    return !isFinished(task.status) && taskJson(before) === taskJson(task);
  }

  /** What this instance wrote last for a task it made, or undefined. */
  get(taskId: string): FleetTask | undefined {
    return this.tasks.get(taskId);
  }

  /** Takes what Redis holds for a task made here that another instance finished (its lease had run out). */
  replace(task: FleetTask): void {
    if (this.tasks.has(task.taskId)) this.tasks.set(task.taskId, copy(task));
  }

  counts(): Record<string, number> {
    this.sweep();
    const counts: Record<string, number> = { working: 0, input_required: 0, completed: 0, failed: 0, cancelled: 0 };
    for (const task of this.tasks.values()) counts[task.status] = (counts[task.status] ?? 0) + 1;
    return counts;
  }

  /** Newest first. */
  recent(limit: number): FleetTask[] {
    this.sweep();
    return [...this.tasks.values()]
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit)
      .map(copy);
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [id, task] of this.tasks) if (now >= task.createdAt + task.ttlMs) this.tasks.delete(id);
  }
}
