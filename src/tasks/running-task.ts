/**
 * A task this instance runs (docs/tasks.md): its state as the store keeps it, the signal that stops its handler, and
 * its rounds. A round is one run of the tool's handler; it ends with the tool's result (the task completes), a
 * JSON-RPC error (it fails), a cancellation, or questions for the client (it waits in `input_required`). The client's
 * answers (`tasks/update`) start the next round, given to the handler as a multi-round-trip retry would give them:
 * `inputResponses` under the handler's own keys and the `requestState` it returned. Keys on the wire are unique for
 * the task's life (a later round's `confirm` is `confirm#2`), as the spec requires.
 */
import { InputResponseV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import type { StoredTask, TaskError } from "./task.js";
import { isTerminal } from "./task.js";

/** How one round of the handler ended. */
export type RoundOutcome =
  | { readonly kind: "result"; readonly result: Record<string, unknown> }
  | { readonly kind: "input"; readonly inputRequests: Record<string, unknown>; readonly requestState?: unknown }
  | { readonly kind: "error"; readonly error: TaskError }
  | { readonly kind: "cancelled" };

/** What the next round of the handler is given. */
export interface RoundInputs {
  readonly inputResponses: Record<string, unknown>;
  readonly requestState: unknown;
}

/** What a running task needs of the board that keeps it. */
export interface TaskHost {
  /** Writes the task's new state (and tells whoever follows it). */
  save(task: StoredTask): Promise<void>;
  /** The task finished: its end is logged and counted, and the board lets it go. */
  finished(task: RunningTask): void;
  now(): number;
}

export class RunningTask {
  /** Aborted by `tasks/cancel`, by the task's expiry, or when the host stops. */
  readonly controller = new AbortController();
  private round = 1;
  /** Outstanding questions: the key on the wire → the handler's own key. */
  private readonly pending = new Map<string, string>();
  private answers: Record<string, unknown> = {};
  private state: unknown;
  private cancelRequested = false;
  /** What the last round asked to run if the task ends while it waits for answers (TaskControl.onAbandon). */
  private abandonCleanups: Array<() => unknown> = [];

  constructor(
    readonly task: StoredTask,
    private readonly host: TaskHost,
    /** Runs the handler again with the client's answers (the next round); the board calls it, never the handler. */
    private readonly nextRound: (inputs: RoundInputs, signal: AbortSignal) => Promise<RoundOutcome>,
  ) {}

  get taskId(): string {
    return this.task.taskId;
  }

  /** Keeps `cleanup` to run if the task ends while it waits for the client's answers. */
  onAbandon(cleanup: () => unknown): void {
    if (!isTerminal(this.task.status)) this.abandonCleanups.push(cleanup);
  }

  /** Sets what `tasks/get` shows while the task works. */
  status(message: string): void {
    if (isTerminal(this.task.status) || this.task.statusMessage === message) return;
    this.task.statusMessage = message;
    this.touch();
  }

  /**
   * Takes how a round of the handler ended: the task completes, fails, is cancelled, or waits for answers.
   * @example
   * running.settle({ kind: "result", result: { content: [] } });
   */
  async settle(outcome: RoundOutcome): Promise<void> {
    if (isTerminal(this.task.status)) return;
    if (this.cancelRequested && outcome.kind !== "result") return this.end("cancelled", { statusMessage: "Cancelled at the client's request." });
    switch (outcome.kind) {
      case "result":
        return this.end("completed", { result: outcome.result });
      case "error":
        return this.end("failed", { error: outcome.error, statusMessage: outcome.error.message });
      case "cancelled":
        return this.end("cancelled", { statusMessage: "Cancelled." });
      case "input":
        return this.ask(outcome.inputRequests, outcome.requestState);
    }
  }

  /**
   * The client's answers (`tasks/update`): only keys outstanding count (others are ignored, as the spec says); once
   * every question is answered the next round runs.
   */
  async answer(responses: Record<string, unknown>): Promise<void> {
    if (this.task.status !== "input_required") return;
    for (const [wireKey, response] of Object.entries(responses)) {
      const key = this.pending.get(wireKey);
      // Only an outstanding key's well-formed answer counts; anything else is ignored, the question stays open.
      if (key === undefined || !InputResponseV2Schema.safeParse(response).success) continue;
      this.answers[key] = response;
      this.pending.delete(wireKey);
      delete this.task.inputRequests?.[wireKey];
    }
    if (this.pending.size > 0) {
      this.touch();
      return;
    }
    const inputs: RoundInputs = { inputResponses: this.answers, requestState: this.state };
    this.answers = {};
    this.abandonCleanups = [];
    this.round += 1;
    this.task.status = "working";
    delete this.task.inputRequests;
    this.task.statusMessage = "Working with the client's answers.";
    this.touch();
    let outcome: RoundOutcome;
    try {
      outcome = await this.nextRound(inputs, this.controller.signal);
    } catch (error) {
      outcome = { kind: "error", error: { code: -32603, message: `the task's next round failed: ${(error as Error)?.message ?? String(error)}` } };
    }
    await this.settle(outcome);
  }

  /** `tasks/cancel`: the handler's signal is aborted; a task waiting for answers is cancelled at once. */
  async cancel(reason = "Cancelled at the client's request."): Promise<void> {
    if (isTerminal(this.task.status)) return;
    this.cancelRequested = true;
    this.controller.abort(new Error(reason));
    if (this.task.status === "input_required") {
      this.abandoned();
      await this.end("cancelled", { statusMessage: reason });
    }
  }

  /** Ends the task as failed (the host stops, the task expired) and stops its handler. */
  async fail(error: TaskError): Promise<void> {
    if (isTerminal(this.task.status)) return;
    this.controller.abort(new Error(error.message));
    if (this.task.status === "input_required") this.abandoned();
    await this.end("failed", { error, statusMessage: error.message });
  }

  /** The task ends while it waits: what the last round left to clean up runs now, each on its own, never awaited. */
  private abandoned(): void {
    const cleanups = this.abandonCleanups;
    this.abandonCleanups = [];
    for (const cleanup of cleanups) {
      // A cleanup that throws or rejects must not keep the task from ending, nor the other cleanups from running.
      void Promise.resolve()
        .then(cleanup)
        .catch(() => {});
    }
  }

  private async ask(inputRequests: Record<string, unknown>, state: unknown): Promise<void> {
    this.state = state;
    const asked: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(inputRequests)) {
      const wireKey = this.round === 1 ? key : `${key}#${this.round}`;
      this.pending.set(wireKey, key);
      asked[wireKey] = request;
    }
    this.task.status = "input_required";
    this.task.inputRequests = asked;
    this.task.statusMessage = "Waiting for the client's answers.";
    this.touch();
  }

  private async end(status: "completed" | "failed" | "cancelled", fields: Partial<StoredTask>): Promise<void> {
    Object.assign(this.task, fields, { status });
    delete this.task.inputRequests;
    delete this.task.leaseUntil;
    this.pending.clear();
    this.task.lastUpdatedAt = this.host.now();
    await this.host.save(this.task).catch(() => {});
    this.host.finished(this);
  }

  private touch(): void {
    this.task.lastUpdatedAt = this.host.now();
    void this.host.save(this.task).catch(() => {});
  }
}
