/**
 * What the observability tests share: a host served for real on 127.0.0.1:0 whose logger is the pino logger writing
 * JSON lines into memory (so a test reads exactly the lines an operator's log pipeline would get), observed by
 * `createObservability`; `kit`, an extension whose tools end in every way a call can (ok, isError, a throw, a
 * timeout, a secret-bearing argument list); and `broken`, one whose setup fails.
 */
import { defineExtension } from "../../src/extension/define.js";
import type { McpExtension } from "../../src/extension/types.js";
import type { HostOptions } from "../../src/host/host-options.js";
import type { ListenOptions } from "../../src/http/listen.js";
import { createObservability, type Observability, type ObservabilityOptions } from "../../src/observe/observability.js";
import { createPinoLogger } from "../../src/observe/pino-logger.js";
import { type Cleanup, serveHost, type ServedHost } from "./http-host.js";

/** A JSON log line as parsed. */
export type Line = Record<string, unknown>;

/** A stream that keeps what pino writes, one parsed object per line; `waitFor` resolves once a matching line came. */
export function lineSink(): { stream: { write(line: string): boolean }; lines: Line[]; waitFor(match: (line: Line) => boolean): Promise<Line> } {
  const lines: Line[] = [];
  const waiters: Array<{ match: (line: Line) => boolean; resolve: (line: Line) => void }> = [];
  return {
    lines,
    stream: {
      write: (text: string) => {
        for (const part of text.split("\n")) {
          if (part.trim() === "") continue;
          const line = JSON.parse(part) as Line;
          lines.push(line);
          for (const waiter of [...waiters]) {
            if (!waiter.match(line)) continue;
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(line);
          }
        }
        return true;
      },
    },
    waitFor: (match) => {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

export interface ObservedHost extends ServedHost {
  lines: Line[];
  /** Resolves with the first line that matches (already written, or when it is). */
  waitFor(match: (line: Line) => boolean): Promise<Line>;
  observability: Observability;
}

/** Serves `extensions` with logs (JSON lines into `lines`), metrics and traces as `observe` says. */
export async function serveObserved(
  cleanup: Cleanup,
  extensions: readonly McpExtension[],
  options: { observe?: Partial<ObservabilityOptions>; http?: ListenOptions; host?: Partial<HostOptions> } = {},
): Promise<ObservedHost> {
  const sink = lineSink();
  const logger = createPinoLogger({ level: "debug", format: "json", stream: sink.stream });
  const observability = createObservability({ logger, ...options.observe });
  const served = await serveHost(cleanup, extensions, {
    host: { logger, observer: observability.hostObserver, ...options.host },
    http: { observability, ...options.http },
  });
  return { ...served, lines: sink.lines, waitFor: sink.waitFor, observability };
}

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/** Tools that end in every way: `echo` ok, `refuse` isError, `boom` throws, `sleepy` times out (50 ms budget), `login` takes secrets. */
export const kit = defineExtension({
  name: "kit",
  version: "1.0.0",
  toolsets: [{ name: "kit", title: "Kit", instructions: "Use the kit." }],
  tools: [
    {
      name: "echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: (args: { text: string }, ctx) => {
        ctx.logger.info(`echoing ${args.text}`);
        return text(args.text);
      },
    },
    { name: "refuse", inputSchema: { type: "object" }, handler: () => ({ ...text("no, not today"), isError: true }) },
    {
      name: "boom",
      inputSchema: { type: "object" },
      handler: () => {
        throw new Error("boom on purpose");
      },
    },
    {
      name: "sleepy",
      inputSchema: { type: "object" },
      timeoutMs: 50,
      handler: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(text("woke")))),
    },
    {
      name: "login",
      inputSchema: {
        type: "object",
        properties: { user: { type: "string" }, password: { type: "string" }, apiKey: { type: "string" }, nested: { type: "object" } },
      },
      handler: () => text("logged in"),
    },
  ],
});

/** An extension whose setup throws "broken on purpose" (so it is listed as failed, with that error). */
export const broken = defineExtension({
  name: "broken",
  setup: () => {
    throw new Error("broken on purpose");
  },
});
