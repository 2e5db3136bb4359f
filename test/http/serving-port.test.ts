// The host reaches its HTTP layer through a serving layer given when serving starts (src/host/serving-port.ts): every
// build's handler is made by it, so a build made before serving never serves unchecked (it answers 503) and the next
// request gets a build made with the layer; a second app on a served host is refused, not a silent take-over; and
// the per-selection endpoints are bounded like the build cache without ever dropping one whose listen stream is open.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ExtensionContext, McpExtension } from "../../src/extension/types.js";
import { buildHost } from "../../src/host/build-host.js";
import { parseSelection } from "../../src/host/selection.js";
import { createHostApp } from "../../src/http/app.js";
import { isMcpHostError } from "../../src/errors.js";
import { memoryLogger } from "../../src/logger.js";
import { Cleanup, connectV2, deferred, listedTools, serveHost } from "../helpers/http-host.js";
import { listenHost } from "../../src/http/listen.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const toolsetOf = (name: string, extra: Partial<McpExtension> = {}): McpExtension => ({
  name,
  toolsets: [{ name, default: false }],
  tools: [{ name: `${name}_tool`, handler: () => text(name) }],
  ...extra,
});

describe("the serving layer", () => {
  it("remakes a build made before serving started, so none serves without the layer's checks", async () => {
    const host = buildHost([toolsetOf("early")], { name: "port", logger: memoryLogger().logger });
    await host.start();
    const before = await host.build(parseSelection("only=early"));
    const served = await listenHost(host, { port: 0 });
    cleanup.add(() => served.close());
    const after = await host.build(parseSelection("only=early"));
    assert.notEqual(after.server, before.server, "the build was remade with the serving layer's handler");
    assert.ok(after.revision > before.revision);
    const { client } = await connectV2(cleanup, new URL(`${served.url.href}?only=early`), "modern");
    assert.deepEqual(await listedTools(client), ["early_tool", "list_server_toolsets"]);
    // The old one is no door: whoever kept it gets the 503 a host nobody serves gives.
    const answer = deferred<number>();
    before.server({} as never, { headersSent: false, writeHead: (code: number) => answer.resolve(code), end: () => {} } as never, () => {});
    assert.equal(await answer.promise, 503);
  });

  it("refuses a second app on a host that is being served, and serves again once the first is closed", async () => {
    const host = buildHost([toolsetOf("one")], { name: "port", logger: memoryLogger().logger });
    await host.start();
    cleanup.add(() => host.stop());
    const first = createHostApp(host);
    assert.throws(
      () => createHostApp(host),
      (e: unknown) =>
        isMcpHostError(e, "HOST_ALREADY_SERVED") &&
        e.message === 'host "port" is already being served over HTTP; close the first app (hostApp.close()) before serving it again, or build a second host',
    );
    await first.close();
    const served = await listenHost(host, { port: 0 });
    cleanup.add(() => served.close({ stopHost: false }));
    const { client } = await connectV2(cleanup, new URL(`${served.url.href}?only=one`), "modern");
    assert.deepEqual(await listedTools(client), ["list_server_toolsets", "one_tool"]);
  });

  it("answers 503 on a selection's server while nobody serves the host", async () => {
    const host = buildHost([toolsetOf("idle")], { name: "port", logger: memoryLogger().logger });
    await host.start();
    cleanup.add(() => host.stop());
    const built = await host.build(parseSelection("only=idle"));
    const status = deferred<{ status: number; body: string; retryAfter: unknown }>();
    const res = {
      headersSent: false,
      writeHead(code: number, headers: Record<string, string>) {
        this.code = code;
        this.headers = headers;
      },
      end(body: string) {
        status.resolve({ status: this.code, body, retryAfter: this.headers["retry-after"] });
      },
      code: 0,
      headers: {} as Record<string, string>,
    };
    built.server({} as never, res as never, () => {});
    const answer = await status.promise;
    assert.equal(answer.status, 503);
    assert.equal(answer.retryAfter, "5");
    assert.match(JSON.parse(answer.body).error.message, /not being served right now.*createHostApp\(\) or listenHost\(\)/);
  });

  it("bounds the endpoints like the build cache, but keeps one whose listen stream is open and still tells it of changes", async () => {
    let ctx: ExtensionContext | undefined;
    const watched = toolsetOf("watched", { setup: (c) => void (ctx = c) });
    const { at } = await serveHost(cleanup, [watched, toolsetOf("b"), toolsetOf("c"), toolsetOf("d")], { host: { maxBuilds: 1 } });
    const told = deferred<string[]>();
    const { client } = await connectV2(cleanup, at("only=watched"), "modern", {
      clientOptions: {
        listChanged: { tools: { debounceMs: 0, onChanged: (error, tools) => told.resolve(error ? [error.message] : (tools ?? []).map((t) => t.name)) } },
      },
    });
    assert.ok(client.autoOpenedSubscription, "the client listens on a subscriptions/listen stream");
    for (const other of ["b", "c", "d"]) {
      const { client: visitor } = await connectV2(cleanup, at(`only=${other}`), "modern");
      assert.deepEqual(await listedTools(visitor), [`${other}_tool`, "list_server_toolsets"].sort());
    }
    ctx!.addTool({ name: "late_tool", handler: () => text("late") });
    assert.deepEqual(await told.promise, ["late_tool", "list_server_toolsets", "watched_tool"]);
  });
});
