/**
 * Which tools are running on the host's main thread, so that the event-loop monitor can name the one that
 * blocked it. A synchronous handler has finished by the time a blocked loop is noticed, so the record keeps the
 * calls that finished since the last look as well as those still running.
 */
import { compareNames } from "../../compare.js";

/** A tool call as the monitor names it. */
export interface ToolRun {
  tool: string;
  extension: string;
}

/**
 * @example
 * const done = activity.enter({ tool: "text_stats", extension: "text" });
 * try { await handler(args, ctx); } finally { done(); }
 */
export class ToolActivity {
  private readonly running = new Map<number, ToolRun>();
  private finished: ToolRun[] = [];
  private next = 0;

  /** Records a call that starts now; call the returned function when it ends. */
  enter(run: ToolRun): () => void {
    const id = this.next++;
    this.running.set(id, run);
    return () => {
      if (this.running.delete(id)) this.finished.push(run);
    };
  }

  /** The calls that ran at any moment since the last look (running now, or finished since), by name; starts a new look. */
  sinceLastLook(): ToolRun[] {
    const seen = new Map<string, ToolRun>();
    for (const run of [...this.finished, ...this.running.values()]) seen.set(`${run.extension}\u0000${run.tool}`, run);
    this.finished = [];
    return [...seen.values()].sort((a, b) => compareNames(a.tool, b.tool) || compareNames(a.extension, b.extension));
  }
}
