/**
 * One upstream tool call as the gateway drives it. A 2025-era upstream asks its client things (elicitation,
 * sampling, roots) with requests pushed *during* the call; the downstream client answers through `input_required`
 * rounds — in both eras: a 2026-07-28 client answers and calls again, and on a 2025 session the host's SDK shim
 * sends the requests and calls the handler again. So the call can outlive the downstream request that started it:
 * it pauses with its questions, waits (in `PausedCalls`) for the client's next round, takes the answers and goes
 * on. While a downstream request is attached, its cancellation cancels the upstream call and the upstream's progress
 * reaches it; between rounds, progress has nowhere to go and is dropped.
 */
import { randomUUID } from "node:crypto";
import type { CallToolResult, InputRequiredResult, Progress } from "@modelcontextprotocol/client";
import type { UpstreamRequest } from "../../registry/index.js";

/** Where the call stands when a downstream round ends: finished, or asking the client something. */
export type CallStep =
  | { kind: "done"; result: CallToolResult | InputRequiredResult }
  | { kind: "ask"; requests: Array<{ key: string; request: UpstreamRequest }> };

/** What the attached downstream request lends the call. */
export interface Attachment {
  signal: AbortSignal;
  progress(progress: Progress): Promise<void>;
  /** The status of the upstream's task, when the call follows one (its round's host task shows it). */
  status?(message: string): void;
}

interface Question {
  key: string;
  request: UpstreamRequest;
  answer(value: unknown): void;
  fail(error: Error): void;
}

/**
 * @example
 * const call = new UpstreamCall(owner);
 * call.start((relay, signal, onprogress) => registry.callTool(name, args, { onServerRequest: relay, signal, onprogress }));
 * const step = await call.drive({ signal: ctx.signal, progress: (p) => ctx.progress(p.progress, p.total) });
 */
export class UpstreamCall {
  readonly id = randomUUID();
  private readonly controller = new AbortController();
  private attached?: Attachment;
  private outcome?: CallToolResult | InputRequiredResult;
  private readonly waiting: Question[] = [];
  private readonly asked = new Map<string, Question>();
  private wake?: () => void;
  private asks = 0;
  /** Progress sent to the attached request, in order; a round ends only after it was written (before the result). */
  private sending: Promise<void> = Promise.resolve();
  /** A status that came between rounds: the next round shows it (an older one is of no use). */
  private unshownStatus?: string;

  constructor(
    /** Who may resume it (the caller's client id, or empty). */
    readonly owner: string,
  ) {}

  /** Starts the upstream call; `run` gets the relay, the call's own signal, its progress sink and its status sink. */
  start(
    run: (
      relay: (request: UpstreamRequest) => Promise<unknown>,
      signal: AbortSignal,
      onprogress: (p: Progress) => void,
      onstatus: (message: string) => void,
    ) => Promise<CallToolResult | InputRequiredResult>,
  ): void {
    run(
      (request) => this.ask(request),
      this.controller.signal,
      (p) => this.relayProgress(p),
      (message) => this.relayStatus(message),
    ).then(
      (result) => this.settle(result),
      (error: unknown) => this.settle({ content: [{ type: "text", text: `the call failed: ${(error as Error)?.message ?? String(error)}` }], isError: true }),
    );
  }

  /** The upstream asks the client something: queued for the next downstream round, answered when it comes back. */
  ask(request: UpstreamRequest): Promise<unknown> {
    return new Promise((answer, fail) => {
      this.waiting.push({ key: `upstream_${++this.asks}`, request, answer, fail });
      this.poke();
    });
  }

  /** Gives the answers a downstream round brought back (a key with no answer fails that question). */
  answer(responses: Readonly<Record<string, unknown>> | undefined, keys: readonly string[]): void {
    for (const key of keys) {
      const question = this.asked.get(key);
      if (!question) continue;
      this.asked.delete(key);
      const value = responses?.[key];
      if (value === undefined) question.fail(new Error(`the client did not answer ${question.request.method}`));
      else question.answer(value);
    }
  }

  /** Runs one downstream round: until the call ends or asks something. The attachment is let go at the end. */
  async drive(attachment: Attachment): Promise<CallStep> {
    const onAbort = () => this.cancel(attachment.signal.reason);
    if (attachment.signal.aborted) onAbort();
    attachment.signal.addEventListener("abort", onAbort, { once: true });
    this.attached = attachment;
    if (this.unshownStatus !== undefined) attachment.status?.(this.unshownStatus);
    this.unshownStatus = undefined;
    try {
      while (this.outcome === undefined && this.waiting.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
      await this.sending;
      if (this.outcome !== undefined) return { kind: "done", result: this.outcome };
      const requests = this.waiting.splice(0).map((q) => {
        this.asked.set(q.key, q);
        return { key: q.key, request: q.request };
      });
      return { kind: "ask", requests };
    } finally {
      this.wake = undefined;
      this.attached = undefined;
      attachment.signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Cancels the upstream call and fails every open question — the questions a moment later (the next turn of the
   * event loop), so that whatever the cancel sends upstream (a task's `tasks/cancel`) goes before the refused answer:
   * an upstream told "no answer" first might finish its task instead of seeing it cancelled.
   */
  cancel(reason?: unknown): void {
    this.controller.abort(reason);
    const open = [...this.waiting, ...this.asked.values()];
    this.waiting.length = 0;
    this.asked.clear();
    if (open.length === 0) return;
    setImmediate(() => {
      for (const q of open) q.fail(new Error("the call was cancelled"));
    });
  }

  private relayProgress(progress: Progress): void {
    const attached = this.attached;
    if (!attached) return;
    this.sending = this.sending.then(() => attached.progress(progress)).catch(() => undefined);
  }

  private relayStatus(message: string): void {
    if (this.attached) this.attached.status?.(message);
    else this.unshownStatus = message;
  }

  private settle(result: CallToolResult | InputRequiredResult): void {
    this.outcome = result;
    this.poke();
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
