// docs/design.md §11 pass-through, end to end: a downstream call's arguments and `_meta` reach the upstream, the
// upstream's progress reaches the downstream client's progress token, a downstream cancellation cancels the upstream
// request, and results come back faithfully (content blocks, structuredContent, isError, _meta) — for SDK v2
// clients in both eras and the v1 client, through real upstreams.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Cleanup, connectV1, connectV2 } from "../helpers/http-host.js";
import { everythingServer, legacyServer, serveGateway, stderrOf, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const TOOLS = ["meta", "progress", "hang", "mixed", "is_error"];

type Caller = {
  label: string;
  call(
    name: string,
    args: Record<string, unknown>,
    options?: { meta?: Record<string, unknown>; signal?: AbortSignal; onprogress?: (p: unknown) => void },
  ): Promise<any>;
};

async function callers(url: URL): Promise<Caller[]> {
  const v2 = (client: Client, label: string): Caller => ({
    label,
    call: (name, args, o = {}) =>
      client.callTool(
        { name, arguments: args, ...(o.meta ? { _meta: o.meta } : {}) },
        { ...(o.signal ? { signal: o.signal } : {}), ...(o.onprogress ? { onprogress: o.onprogress } : {}) },
      ),
  });
  const modern = (await connectV2(cleanup, url, "modern")).client;
  const legacy = (await connectV2(cleanup, url, "legacy")).client;
  const v1 = (await connectV1(cleanup, url)).client;
  return [
    v2(modern, "v2 pinned 2026-07-28"),
    v2(legacy, "v2 default (2025)"),
    {
      label: "v1",
      call: (name, args, o = {}) =>
        v1.callTool({ name, arguments: args, ...(o.meta ? { _meta: o.meta } : {}) }, CallToolResultSchema, {
          ...(o.signal ? { signal: o.signal } : {}),
          ...(o.onprogress ? { onprogress: o.onprogress } : {}),
        }),
    },
  ];
}

describe("calls pass through the gateway", { timeout: 60_000 }, () => {
  it("delivers the arguments and _meta to the upstream as the client sent them", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: TOOLS }) } });
    const args = { a: 1, nested: { b: [1, "two", null], c: true }, text: "x" };
    for (const caller of await callers(at("only=fx"))) {
      const seen = JSON.parse(textOf(await caller.call("meta", args, { meta: { "trace/id": caller.label, tenant: "acme" } })));
      assert.deepEqual(seen.arguments, args, caller.label);
      assert.equal(seen._meta["trace/id"], caller.label, caller.label);
      assert.equal(seen._meta.tenant, "acme", caller.label);
    }
  });

  it("relays the upstream's progress to the client's progress token", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: TOOLS }) } });
    for (const caller of await callers(at("only=fx"))) {
      const seen: unknown[] = [];
      const result = await caller.call("progress", { steps: 3, intervalMs: 10 }, { onprogress: (p) => seen.push(p) });
      assert.equal(textOf(result), "done after 3 steps", caller.label);
      assert.deepEqual(
        seen.map((p) => [(p as { progress: number }).progress, (p as { total?: number }).total]),
        [
          [1, 3],
          [2, 3],
          [3, 3],
        ],
        caller.label,
      );
    }
  });

  it("cancels the upstream request when the client cancels", async () => {
    const { at, logged, records } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: TOOLS }) } });
    for (const [i, caller] of (await callers(at("only=fx"))).entries()) {
      const controller = new AbortController();
      const calls = records.filter(stderrOf("fx", "call:hang")).length;
      const cancels = records.filter(stderrOf("fx", "cancelled:hang")).length;
      const pending = caller.call("hang", {}, { signal: controller.signal });
      await logged(() => records.filter(stderrOf("fx", "call:hang")).length > calls, `${caller.label}: the upstream started hang`);
      controller.abort(new Error("the user gave up"));
      await assert.rejects(pending);
      await logged(() => records.filter(stderrOf("fx", "cancelled:hang")).length > cancels, `${caller.label}: the upstream saw the cancellation`);
      assert.equal(records.filter(stderrOf("fx", "cancelled:hang")).length, i + 1);
    }
  });

  it("returns results as the upstream gave them: every content block, structuredContent, isError and _meta", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: TOOLS }), everything: everythingServer() } });
    for (const caller of await callers(at("fx&everything"))) {
      const mixed = await caller.call("mixed", {});
      assert.deepEqual(
        mixed.content,
        [
          { type: "text", text: "first" },
          { type: "image", data: Buffer.from("hello").toString("base64"), mimeType: "image/png" },
          { type: "text", text: "second" },
        ],
        caller.label,
      );
      assert.deepEqual(mixed.structuredContent, { count: 2 }, caller.label);
      assert.equal(mixed._meta?.["fixture/trace"], "abc", caller.label);
      assert.equal(mixed.isError, undefined, caller.label);
      const failed = await caller.call("is_error", {});
      assert.deepEqual([failed.isError, failed.content], [true, [{ type: "text", text: "upstream says no" }]], caller.label);
      const structured = await caller.call("get-structured-content", { location: "New York" });
      assert.deepEqual(structured.structuredContent, { temperature: 33, conditions: "Cloudy", humidity: 82 }, caller.label);
      const image = await caller.call("get-tiny-image", {});
      assert.deepEqual(
        image.content.map((b: { type: string; mimeType?: string }) => [b.type, b.mimeType]),
        [
          ["text", undefined],
          ["image", "image/png"],
          ["text", undefined],
        ],
        caller.label,
      );
    }
  });
});
