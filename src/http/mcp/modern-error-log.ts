/**
 * What the SDK's modern (2026-07-28) handler reports, logged at the level it deserves (docs/design.md §16). The SDK
 * hands every problem to one `onerror` — a client's malformed request and its own failure alike — so each report
 * is kept with the request it belongs to, and weighed by the answer: behind a 5xx it is a bug, logged at error
 * with the detail; behind a 4xx it is the client's mistake, logged at debug. A report that arrives once the answer
 * is on its way (a stream that failed later), or outside any request, is logged at warn.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import type { Logger } from "../../logger.js";
import { defined } from "../../defined.js";

interface Reports {
  errors: Error[];
  answered: boolean;
}

export interface ModernErrorLog {
  /** The SDK handler's `onerror`. */
  onerror(error: Error): void;
  /** The node adapter's `onerror`: the request could not even be handed to the SDK (always a bug). */
  onAdapterError(error: Error): void;
  /** `fetch`, with what it reported logged by the answer's status. */
  fetch: McpHttpHandler["fetch"];
}

function detail(errors: readonly Error[]): { message: string; stack?: string } {
  if (errors.length === 0) return { message: "the SDK reported no detail" };
  const stack = errors.find((e) => e.stack)?.stack;
  return { message: errors.map((e) => e.message).join("; "), ...defined({ stack }) };
}

/**
 * @example
 * const log = modernErrorLog(() => handler, logger, "time"); createMcpHandler(factory, { onerror: log.onerror });
 */
export function modernErrorLog(handler: () => McpHttpHandler, logger: Logger, selection: string): ModernErrorLog {
  const current = new AsyncLocalStorage<Reports>();
  const about = `selection "${selection}"`;
  return {
    onerror(error) {
      const reports = current.getStore();
      if (reports !== undefined && !reports.answered) reports.errors.push(error);
      else logger.warn(`${about}: ${error.message}`);
    },
    onAdapterError(error) {
      logger.error(`${about}: a 2026-07-28 request could not be served: ${error.message}`, error.stack ? { stack: error.stack } : {});
    },
    fetch: (request, options) =>
      current.run({ errors: [], answered: false }, async () => {
        const reports = current.getStore()!;
        const response = await handler().fetch(request, options);
        reports.answered = true;
        if (response.status >= 500) {
          const { message, stack } = detail(reports.errors);
          logger.error(`${about}: internal error serving a 2026-07-28 request (HTTP ${response.status}): ${message}`, stack ? { stack } : {});
        } else {
          for (const error of reports.errors) logger.debug(`${about}: ${error.message}`);
        }
        return response;
      }),
  };
}
