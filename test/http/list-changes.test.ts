// List changes reach clients (docs/design.md §4 rules 10–11, §8; issue 3 part 3): when an extension changes its offer
// through the ctx it got in setup, or an `onToolset` extension is woken by one URL, clients of the affected
// selections are told — modern clients on their `subscriptions/listen` stream, legacy clients (v2 default and
// v1) on their session's GET stream — and their next tools/list shows the new offer. Clients of a selection the
// change does not touch are not told.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ExtensionContext, McpExtension } from "../../src/extension/types.js";
import {
  Cleanup,
  callText,
  connectV1,
  connectV2,
  deferred,
  listedTools,
  serveHost,
  watchLegacyStreams,
  type ToolClient,
  type V2Era,
} from "../helpers/http-host.js";

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

function deployment() {
  const got: { ctx?: ExtensionContext } = {};
  const notes: McpExtension = {
    name: "notes",
    toolsets: [{ name: "notes" }],
    tools: [{ name: "count", handler: () => text("3") }],
    setup: (ctx) => {
      got.ctx = ctx;
    },
  };
  const other: McpExtension = { name: "other", toolsets: [{ name: "other", default: false }], tools: [{ name: "other_tool", handler: () => text("o") }] };
  const lazy: McpExtension = {
    name: "lazy",
    activation: "onToolset",
    toolsets: [{ name: "lazy" }],
    tools: [{ name: "lazy_tool", handler: () => text("awake") }],
  };
  return { extensions: [notes, other, lazy], ctx: () => got.ctx! };
}

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

interface Listener {
  label: string;
  client: ToolClient;
  /** How many list_changed notifications (tools) reached it. */
  told(): number;
  /** Resolves with the tool names the client re-listed when it was first told. */
  firstTold: Promise<string[]>;
}

async function v2Listener(url: URL, era: V2Era, label: string): Promise<Listener> {
  let count = 0;
  const first = deferred<string[]>();
  const { client } = await connectV2(cleanup, url, era, {
    name: label,
    clientOptions: {
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error, tools) => {
            count += 1;
            first.resolve(error ? [`error: ${error.message}`] : (tools ?? []).map((t) => t.name));
          },
        },
      },
    },
  });
  if (era === "modern") assert.ok(client.autoOpenedSubscription, `${label}: listChanged opened a subscriptions/listen stream`);
  return { label, client, told: () => count, firstTold: first.promise };
}

async function v1Listener(url: URL, label: string): Promise<Listener> {
  let count = 0;
  const first = deferred<string[]>();
  const { client } = await connectV1(cleanup, url, {
    listChanged: {
      tools: {
        debounceMs: 0,
        onChanged: (error, tools) => {
          count += 1;
          first.resolve(error ? [`error: ${error.message}`] : (tools ?? []).map((t) => t.name));
        },
      },
    },
  });
  return { label, client, told: () => count, firstTold: first.promise };
}

describe("list changes reach clients", { timeout: 30_000 }, () => {
  it("tells modern and legacy clients of the changed selection when an extension adds a tool, and not the others", async () => {
    const { extensions, ctx } = deployment();
    const streams = watchLegacyStreams();
    const { at } = await serveHost(cleanup, extensions, { host: { serverFactory: streams.serverFactory } });
    const told = [
      await v2Listener(at("only=notes"), "modern", "v2 pinned"),
      await v2Listener(at("only=notes"), "legacy", "v2 default"),
      await v1Listener(at("only=notes"), "v1"),
    ];
    const untold = [await v2Listener(at("only=other"), "modern", "v2 pinned, other"), await v2Listener(at("only=other"), "legacy", "v2 default, other")];
    await streams.opened(3);
    for (const l of told) assert.deepEqual(await listedTools(l.client), ["count", "list_server_toolsets"], l.label);

    ctx().addTool({ name: "added", handler: () => text("new") });

    const relisted = await Promise.all(told.map((l) => l.firstTold));
    assert.deepEqual(
      relisted,
      told.map(() => ["added", "count", "list_server_toolsets"]),
    );
    for (const l of told) {
      assert.deepEqual(await listedTools(l.client), ["added", "count", "list_server_toolsets"], l.label);
      assert.equal(await callText(l.client, "added"), "new", l.label);
      assert.equal(l.told(), 1, `${l.label} was told once`);
    }
    for (const l of untold) {
      assert.deepEqual(await listedTools(l.client), ["list_server_toolsets", "other_tool"], l.label);
      assert.equal(l.told(), 0, `${l.label} is on a selection the change does not touch`);
    }
  });

  it("tells the clients of the selections that include a toolset when an onToolset extension is woken by another URL", async () => {
    const { extensions } = deployment();
    const streams = watchLegacyStreams();
    const { at } = await serveHost(cleanup, extensions, { host: { serverFactory: streams.serverFactory } });
    // The default selection includes the (dormant) lazy toolset but names nothing, so it does not wake it.
    const told = [await v2Listener(at(""), "modern", "v2 pinned, default"), await v2Listener(at(""), "legacy", "v2 default, default")];
    const untold = [await v2Listener(at("only=other"), "modern", "v2 pinned, other")];
    await streams.opened(1);
    for (const l of told) assert.deepEqual(await listedTools(l.client), ["count", "list_server_toolsets"], l.label);

    const { client: waker } = await connectV2(cleanup, at("only=lazy"), "modern");
    assert.deepEqual(await listedTools(waker), ["lazy_tool", "list_server_toolsets"]);

    assert.deepEqual(
      await Promise.all(told.map((l) => l.firstTold)),
      told.map(() => ["count", "lazy_tool", "list_server_toolsets"]),
    );
    for (const l of told) assert.equal(await callText(l.client, "lazy_tool"), "awake", l.label);
    for (const l of untold) {
      assert.deepEqual(await listedTools(l.client), ["list_server_toolsets", "other_tool"]);
      assert.equal(l.told(), 0, `${l.label} is on a selection the wake does not touch`);
    }
  });

  it("tells a legacy session when a tool is removed, and the removed tool is no longer callable on it", async () => {
    const { extensions, ctx } = deployment();
    const streams = watchLegacyStreams();
    const { at } = await serveHost(cleanup, extensions, { host: { serverFactory: streams.serverFactory } });
    ctx().addTool({ name: "temporary", handler: () => text("here") });
    const l = await v1Listener(at("only=notes"), "v1");
    await streams.opened(1);
    assert.equal(await callText(l.client, "temporary"), "here");
    ctx().removeTool("temporary");
    assert.deepEqual(await l.firstTold, ["count", "list_server_toolsets"]);
    await assert.rejects(l.client.callTool({ name: "temporary", arguments: {} }), /Unknown tool "temporary"/);
  });
});
