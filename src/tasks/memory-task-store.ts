/**
 * The task store of a single instance (docs/tasks.md): a bounded table in memory. A task is kept for its TTL from its
 * creation; beyond `maxTasks` the oldest finished tasks go first, and when every kept task is still running a new one
 * is refused (`TASK_LIMIT`) rather than anything held without bound. Signals and changes are delivered in-process.
 */
import type { Clock } from "../clock.js";
import { McpHostError } from "../errors.js";
import { isExpired, isTerminal, type StoredTask } from "./task.js";
import type { TaskSignal, TaskStore } from "./task-store.js";

function copy(task: StoredTask): StoredTask {
  return structuredClone(task);
}

/**
 * @example
 * const store = new MemoryTaskStore({ clock, maxTasks: 10_000 });
 */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly signalListeners = new Set<(signal: TaskSignal) => void>();
  private readonly changeListeners = new Set<(task: StoredTask) => void>();

  constructor(private readonly options: { clock: Clock; maxTasks: number }) {}

  async create(task: StoredTask): Promise<void> {
    this.sweep();
    if (this.tasks.size >= this.options.maxTasks) this.dropOldestFinished();
    if (this.tasks.size >= this.options.maxTasks)
      throw new McpHostError(
        "TASK_LIMIT",
        `this server keeps at most ${this.options.maxTasks} tasks (tasks.maxTasks) and every one is still running; retry later`,
      );
    this.tasks.set(task.taskId, copy(task));
    this.changed(task);
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    const task = this.tasks.get(taskId);
    if (task === undefined) return undefined;
    if (isExpired(task, this.options.clock.now())) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return copy(task);
  }

  async put(task: StoredTask): Promise<void> {
    if (!this.tasks.has(task.taskId)) return;
    this.tasks.set(task.taskId, copy(task));
    this.changed(task);
  }

  async activeFor(owner: string): Promise<number> {
    let active = 0;
    const now = this.options.clock.now();
    for (const task of this.tasks.values()) if (task.owner === owner && !isTerminal(task.status) && !isExpired(task, now)) active++;
    return active;
  }

  async signal(signal: TaskSignal): Promise<void> {
    for (const listener of this.signalListeners) listener(signal);
  }

  onSignal(listener: (signal: TaskSignal) => void): () => void {
    this.signalListeners.add(listener);
    return () => this.signalListeners.delete(listener);
  }

  onChange(listener: (task: StoredTask) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  counts(): Record<string, number> {
    const counts: Record<string, number> = { working: 0, input_required: 0, completed: 0, failed: 0, cancelled: 0 };
    for (const task of this.tasks.values()) counts[task.status] = (counts[task.status] ?? 0) + 1;
    return counts;
  }

  recent(limit: number): StoredTask[] {
    return [...this.tasks.values()]
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit)
      .map(copy);
  }

  async close(): Promise<void> {
    this.signalListeners.clear();
    this.changeListeners.clear();
  }

  private changed(task: StoredTask): void {
    for (const listener of this.changeListeners) {
      try {
        listener(copy(task));
      } catch {
        // A listener's failure (a closed stream) never fails the task's writer.
      }
    }
  }

  /** Lets expired tasks go. */
  private sweep(): void {
    const now = this.options.clock.now();
    for (const [id, task] of this.tasks) if (isExpired(task, now)) this.tasks.delete(id);
  }

  /** Makes room by letting the oldest finished task go. */
  private dropOldestFinished(): void {
    for (const [id, task] of this.tasks) {
      if (isTerminal(task.status)) {
        this.tasks.delete(id);
        return;
      }
    }
  }
}
