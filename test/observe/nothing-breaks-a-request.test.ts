// Nothing observability does may break a request (docs/design.md §18): a span exporter that throws or fails, a span
// processor that throws when a span starts, a log stream that throws, one that reports write errors (a full disk),
// and one that cannot keep up — every request is still served, with the result the client expects.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { ExportResultCode } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { buildHost } from "../../src/host/build-host.js";
import { listenHost } from "../../src/http/listen.js";
import { createObservability } from "../../src/observe/observability.js";
import { createPinoLogger } from "../../src/observe/pino-logger.js";
import { MAX_BUFFERED_BYTES } from "../../src/observe/log-stream.js";
import type { Logger } from "../../src/logger.js";
import { Cleanup, raw, modernBody, modernHeaders } from "../helpers/http-host.js";
import { kit } from "../helpers/observed-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function serve(logger: Logger, provider?: BasicTracerProvider) {
  const observability = createObservability({ logger, metrics: { defaultMetrics: false }, ...(provider ? { tracing: { provider } } : {}) });
  const host = buildHost([kit], { name: "t", logger, observer: observability.hostObserver });
  await host.start();
  const served = await listenHost(host, { port: 0, observability });
  cleanup.add(() => served.close());
  return served;
}

async function echo(url: URL, text: string) {
  const answer = await raw({
    url: new URL(`${url.href}?only=kit`),
    method: "POST",
    headers: { ...modernHeaders("tools/call", "echo"), traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
    body: modernBody("tools/call", { name: "echo", arguments: { text } }),
  });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.json.result.content, [{ type: "text", text }]);
}

const quiet = createPinoLogger({ format: "json", stream: { write: () => true } });

describe("nothing observability does breaks a request", { timeout: 60_000 }, () => {
  it("serves every request although the span exporter throws, fails, or a processor throws when a span starts", async () => {
    let exports = 0;
    const throwing: SpanExporter = {
      export: () => {
        exports += 1;
        throw new Error("exporter down");
      },
      shutdown: async () => {},
    };
    const failing: SpanExporter = {
      export: (_spans: ReadableSpan[], done) => {
        exports += 1;
        done({ code: ExportResultCode.FAILED, error: new Error("collector refused") });
      },
      shutdown: async () => {},
    };
    const startFails: SpanProcessor = {
      onStart: () => {
        throw new Error("processor broken");
      },
      onEnd: () => {},
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    for (const processors of [
      [new SimpleSpanProcessor(throwing)],
      [new SimpleSpanProcessor(failing)],
      [new BatchSpanProcessor(failing, { scheduledDelayMillis: 1 })],
      [startFails],
    ]) {
      const provider = new BasicTracerProvider({ spanProcessors: processors });
      const served = await serve(quiet, provider);
      await echo(served.url, "still served");
      await echo(served.url, "and again");
      await provider.forceFlush().catch(() => {});
      await provider.shutdown().catch(() => {});
    }
    assert.ok(exports >= 4, "the failing exporters were really called");
  });

  it("serves every request although the log stream throws on write", async () => {
    let writes = 0;
    const logger = createPinoLogger({
      format: "json",
      stream: {
        write: () => {
          writes += 1;
          throw new Error("EPIPE");
        },
      },
    });
    const served = await serve(logger);
    await echo(served.url, "a");
    await echo(served.url, "b");
    assert.ok(writes > 0, "the logger did try to write");
    assert.ok(logger.dropped > 0);
  });

  it("serves every request although the log stream reports write errors (a full disk), and says how many lines it lost once it can write again", async () => {
    let full = true;
    const written: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (full) done(Object.assign(new Error("no space left on device"), { code: "ENOSPC" }));
        else {
          written.push(chunk.toString("utf8"));
          done();
        }
      },
    });
    const logger = createPinoLogger({ format: "json", stream });
    const served = await serve(logger);
    await echo(served.url, "disk full");
    // A failed write destroys a Node stream: the logger must have kept the 'error' event from crashing the process.
    assert.equal(stream.destroyed, true);
    full = false;
    await echo(served.url, "after");
  });

  it("drops lines, counted, when the stream cannot keep up, and serves every request", async () => {
    const backlog = { write: () => true, writableLength: MAX_BUFFERED_BYTES + 1 };
    const logger = createPinoLogger({ format: "json", stream: backlog });
    const served = await serve(logger);
    await echo(served.url, "busy");
    assert.ok(logger.dropped >= 2, `lines were dropped (${logger.dropped})`);
    backlog.writableLength = 0;
    const lines: string[] = [];
    Object.assign(backlog, { write: (line: string) => lines.push(line) });
    logger.info("back");
    assert.match(lines[0]!, /"msg":"back"/);
    assert.match(lines[1]!, /log lines were dropped \(the log stream failed or was full\)/);
  });
});
