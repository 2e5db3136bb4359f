/**
 * The host's tool isolation (docs/design.md §16): decides which tools run in workers — those an extension with
 * `isolation` lists in its `tools`, unless a tool says `"none"` — with which limits, and owns their worker pools,
 * one per extension and heap limit, started on first call and ended at host stop.
 */
import { availableParallelism } from "node:os";
import { McpHostError } from "../../errors.js";
import type { IsolationLimits, IsolationOptions, McpExtension, ToolHandler, ToolSpec } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import { isolatedHandler, type IsolatedTool } from "./isolated-call.js";
import { WorkerPool } from "./worker-pool.js";

/** The limits a tool gets when neither it nor its extension sets them. */
export const ISOLATION_DEFAULTS = {
  heapMb: 256,
  cpuMs: 2000,
  poolSize: Math.max(1, Math.min(2, availableParallelism())),
} as const;

/**
 * What runs where: `undefined` for a tool that runs on the main thread, else its module and limits.
 * @example
 * isolationOf(textExtension, textStatsTool) // { module: "file:///…/index.js", extension: "text", tool: "text_stats", heapMb: 256, cpuMs: 2000 }
 */
export function isolationOf(extension: McpExtension, spec: ToolSpec<any>): (IsolatedTool & { poolSize: number }) | undefined {
  const asked = extension.isolation;
  if (asked === undefined || spec.isolation === "none" || !(extension.tools ?? []).includes(spec)) return undefined;
  const options: IsolationOptions = asked === "worker" ? {} : asked;
  // validateExtension requires a module; an object that skipped it has nothing a worker could import.
  if (typeof options.module !== "string") return undefined;
  const own: IsolationLimits = typeof spec.isolation === "object" ? spec.isolation : {};
  return {
    module: options.module,
    extension: extension.name,
    tool: spec.name,
    heapMb: own.heapMb ?? options.heapMb ?? ISOLATION_DEFAULTS.heapMb,
    cpuMs: own.cpuMs ?? options.cpuMs ?? ISOLATION_DEFAULTS.cpuMs,
    poolSize: options.poolSize ?? ISOLATION_DEFAULTS.poolSize,
  };
}

/**
 * @example
 * const isolation = new ToolIsolation(logger);
 * const handler = isolation.handlerFor(extension, spec) ?? spec.handler;
 * await isolation.close();
 */
export class ToolIsolation {
  private readonly pools = new Map<string, WorkerPool>();
  /** Stand-ins per extension and tool spec (one spec object may be listed by two extensions). */
  private readonly handlers = new WeakMap<McpExtension, WeakMap<ToolSpec<any>, ToolHandler>>();
  private closed = false;

  constructor(private readonly logger: Logger) {}

  /** The stand-in handler that runs `spec` in a worker, or undefined when it runs on the main thread. */
  handlerFor(extension: McpExtension, spec: ToolSpec<any>): ToolHandler | undefined {
    let made = this.handlers.get(extension);
    const known = made?.get(spec);
    if (known !== undefined) return known;
    const placed = isolationOf(extension, spec);
    if (placed === undefined) return undefined;
    const { poolSize, ...tool } = placed;
    const handler = isolatedHandler(tool, () => this.pool(tool.extension, tool.heapMb, poolSize));
    if (made === undefined) {
      made = new WeakMap();
      this.handlers.set(extension, made);
    }
    made.set(spec, handler);
    return handler;
  }

  /** Ends every worker; calls still running are answered with an error. */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }

  private pool(extension: string, heapMb: number, poolSize: number): WorkerPool {
    if (this.closed) {
      throw new McpHostError("TOOL_ISOLATION_FAILED", `extension "${extension}": the host is stopping, so no new worker starts`, { extension });
    }
    const key = `${extension}\u0000${heapMb}`;
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = new WorkerPool({ extension, heapMb, poolSize, logger: this.logger });
      this.pools.set(key, pool);
    }
    return pool;
  }
}
