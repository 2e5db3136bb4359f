/**
 * The host's tasks (docs/tasks.md): it opens a task for a call that outgrew its request, answers `tasks/get`,
 * `tasks/update` and `tasks/cancel` for their owner alone, keeps a running task's lease while it works, and fails a
 * task whose instance stopped renewing its lease. A task belongs to its caller: another caller's request for it — or
 * for an id that was never made — gets the same -32602, so it learns nothing. Limits bound everything it keeps:
 * unfinished tasks per caller, tasks in all (the store), each task's TTL.
 */
import { randomUUID } from "node:crypto";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Clock, ClockTimer } from "../clock.js";
import { McpHostError } from "../errors.js";
import type { Logger } from "../logger.js";
import { RunningTask, type RoundInputs, type RoundOutcome } from "./running-task.js";
import { detailedTask, isExpired, isTerminal, type StoredTask, type TaskStatus } from "./task.js";
import type { TaskSignal, TaskStore } from "./task-store.js";

/** The bounds and defaults of a deployment's tasks (config `tasks:`; docs/tasks.md lists each). */
export interface TaskLimits {
  /** Unfinished tasks one caller may have at once (default 16). */
  maxPerCaller: number;
  /** How long a task is kept from its creation unless its tool says otherwise (default 1 h). */
  ttlMs: number;
  /** The longest TTL a tool may ask for (default 24 h). */
  maxTtlMs: number;
  /** The poll interval a task suggests to its client (default 1 s). */
  pollIntervalMs: number;
  /** In a fleet: how long a running task's instance holds it without renewing (default 30 s; renewed every third). */
  leaseMs?: number;
}

export const DEFAULT_TASK_LIMITS: TaskLimits = Object.freeze({ maxPerCaller: 16, ttlMs: 3_600_000, maxTtlMs: 86_400_000, pollIntervalMs: 1_000 });

/** What a started or ended task tells the operator (logs and metrics; never arguments or results). */
export interface TaskEvent {
  readonly task: StoredTask;
  readonly phase: "started" | "ended";
  /** From its creation to its end, for an ended task. */
  readonly durationMs?: number;
}

export interface TaskBoardOptions {
  store: TaskStore;
  clock: Clock;
  logger: Logger;
  /** This instance's name (a fleet's instance id). */
  instance: string;
  limits?: Partial<TaskLimits>;
  /** Hears each task start and end (the observer: log lines, metrics). */
  onEvent?(event: TaskEvent): void;
}

/** What opening a task needs to know of the call. */
export interface TaskOpening {
  owner: string;
  tool: string;
  toolset: string;
  extension: string;
  /** The tool's own TTL (bounded by `maxTtlMs`). */
  ttlMs?: number;
  statusMessage?: string;
  /** Runs the handler's next round (after the client's answers). */
  nextRound(inputs: RoundInputs, signal: AbortSignal): Promise<RoundOutcome>;
}

/** The one answer for an id nobody may see: unknown, expired, or another caller's. */
function taskNotFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
}

const LEASE_LOST = -32603;

export class TaskBoard {
  readonly limits: TaskLimits;
  private readonly running = new Map<string, RunningTask>();
  private readonly stopSignals: () => void;
  private renewal: ClockTimer | undefined;

  constructor(private readonly options: TaskBoardOptions) {
    this.limits = { ...DEFAULT_TASK_LIMITS, ...options.limits };
    this.stopSignals = options.store.onSignal((signal) => this.signalled(signal));
  }

  get store(): TaskStore {
    return this.options.store;
  }

  /** Unfinished tasks this instance runs now. */
  get size(): number {
    return this.running.size;
  }

  /** False when `owner` already has its most unfinished tasks (the call then runs, or is refused, without a task). */
  async mayOpen(owner: string): Promise<boolean> {
    return (await this.options.store.activeFor(owner)) < this.limits.maxPerCaller;
  }

  /**
   * Records a new task for a call and returns it, running here; resolves once any instance can read it.
   * @example
   * const running = await board.open({ owner, tool: "export", toolset: "files", extension: "files", nextRound });
   */
  async open(opening: TaskOpening): Promise<RunningTask> {
    if (!(await this.mayOpen(opening.owner)))
      throw new McpHostError(
        "TASK_LIMIT",
        `this caller has ${this.limits.maxPerCaller} unfinished tasks already (tasks.maxPerCaller); wait for one to finish, or cancel one`,
      );
    const now = this.options.clock.now();
    const task: StoredTask = {
      taskId: randomUUID(),
      owner: opening.owner,
      status: "working",
      ...(opening.statusMessage === undefined ? {} : { statusMessage: opening.statusMessage }),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: Math.min(opening.ttlMs ?? this.limits.ttlMs, this.limits.maxTtlMs),
      pollIntervalMs: this.limits.pollIntervalMs,
      tool: opening.tool,
      toolset: opening.toolset,
      extension: opening.extension,
      instance: this.options.instance,
      ...(this.limits.leaseMs === undefined ? {} : { leaseUntil: now + this.limits.leaseMs }),
    };
    await this.options.store.create(task);
    const running = new RunningTask(task, this.hostFor(), opening.nextRound);
    this.running.set(task.taskId, running);
    this.beat();
    this.note({ task: structuredClone(task), phase: "started" });
    return running;
  }

  /**
   * `tasks/get` for `owner`: the task's current `DetailedTask`, or -32602.
   * @example
   * await board.get(taskId, owner) // { taskId, status: "working", … }
   */
  async get(taskId: string, owner: string): Promise<Record<string, unknown>> {
    return detailedTask(await this.owned(taskId, owner));
  }

  /** `tasks/update` for `owner`: the answers go to the instance that runs the task. */
  async update(taskId: string, owner: string, responses: Record<string, unknown>): Promise<void> {
    const task = await this.owned(taskId, owner);
    if (task.status !== "input_required") return;
    const local = this.running.get(taskId);
    if (local !== undefined) await local.answer(responses);
    else await this.options.store.signal({ kind: "input", taskId, instance: task.instance, responses });
  }

  /** `tasks/cancel` for `owner`: acknowledged at once, the instance that runs the task stops it. */
  async cancel(taskId: string, owner: string): Promise<void> {
    const task = await this.owned(taskId, owner);
    if (isTerminal(task.status)) return;
    const local = this.running.get(taskId);
    if (local !== undefined) await local.cancel();
    else await this.options.store.signal({ kind: "cancel", taskId, instance: task.instance });
  }

  /** Ends every task this instance runs (the host stops): each fails with a message that says so. */
  async close(): Promise<void> {
    this.renewal?.clear();
    this.stopSignals();
    const running = [...this.running.values()];
    await Promise.allSettled(running.map((task) => task.fail({ code: LEASE_LOST, message: "The server running this task stopped before it finished." })));
  }

  /** Counts by status (for `/metrics`). */
  counts(): Record<TaskStatus, number> {
    return this.options.store.counts() as Record<TaskStatus, number>;
  }

  /** The task, when `owner` may see it; its lease checked (a task whose instance is gone fails here). */
  private async owned(taskId: unknown, owner: string): Promise<StoredTask> {
    if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > 128) throw taskNotFound();
    const task = await this.options.store.get(taskId);
    if (task === undefined || task.owner !== owner || isExpired(task, this.options.clock.now())) throw taskNotFound();
    return this.leaseChecked(task);
  }

  /** A task whose instance stopped renewing its lease is failed by whoever reads it next. */
  private async leaseChecked(task: StoredTask): Promise<StoredTask> {
    const now = this.options.clock.now();
    if (isTerminal(task.status) || task.leaseUntil === undefined || task.leaseUntil > now || this.running.has(task.taskId)) return task;
    const failed: StoredTask = {
      ...task,
      status: "failed",
      lastUpdatedAt: now,
      error: { code: LEASE_LOST, message: `The instance running this task (${task.instance}) stopped before it finished.` },
      statusMessage: `The instance running this task (${task.instance}) stopped before it finished.`,
    };
    delete failed.leaseUntil;
    delete failed.inputRequests;
    await this.options.store.put(failed);
    this.options.logger.warn(`task ${task.taskId.slice(0, 8)} of tool "${task.tool}" failed: its instance "${task.instance}" stopped renewing its lease`, {
      code: "TASK_LEASE_EXPIRED",
      tool: task.tool,
      toolset: task.toolset,
    });
    this.note({ task: failed, phase: "ended", durationMs: now - task.createdAt });
    return failed;
  }

  private signalled(signal: TaskSignal): void {
    if (signal.instance !== this.options.instance) return;
    const running = this.running.get(signal.taskId);
    if (running === undefined) return;
    if (signal.kind === "cancel") void running.cancel();
    else void running.answer(signal.responses);
  }

  /** Fails the running tasks past their TTL, and renews the others' leases (in a fleet). */
  private async lookAfterRunning(): Promise<void> {
    const leaseMs = this.limits.leaseMs;
    const now = this.options.clock.now();
    for (const running of [...this.running.values()]) {
      if (isExpired(running.task, now)) {
        void running.fail({ code: LEASE_LOST, message: `The task ran past its time to live (${running.task.ttlMs} ms).` });
        continue;
      }
      if (leaseMs === undefined) continue;
      running.task.leaseUntil = now + leaseMs;
      await this.options.store.put(running.task).catch(() => {});
    }
  }

  /**
   * Running tasks are looked after on a beat — a lease renewed (in a fleet), a task past its TTL failed — that runs
   * only while this instance runs a task, so an idle host keeps no timer.
   */
  private beat(): void {
    if (this.running.size === 0) {
      this.renewal?.clear();
      this.renewal = undefined;
      return;
    }
    if (this.renewal !== undefined) return;
    const every = this.limits.leaseMs === undefined ? 60_000 : Math.max(1_000, Math.floor(this.limits.leaseMs / 3));
    this.renewal = this.options.clock.setInterval(() => void this.lookAfterRunning(), every);
  }

  private hostFor() {
    return {
      save: (task: StoredTask) => this.options.store.put(task),
      finished: (running: RunningTask) => {
        this.running.delete(running.taskId);
        this.beat();
        this.note({ task: structuredClone(running.task), phase: "ended", durationMs: this.options.clock.now() - running.task.createdAt });
      },
      now: () => this.options.clock.now(),
    };
  }

  private note(event: TaskEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // An observer's failure never fails a task.
    }
  }
}
