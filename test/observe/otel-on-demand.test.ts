// @opentelemetry/api is loaded only once something registered with it (src/observe/otel-api.ts, issue 28): a host
// serving requests with nothing registered never loads it — the cold start no longer pays for it — and a provider
// registered while the host runs is used from the next request on. The test loads neither the API nor an SDK until
// the first half is checked (each test file runs in its own process).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { Cleanup, modernBody, modernHeaders, raw } from "../helpers/http-host.js";
import { kit, serveObserved } from "../helpers/observed-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const apiLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes("/@opentelemetry/api/"));

describe("OpenTelemetry on demand", () => {
  it("serves without loading the API until a provider is registered, then traces the next request", async () => {
    const { url } = await serveObserved(cleanup, [kit]);
    const call = () =>
      raw({ url, method: "POST", headers: modernHeaders("tools/call", "echo"), body: modernBody("tools/call", { name: "echo", arguments: { text: "hi" } }) });
    assert.equal((await call()).status, 200);
    assert.equal(apiLoaded(), false, "nothing registered: the API was never loaded");

    const { InMemorySpanExporter, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
    const { NodeTracerProvider } = await import("@opentelemetry/sdk-trace-node");
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
    cleanup.add(() => provider.shutdown());
    assert.equal((await call()).status, 200);
    assert.ok(apiLoaded());
    assert.deepEqual(
      exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
      ["execute_tool echo", "tools/call echo"],
    );
  });
});
