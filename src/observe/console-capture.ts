/**
 * The console as log lines (docs/design.md §18). Libraries write to the console on their own — the MCP SDK warns
 * about tool names, `x-mcp-header` declarations and OAuth settings with `console.warn`, extensions print — and those
 * raw lines break a JSON-lines log (and carry terminal escapes past the readable format's escaping); `console.log`
 * would even write into stdout, where `mcp-host stdio` speaks the protocol. The command routes every console method
 * through the deployment's logger: one line each, at the method's level, `component: "console"`, on stderr.
 */
import { format } from "node:util";
import type { Logger } from "../logger.js";

const METHODS = { log: "info", info: "info", debug: "debug", warn: "warn", error: "error", trace: "debug" } as const;

type Method = keyof typeof METHODS;

/**
 * Routes `console.log/info/debug/warn/error/trace` through `logger` until the returned function restores them.
 * @example
 * const restore = routeConsoleTo(logger); console.warn("x"); // {"level":"warn","component":"console","msg":"x"}
 */
export function routeConsoleTo(logger: Logger): () => void {
  const lines = logger.child("console");
  const saved = new Map<Method, (...args: unknown[]) => void>();
  for (const [method, level] of Object.entries(METHODS) as Array<[Method, (typeof METHODS)[Method]]>) {
    saved.set(method, console[method]);
    console[method] = (...args: unknown[]) => {
      try {
        lines[level](format(...args));
      } catch {
        // A log line that cannot be written is lost, never thrown into the code that printed it.
      }
    };
  }
  return () => {
    for (const [method, original] of saved) console[method] = original;
  };
}
