/**
 * The fleet's task store (docs/scale-out.md, docs/tasks.md "One task store"): the host's `TaskStore` (the shape of
 * src/tasks/task-store.ts, which the command plugs this into) kept in Redis, so `tasks/get` and `tasks/update` work on
 * any instance, `tasks/cancel` reaches the instance that runs the task, and a change is heard on every instance. A task
 * is one hash (`<prefix>task:<id>`: its JSON, status, lease and version) expiring with the task's TTL; each owner has a
 * set of its unfinished tasks; writes are Lua scripts (fleet-task-scripts.ts) that publish the change with its version,
 * and an instance never hands its listeners a change older than one it delivered or read. Signals go on a channel per
 * instance. While Redis cannot answer, nothing waits: a task cannot be made (the call answers on its request), a read
 * fails with TASK_STORE_UNAVAILABLE, and what this instance wrote meanwhile is written again once Redis is back.
 */
import { createHash } from "node:crypto";
import { systemClock, type Clock } from "../clock.js";
import { isMcpHostError, McpHostError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type FleetTask, type FleetTaskSignal, leaseField, parsedJson, taskFrom, taskJson } from "./fleet-task.js";
import { ACTIVE_TASKS, CREATE_TASK, PUT_TASK, RENEW_LEASE } from "./fleet-task-scripts.js";
import { FleetTaskView } from "./fleet-task-view.js";
import type { RedisLink } from "./redis-link.js";

export interface FleetTasksOptions {
  prefix: string;
  /** This instance's id: the signals for the tasks it runs come on its own channel. */
  instanceId: string;
  logger: Logger;
  /** The host's clock: expiry and leases are measured on it, as the board measures them. */
  clock?: Clock;
  /** The owner's most unfinished tasks (`tasks.maxPerCaller`), held atomically at creation across the fleet. */
  maxPerCaller?: number;
  /** The tasks this instance remembers for its own view (`counts`, `recent`; `tasks.maxTasks`, default 10 000). */
  maxKept?: number;
}

/** Writes that failed while Redis was away, kept to be written again (the newest state of each task). */
const MAX_UNSAVED = 1_000;
/** Versions remembered, so a change older than one delivered or read is not handed to listeners. */
const MAX_VERSIONS = 10_000;

function copy(task: FleetTask): FleetTask {
  return structuredClone(task);
}

function unavailable(what: string): McpHostError {
  return new McpHostError(
    "TASK_STORE_UNAVAILABLE",
    `the fleet's task store (Redis, scaleOut.redis) did not answer in time while ${what}; nothing waited for it — see SCALE_OUT_REDIS_DOWN in the log and /healthz, and retry once Redis is back`,
  );
}

type Script = (...args: Array<string | number>) => Promise<unknown>;

/**
 * @example
 * const tasks = new FleetTasks(link, { prefix: "mcp-host:", instanceId: "mcp-a", logger, maxPerCaller: 16 });
 * buildHost(extensions, { tasks: { store: tasks, instance: "mcp-a", limits: { leaseMs: 30_000 } } });
 */
export class FleetTasks {
  private readonly clock: Clock;
  private readonly scripts: { create: Script; put: Script; renew: Script; active: Script };
  private readonly changeChannel: string;
  private readonly signalChannel: string;
  private readonly signalListeners = new Set<(signal: FleetTaskSignal) => void>();
  private readonly changeListeners = new Set<(task: FleetTask) => void>();
  /** The tasks made here, as last written here: this instance's view (`counts`, `recent`) and what a renewal is. */
  private readonly kept: FleetTaskView;
  private readonly unsaved = new Map<string, FleetTask>();
  /** Per task, the newest version delivered or read here: an older change is not delivered. */
  private readonly versions = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly link: RedisLink,
    private readonly options: FleetTasksOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.kept = new FleetTaskView(this.clock, options.maxKept ?? 10_000);
    this.changeChannel = `${options.prefix}tasks:changed`;
    this.signalChannel = `${options.prefix}tasks:signal:${options.instanceId}`;
    const commands = link.commands as unknown as Record<string, Script> & typeof link.commands;
    for (const [name, lua, keys] of [
      ["mcpHostTaskCreate", CREATE_TASK, 2],
      ["mcpHostTaskPut", PUT_TASK, 2],
      ["mcpHostTaskRenew", RENEW_LEASE, 1],
      ["mcpHostTaskActive", ACTIVE_TASKS, 1],
    ] as const)
      link.commands.defineCommand(name, { numberOfKeys: keys, lua });
    const bound = (name: string) => commands[name]!.bind(link.commands);
    this.scripts = { create: bound("mcpHostTaskCreate"), put: bound("mcpHostTaskPut"), renew: bound("mcpHostTaskRenew"), active: bound("mcpHostTaskActive") };
    link.subscriber.on("message", (channel: string, message: string) => this.received(channel, message));
    // A channel is followed while someone listens on it (the host's board hears signals from its start).
    link.onSubscriberReady(() => {
      const followed = [...(this.signalListeners.size > 0 ? [this.signalChannel] : []), ...(this.changeListeners.size > 0 ? [this.changeChannel] : [])];
      if (followed.length > 0) this.subscribe(followed);
      this.flush();
    });
    link.commands.on("ready", () => this.flush());
  }

  async create(task: FleetTask): Promise<void> {
    this.mustBeUp("making a task durable");
    const now = this.clock.now();
    const keepMs = Math.max(1, Math.ceil(task.createdAt + task.ttlMs - now));
    let made: number;
    try {
      made = Number(
        await this.scripts.create(
          this.taskKey(task.taskId),
          this.ownerKey(task.owner),
          task.taskId,
          taskJson(task),
          task.status,
          leaseField(task),
          keepMs,
          task.createdAt + task.ttlMs,
          now,
          this.options.maxPerCaller ?? 0,
          this.taskKey(""),
          this.changeChannel,
        ),
      );
    } catch (error) {
      this.link.failed("making a task durable", error);
      throw unavailable("making a task durable");
    }
    if (made === -1)
      throw new McpHostError(
        "TASK_LIMIT",
        `this caller has ${this.options.maxPerCaller} unfinished tasks already across the fleet (tasks.maxPerCaller); wait for one to finish, or cancel one`,
      );
    if (made !== 1) throw unavailable("making a task durable (its random id was taken)");
    this.kept.add(task);
  }

  async get(taskId: string): Promise<FleetTask | undefined> {
    this.mustBeUp("reading a task");
    let held: Array<string | null>;
    try {
      held = await this.link.commands.hmget(this.taskKey(taskId), "v", "task", "lease");
    } catch (error) {
      this.link.failed("reading a task", error);
      throw unavailable("reading a task");
    }
    const [version, json, lease] = held;
    if (version === null || version === undefined || json === null || json === undefined) return undefined;
    this.noteVersion(taskId, Number(version) - 1);
    return taskFrom(parsedJson(json), lease);
  }

  async put(task: FleetTask): Promise<void> {
    // Only the lease moved (the board's beat): renewed in place, with no change for listeners to hear — unless an
    // earlier write of the task failed, which the whole task written now makes good.
    const renewal = this.kept.update(task) && !this.unsaved.has(task.taskId);
    await this.write(task, renewal);
  }

  /** The owner's unfinished tasks; 0 while Redis cannot answer (`create` decides then, and fails). */
  async activeFor(owner: string): Promise<number> {
    if (!this.link.up) return 0;
    try {
      return Number(await this.scripts.active(this.ownerKey(owner), this.clock.now(), this.taskKey("")));
    } catch (error) {
      this.link.failed("counting a caller's tasks", error);
      return 0;
    }
  }

  async signal(signal: FleetTaskSignal): Promise<void> {
    this.mustBeUp("sending a task's signal");
    try {
      await this.link.commands.publish(`${this.options.prefix}tasks:signal:${signal.instance}`, JSON.stringify({ v: 1, signal }));
    } catch (error) {
      this.link.failed("sending a task's signal", error);
      throw unavailable("sending a task's signal");
    }
  }

  onSignal(listener: (signal: FleetTaskSignal) => void): () => void {
    return this.follow(this.signalListeners, listener, this.signalChannel);
  }

  /** Hears every change of any task, from any instance (this one's too, as Redis sends it back). */
  onChange(listener: (task: FleetTask) => void): () => void {
    return this.follow(this.changeListeners, listener, this.changeChannel);
  }

  /** The tasks made on this instance, by status (each instance counts its own, so a fleet's sum counts each once). */
  counts(): Record<string, number> {
    return this.kept.counts();
  }

  /** The tasks made on this instance, newest first. */
  recent(limit: number): FleetTask[] {
    return this.kept.recent(limit);
  }

  /** How many listeners follow every task's changes here now (tests read it). */
  get changeListenerCount(): number {
    return this.changeListeners.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.signalListeners.clear();
    this.changeListeners.clear();
    this.unsubscribe([this.signalChannel, this.changeChannel]);
  }

  private mustBeUp(what: string): void {
    if (this.link.up) return;
    this.link.failed(`the fleet's tasks (${what})`, new Error("Redis is not connected"));
    throw unavailable(what);
  }

  private taskKey(taskId: string): string {
    return `${this.options.prefix}task:${taskId}`;
  }

  /** An owner's set: the owner hashed, so no subject is written into Redis as a key. */
  private ownerKey(owner: string): string {
    return `${this.options.prefix}tasks:owner:${createHash("sha256").update(owner).digest("base64url").slice(0, 32)}`;
  }

  /** Adds a listener, following its channel from the first one until the last is gone. */
  private follow<T>(listeners: Set<T>, listener: T, channel: string): () => void {
    listeners.add(listener);
    if (listeners.size === 1) this.subscribe([channel]);
    return () => {
      if (!listeners.delete(listener) || listeners.size > 0) return;
      this.unsubscribe([channel]);
    };
  }

  private subscribe(channels: string[]): void {
    if (this.closed || this.link.subscriber.status !== "ready") return;
    this.link.subscriber.subscribe(...channels).catch((error: unknown) => this.link.failed("following the fleet's tasks", error));
  }

  private unsubscribe(channels: string[]): void {
    if (this.link.subscriber.status !== "ready") return;
    this.link.subscriber.unsubscribe(...channels).catch((error: unknown) => this.link.failed("following the fleet's tasks", error));
  }

  private received(channel: string, message: string): void {
    if (this.closed) return;
    if (channel === this.signalChannel) {
      this.signalled(message);
      return;
    }
    if (channel !== this.changeChannel || this.changeListeners.size === 0) return;
    const wire = parsedJson(message) as { v?: unknown; version?: unknown; lease?: unknown; task?: unknown } | undefined;
    if (wire?.v !== 1 || typeof wire.version !== "number") return;
    const task = taskFrom(wire.task, wire.lease);
    if (task === undefined || !this.noteVersion(task.taskId, wire.version)) return;
    for (const listener of this.changeListeners) {
      try {
        listener(copy(task));
      } catch (error) {
        // A listener's failure (a closed stream) never stops the others.
        this.options.logger.debug(`a task change listener failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  private signalled(message: string): void {
    const signal = (parsedJson(message) as { signal?: FleetTaskSignal } | undefined)?.signal;
    if (typeof signal?.taskId !== "string" || signal.instance !== this.options.instanceId) return;
    if (signal.kind !== "cancel" && !(signal.kind === "input" && typeof signal.responses === "object" && signal.responses !== null)) return;
    for (const listener of this.signalListeners) {
      try {
        listener(signal);
      } catch (error) {
        this.options.logger.debug(`a task signal listener failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  /** True when `version` is newer than any delivered or read here (and remembers it). */
  private noteVersion(taskId: string, version: number): boolean {
    const known = this.versions.get(taskId);
    if (known !== undefined && version <= known) return false;
    this.versions.delete(taskId);
    this.versions.set(taskId, version);
    if (this.versions.size > MAX_VERSIONS) this.versions.delete(this.versions.keys().next().value!);
    return true;
  }

  private async write(task: FleetTask, renewal: boolean): Promise<void> {
    const what = renewal ? "renewing a task's lease" : "writing a task";
    this.unsaved.delete(task.taskId);
    try {
      this.mustBeUp(what);
      if (renewal) await this.scripts.renew(this.taskKey(task.taskId), leaseField(task));
      else await this.writeWhole(task);
    } catch (error) {
      this.remember(task);
      if (isMcpHostError(error)) throw error;
      this.link.failed(what, error);
      throw unavailable(what);
    }
    // Redis answers again (a slow spell passed without a reconnection): what failed before is written now too.
    this.flush();
  }

  private async writeWhole(task: FleetTask): Promise<void> {
    const [outcome, stored] = (await this.scripts.put(
      this.taskKey(task.taskId),
      this.ownerKey(task.owner),
      task.taskId,
      taskJson(task),
      task.status,
      leaseField(task),
      this.changeChannel,
    )) as [number, string | undefined];
    // Finished elsewhere (another instance found its lease run out): this instance's view takes what is stored.
    const finished = outcome === -1 && stored !== undefined ? taskFrom(parsedJson(stored), null) : undefined;
    if (finished !== undefined) this.kept.replace(finished);
  }

  /** A write that failed: its task's newest state is written again once Redis is back. */
  private remember(task: FleetTask): void {
    this.unsaved.delete(task.taskId);
    this.unsaved.set(task.taskId, copy(task));
    if (this.unsaved.size > MAX_UNSAVED) this.unsaved.delete(this.unsaved.keys().next().value!);
  }

  /** Writes again, in full, what failed while Redis was away: each task as this instance knows it now. */
  private flush(): void {
    if (this.closed || !this.link.up || this.unsaved.size === 0) return;
    const pending = [...this.unsaved.values()];
    this.unsaved.clear();
    for (const task of pending) void this.write(this.kept.get(task.taskId) ?? task, false).catch(() => {});
  }
}
