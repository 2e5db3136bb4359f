// Argument completion for prompts and resource templates, and resource subscriptions, over real HTTP in both
// eras (issue 3 part 2): `completion/complete` answers from the extension's complete functions; a legacy client
// that subscribed with `resources/subscribe` gets `notifications/resources/updated` when the extension calls
// `ctx.resourceUpdated(uri)` (and stops after unsubscribing); a modern client gets it on a `subscriptions/listen`
// stream that asked for that URI. URIs nobody subscribed to are not sent.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ExtensionContext, McpExtension } from "../../src/extension/types.js";
import { Cleanup, connectV1, connectV2, deferred, serveHost, watchLegacyStreams } from "../helpers/http-host.js";

function notesExtension() {
  const got: { ctx?: ExtensionContext } = {};
  const extension: McpExtension = {
    name: "notes",
    toolsets: [{ name: "notes" }],
    resources: [
      { uri: "note://a", name: "a", read: () => ({ contents: [{ uri: "note://a", text: "A" }] }) },
      { uri: "note://b", name: "b", read: () => ({ contents: [{ uri: "note://b", text: "B" }] }) },
    ],
    resourceTemplates: [
      {
        uriTemplate: "note://{id}",
        name: "note",
        complete: { id: (value) => ["alpha", "apple", "beta"].filter((id) => id.startsWith(value)) },
        read: (uri) => ({ contents: [{ uri, text: uri }] }),
      },
    ],
    prompts: [
      {
        name: "greet",
        arguments: [{ name: "who", required: true }, { name: "mood" }],
        complete: {
          who: (value, { arguments: args }) => ["ada", "alan", "bob"].filter((n) => n.startsWith(value)).map((n) => (args.mood ? `${n} (${args.mood})` : n)),
        },
        get: (args) => ({ messages: [{ role: "user", content: { type: "text", text: `hi ${args.who}` } }] }),
      },
    ],
    setup: (ctx) => {
      got.ctx = ctx;
    },
  };
  return { extension, ctx: () => got.ctx! };
}

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** Collects resource URIs as they arrive and resolves once `uri` has arrived. */
function updates() {
  const uris: string[] = [];
  const waits = new Map<string, () => void>();
  return {
    uris,
    push(uri: string) {
      uris.push(uri);
      waits.get(uri)?.();
    },
    arrived(uri: string): Promise<void> {
      if (uris.includes(uri)) return Promise.resolve();
      const d = deferred();
      waits.set(uri, d.resolve);
      return d.promise;
    },
  };
}

describe("argument completion", { timeout: 30_000 }, () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`completes prompt arguments and template variables (v2 ${era})`, async () => {
      const { extension } = notesExtension();
      const { at } = await serveHost(cleanup, [extension]);
      const { client } = await connectV2(cleanup, at("only=notes"), era);
      const prompt = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "a" } });
      assert.deepEqual(prompt.completion, { values: ["ada", "alan"], total: 2, hasMore: false });
      const withContext = await client.complete({
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "who", value: "b" },
        context: { arguments: { mood: "sunny" } },
      });
      assert.deepEqual(withContext.completion, { values: ["bob (sunny)"], total: 1, hasMore: false });
      const template = await client.complete({ ref: { type: "ref/resource", uri: "note://{id}" }, argument: { name: "id", value: "ap" } });
      assert.deepEqual(template.completion, { values: ["apple"], total: 1, hasMore: false });
      const nothing = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "mood", value: "" } });
      assert.deepEqual(nothing.completion, { values: [], hasMore: false });
    });
  }

  it("completes for the v1 client too", async () => {
    const { extension } = notesExtension();
    const { at } = await serveHost(cleanup, [extension]);
    const { client } = await connectV1(cleanup, at("only=notes"));
    const result = await client.complete({ ref: { type: "ref/resource", uri: "note://{id}" }, argument: { name: "id", value: "a" } });
    assert.deepEqual(result.completion, { values: ["alpha", "apple"], total: 2, hasMore: false });
  });
});

describe("argument names are plain names", { timeout: 30_000 }, () => {
  // Issue 17 class 9: a completion's argument name was looked up on the `complete` object itself, so `constructor`
  // reached Object and `__proto__` the prototype — a wrong answer or an internal error for a client's plain name.
  for (const era of ["legacy", "modern"] as const) {
    it(`completes nothing, and logs nothing, for argument names an object inherits (${era})`, async () => {
      const { extension } = notesExtension();
      const { at, records } = await serveHost(cleanup, [extension]);
      const { client } = await connectV2(cleanup, at("only=notes"), era);
      const wrong: string[] = [];
      for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"]) {
        for (const ref of [
          { type: "ref/prompt", name: "greet" },
          { type: "ref/resource", uri: "note://{id}" },
        ] as const) {
          try {
            const answer = await client.complete({ ref, argument: { name, value: "a" } });
            if (JSON.stringify(answer.completion) !== JSON.stringify({ values: [], hasMore: false }))
              wrong.push(`${ref.type} ${name}: ${JSON.stringify(answer.completion)}`);
          } catch (error) {
            wrong.push(`${ref.type} ${name}: ${(error as Error).message}`);
          }
        }
      }
      assert.deepEqual(wrong, []);
      assert.deepEqual(
        records.filter((r) => r.level === "error").map((r) => r.message),
        [],
      );
    });
  }
});

describe("resource subscriptions", { timeout: 30_000 }, () => {
  it("tells a legacy v2 client about updates to the URIs it subscribed to, and stops after it unsubscribes", async () => {
    const { extension, ctx } = notesExtension();
    const streams = watchLegacyStreams();
    const { at } = await serveHost(cleanup, [extension], { host: { serverFactory: streams.serverFactory } });
    const seen = updates();
    const { client } = await connectV2(cleanup, at("only=notes"), "legacy", {
      setup: (c) => c.setNotificationHandler("notifications/resources/updated", (n) => seen.push(n.params.uri)),
    });
    await streams.opened(1);
    await client.subscribeResource({ uri: "note://a" });
    ctx().resourceUpdated("note://b");
    ctx().resourceUpdated("note://a");
    await seen.arrived("note://a");
    assert.deepEqual(seen.uris, ["note://a"], "note://b was not subscribed to");

    await client.subscribeResource({ uri: "note://b" });
    await client.unsubscribeResource({ uri: "note://a" });
    ctx().resourceUpdated("note://a");
    ctx().resourceUpdated("note://b");
    await seen.arrived("note://b");
    assert.deepEqual(seen.uris, ["note://a", "note://b"]);
  });

  it("tells a v1 client about updates to the URIs it subscribed to", async () => {
    const { extension, ctx } = notesExtension();
    const streams = watchLegacyStreams();
    const { at } = await serveHost(cleanup, [extension], { host: { serverFactory: streams.serverFactory } });
    const seen = updates();
    const { client } = await connectV1(cleanup, at("only=notes"), {
      setup: (c) => c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => seen.push(n.params.uri)),
    });
    await streams.opened(1);
    await client.subscribeResource({ uri: "note://b" });
    ctx().resourceUpdated("note://a");
    ctx().resourceUpdated("note://b");
    await seen.arrived("note://b");
    assert.deepEqual(seen.uris, ["note://b"]);
  });

  it("tells a modern client on a subscriptions/listen stream about the URIs it listens to", async () => {
    const { extension, ctx } = notesExtension();
    const { at } = await serveHost(cleanup, [extension]);
    const seen = updates();
    const tagged: unknown[] = [];
    const { client } = await connectV2(cleanup, at("only=notes"), "modern", {
      setup: (c) =>
        c.setNotificationHandler("notifications/resources/updated", (n) => {
          tagged.push(n.params._meta?.["io.modelcontextprotocol/subscriptionId"]);
          seen.push(n.params.uri);
        }),
    });
    await assert.rejects(client.subscribeResource({ uri: "note://a" }), "resources/subscribe does not exist in 2026-07-28");
    const subscription = await client.listen({ resourceSubscriptions: ["note://a"] });
    cleanup.add(() => subscription.close());
    assert.deepEqual(subscription.honoredFilter, { resourceSubscriptions: ["note://a"] });
    ctx().resourceUpdated("note://b");
    ctx().resourceUpdated("note://a");
    await seen.arrived("note://a");
    assert.deepEqual(seen.uris, ["note://a"]);
    assert.equal(typeof tagged[0], "string", "the notification names its subscription");
  });
});
