// The host's one observation seam (docs/design.md §18): `HostOptions.observer` hears every request the protocol core
// answers — its method, era, the routed tool — and how it ended (the tool call's outcome, a JSON-RPC error code),
// and every build-cache lookup (a miss with its compile time, then hits). An observer that throws anywhere is
// ignored: the client gets the answer it would have got without one.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseSelection } from "../../../src/host/selection.js";
import type { HostObserver, ObservedBuild, ObservedEnd, ObservedRequest } from "../../../src/host/observer.js";
import { connectInProcess, type InProcessConnection } from "../../helpers/in-process.js";
import { startedHost } from "../../helpers/kit.js";
import { kit } from "../../helpers/observed-host.js";

const open: InProcessConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

function recording(): { observer: HostObserver; seen: Array<{ request: ObservedRequest; ended?: ObservedEnd }>; builds: ObservedBuild[] } {
  const seen: Array<{ request: ObservedRequest; ended?: ObservedEnd }> = [];
  const builds: ObservedBuild[] = [];
  return {
    seen,
    builds,
    observer: {
      request: (request) => {
        const entry: { request: ObservedRequest; ended?: ObservedEnd } = { request };
        seen.push(entry);
        return { run: (work) => work(), end: (ended) => (entry.ended = ended) };
      },
      build: (event) => builds.push(event),
    },
  };
}

describe("the observer seam", () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`hears each request and how a tool call ended (${era})`, async () => {
      const { observer, seen, builds } = recording();
      const { host } = await startedHost([kit], { observer });
      const connection = await connectInProcess(host, "only=kit", { era });
      open.push(connection);
      await connection.client.listTools();
      await connection.client.callTool({ name: "echo", arguments: { text: "x" } });
      await connection.client.callTool({ name: "refuse", arguments: {} });
      await connection.client.callTool({ name: "sleepy", arguments: {} });
      await connection.client.callTool({ name: "echo", arguments: {} });
      await assert.rejects(connection.client.callTool({ name: "nosuch", arguments: {} }));
      const calls = seen.filter((s) => s.request.method === "tools/call");
      assert.deepEqual(
        calls.map((c) => [c.request.toolName, c.request.tool?.toolset ?? "-", c.request.tool?.extension ?? "-", c.ended?.outcome, c.ended?.errorCode ?? "-"]),
        [
          ["echo", "kit", "kit", "ok", "-"],
          ["refuse", "kit", "kit", "isError", "-"],
          ["sleepy", "kit", "kit", "timeout", "-"],
          ["echo", "kit", "kit", "refused", "-"],
          ["nosuch", "-", "-", "refused", -32602],
        ],
      );
      assert.deepEqual(calls[0]!.request.arguments, { text: "x" });
      assert.ok(calls.every((c) => c.request.era === era && typeof c.ended?.durationMs === "number"));
      assert.ok(seen.some((s) => s.request.method === "tools/list" && s.ended?.outcome === undefined));
      assert.equal(builds.filter((b) => !b.hit).length, 1, "one build for one selection");
      assert.equal(typeof builds.find((b) => !b.hit)?.durationMs, "number");
      await host.describe(parseSelection("only=kit"));
      assert.deepEqual(builds.at(-1), { key: "kit", hit: true }, "the next lookup of that selection is a hit");
    });
  }

  it("serves every request although the observer throws when asked, when running, or at the end", async () => {
    const broken: HostObserver[] = [
      {
        request: () => {
          throw new Error("request");
        },
      },
      { request: () => ({ run: () => Promise.reject(new Error("run")), end: () => {} }) },
      {
        request: () => ({
          run: (work) => work(),
          end: () => {
            throw new Error("end");
          },
        }),
        build: () => {
          throw new Error("build");
        },
      },
    ];
    for (const observer of broken) {
      const { host } = await startedHost([kit], { observer });
      const connection = await connectInProcess(host, "only=kit");
      open.push(connection);
      const result = await connection.client.callTool({ name: "echo", arguments: { text: "fine" } });
      assert.deepEqual(result.content, [{ type: "text", text: "fine" }]);
    }
  });
});
