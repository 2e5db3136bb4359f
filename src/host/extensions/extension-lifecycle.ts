/**
 * Running an extension's hooks safely: `setup` under a timeout that names the extension, and `dispose` for all
 * extensions in reverse load order, every one running even when some throw (docs/design.md §4 rules 9, 13).
 */
import { extensionError, McpHostError, messageOf } from "../../errors.js";
import type { ExtensionContext } from "../../extension/types.js";
import { raceTimeout } from "../../timeout.js";
import type { ExtensionRecord } from "./extension-record.js";

/**
 * Runs `setup(ctx)`; resolves when it finished, rejects with EXTENSION_SETUP_FAILED or EXTENSION_SETUP_TIMEOUT.
 * @example
 * await runSetup(record, ctx, 10_000);
 */
export async function runSetup(record: ExtensionRecord, ctx: ExtensionContext, timeoutMs: number): Promise<void> {
  const setup = record.extension.setup;
  if (typeof setup !== "function") return;
  const running = (async () => {
    try {
      await setup.call(record.extension, ctx);
    } catch (error) {
      throw extensionError("EXTENSION_SETUP_FAILED", record.name, "setup threw; the extension is quarantined", error);
    }
  })();
  const outcome = await raceTimeout(running, timeoutMs, ctx.clock);
  if (outcome.timedOut) {
    throw new McpHostError(
      "EXTENSION_SETUP_TIMEOUT",
      `[extension ${record.name}] setup did not finish within ${timeoutMs} ms; the extension is quarantined (raise setupTimeoutMs if it needs longer)`,
      { extension: record.name },
    );
  }
}

/**
 * Ends one extension: aborts its lifetime signal and, when it was set up, runs its dispose. Returns the failure
 * (EXTENSION_DISPOSE_FAILED) instead of throwing, so the caller decides whether others still run.
 * @example
 * const failure = await disposeRecord(record); if (failure) logger.warn(failure.message);
 */
export async function disposeRecord(record: ExtensionRecord): Promise<McpHostError | undefined> {
  record.lifetime.abort();
  const dispose = record.extension.dispose;
  const wasSetUp = record.status === "ready";
  record.status = record.status === "failed" ? "failed" : "stopped";
  if (!wasSetUp || typeof dispose !== "function") return undefined;
  try {
    await dispose.call(record.extension);
    return undefined;
  } catch (error) {
    return extensionError("EXTENSION_DISPOSE_FAILED", record.name, "dispose threw", error);
  }
}

/**
 * Disposes every record in reverse order; throws one AggregateError (of EXTENSION_DISPOSE_FAILED errors) when any failed.
 * @example
 * await disposeAll(recordsInLoadOrder);
 */
export async function disposeAll(records: readonly ExtensionRecord[]): Promise<void> {
  const failures: McpHostError[] = [];
  for (const record of [...records].reverse()) {
    const failure = await disposeRecord(record);
    if (failure) failures.push(failure);
  }
  if (failures.length > 0) {
    throw new AggregateError(
      failures,
      `${failures.length} extension(s) failed to dispose: ${failures.map((f) => `${f.extension} (${messageOf(f.cause)})`).join(", ")}`,
    );
  }
}
