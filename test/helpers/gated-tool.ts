/**
 * A tool whose calls wait until the test lets them go, for the tests of limits on calls in flight (per tool, per
 * caller): the test waits for the event it needs — so many calls started — instead of sleeping, then releases them.
 */
import type { McpExtension } from "../../src/extension/types.js";

/** The extension (toolset "slow", tool "wait") and the handles a test drives it with. */
export interface GatedExtension {
  extension: McpExtension;
  /** Resolves once `count` calls have started in all. */
  started(count: number): Promise<void>;
  /** Lets the oldest waiting call finish. */
  releaseOne(): void;
  /** Lets every waiting call finish. */
  releaseAll(): void;
}

/**
 * A fresh gated extension: each call of `wait` counts as started, then waits for a release and answers "done".
 * @example
 * const gated = gatedExtension();
 * const { url } = await serveHost(cleanup, [gated.extension]);
 * const call = client.callTool({ name: "wait", arguments: {} });
 * await gated.started(1);
 * gated.releaseAll();
 */
export function gatedExtension(): GatedExtension {
  const waiting: Array<() => void> = [];
  const startedWaiters: Array<{ count: number; resolve: () => void }> = [];
  let started = 0;
  const extension: McpExtension = {
    name: "slow",
    toolsets: [{ name: "slow" }],
    tools: [
      {
        name: "wait",
        handler: async () => {
          started += 1;
          for (const w of startedWaiters.filter((w) => w.count <= started)) w.resolve();
          await new Promise<void>((resolve) => waiting.push(resolve));
          return { content: [{ type: "text", text: "done" }] };
        },
      },
    ],
  };
  return {
    extension,
    started: (count) => (started >= count ? Promise.resolve() : new Promise<void>((resolve) => startedWaiters.push({ count, resolve }))),
    releaseOne: () => waiting.shift()?.(),
    releaseAll: () => {
      for (const release of waiting.splice(0)) release();
    },
  };
}
