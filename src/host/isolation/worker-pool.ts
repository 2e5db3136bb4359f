/**
 * One pool of tool workers (piscina): the threads of one isolated extension at one heap limit. Workers start on
 * first use, one stays warm, and one ended for exceeding a limit is replaced by piscina. Calls beyond the threads
 * wait in a bounded queue; past it a call is refused at once rather than left waiting for minutes. piscina itself is
 * imported on the first call, so a host whose isolated tools are never called (and a `stdio` cold start) pays nothing.
 */
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import type { Piscina } from "piscina";
import type { Logger } from "../../logger.js";
import type { WorkerTask } from "./worker-protocol.js";

/** Calls that may wait for a worker, per worker thread of a pool. */
export const QUEUE_PER_WORKER = 16;
/** An idle worker beyond the warm one exits after this long. */
const IDLE_MS = 30_000;

/**
 * The worker's entry: the built JavaScript next to this file (dist/host/isolation/); from the bundled CLI, where this
 * code sits in a chunk in dist/cli/ (scripts/bundle-cli.mjs), that same file; or — when the host itself runs from its
 * TypeScript source (tests under tsx) — a bootstrap that teaches the worker TypeScript first.
 */
function workerEntry(): string {
  if ((import.meta as ImportMeta & { mcpHostBundle?: boolean }).mcpHostBundle === true)
    return fileURLToPath(new URL("../host/isolation/tool-worker.js", import.meta.url));
  const fromSource = import.meta.url.endsWith(".ts");
  return fileURLToPath(new URL(fromSource ? "./tool-worker-source.mjs" : "./tool-worker.js", import.meta.url));
}

/** One pool's identity and size: the extension it serves, its workers' heap limit, how many workers. */
export interface WorkerPoolOptions {
  /** Names the pool's threads (`mcp-host <extension>`), e.g. in a heap snapshot. */
  extension: string;
  heapMb: number;
  poolSize: number;
  logger: Logger;
}

/**
 * @example
 * const pool = new WorkerPool({ extension: "text", heapMb: 256, poolSize: 2, logger });
 * await pool.run(task, signal);
 */
export class WorkerPool {
  private piscina: Piscina<WorkerTask, void> | undefined;
  private starting: Promise<Piscina<WorkerTask, void>> | undefined;
  private closed = false;
  readonly maxQueue: number;

  constructor(readonly options: WorkerPoolOptions) {
    this.maxQueue = options.poolSize * QUEUE_PER_WORKER;
  }

  private start(): Promise<Piscina<WorkerTask, void>> {
    this.starting ??= (async () => {
      const { Piscina } = await import("piscina");
      const { options } = this;
      const piscina = new Piscina<WorkerTask, void>({
        filename: workerEntry(),
        name: "default",
        minThreads: 1,
        maxThreads: options.poolSize,
        idleTimeout: IDLE_MS,
        maxQueue: this.maxQueue,
        resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
      });
      // An error no call is waiting for (a worker that failed while idle): logged, never thrown into the process.
      piscina.on("error", (error: unknown) => {
        options.logger.warn(`a worker of extension "${options.extension}" failed while idle: ${error instanceof Error ? error.message : String(error)}`, {
          code: "TOOL_ISOLATION_FAILED",
          extension: options.extension,
        });
      });
      this.piscina = piscina;
      return piscina;
    })();
    return this.starting;
  }

  /** True when every thread is busy and the queue is full: a new call would be refused. */
  get full(): boolean {
    return (this.piscina?.queueSize ?? 0) >= this.maxQueue;
  }

  /** The worker thread with this id, while it is alive. */
  thread(threadId: number): Worker | undefined {
    return this.piscina?.threads.find((worker) => worker.threadId === threadId);
  }

  /** Runs one task (its outcome comes over its port); aborting `signal` ends the worker running it (or takes it off the queue). */
  async run(task: WorkerTask, signal: AbortSignal): Promise<void> {
    if (this.closed) throw new Error(`the worker pool of extension "${this.options.extension}" is closed`);
    const piscina = await this.start();
    return piscina.run(task, { transferList: [task.port], signal });
  }

  /** Ends every worker (running calls are rejected). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.starting) await (await this.starting).destroy();
  }
}
