// What a tool handler can do through its ctx, in both eras over real HTTP (docs/design.md §8, issue 3 part 2):
// report progress, log to the client at the level it asked for, ask for elicitation and sampling (MRTR
// `input_required` for modern clients, real server-to-client requests on a legacy session, a clean refusal for a
// client that did not declare the capability), read the verified caller (`ctx.auth`) and its selection.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import express from "express";
import type { Client } from "@modelcontextprotocol/client";
import { ProtocolError } from "@modelcontextprotocol/client";
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import { acceptedContent, inputRequired, inputResponse } from "../../src/index.js";
import type { McpExtension } from "../../src/extension/types.js";
import type { ServerFactory } from "../../src/host/built-server.js";
import { Cleanup, callText, connectV1, connectV2, errorText, serveHost, type V2Era } from "../helpers/http-host.js";

const NameSchema = z.object({ name: z.string() });
const LEVELS = ["debug", "info", "notice", "warning", "error"] as const;

const kit: McpExtension = {
  name: "kit",
  toolsets: [{ name: "kit" }, { name: "spare", default: false }],
  tools: [
    {
      name: "work",
      handler: async (_args, ctx) => {
        await ctx.progress(1, 2, "half way");
        await ctx.progress(2, 2, "done");
        return { content: [{ type: "text", text: "worked" }] };
      },
    },
    {
      name: "chatty",
      handler: async (_args, ctx) => {
        for (const level of LEVELS) await ctx.log(level, `${level} line`);
        return { content: [{ type: "text", text: "said it all" }] };
      },
    },
    {
      name: "ask_name",
      handler: (_args, ctx) => {
        const got = acceptedContent(ctx.inputResponses, "who", NameSchema);
        if (!got) return inputRequired({ inputRequests: { who: inputRequired.elicit({ message: "What is your name?", requestedSchema: NameSchema }) } });
        return { content: [{ type: "text", text: `hello ${got.name}` }] };
      },
    },
    {
      name: "summarise",
      handler: (_args, ctx) => {
        const answer = inputResponse(ctx.inputResponses, "llm");
        if (answer.kind !== "sampling") {
          return inputRequired({
            inputRequests: {
              llm: inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Summarise: notes" } }], maxTokens: 20 }),
            },
          });
        }
        const content = answer.result.content as { type: string; text?: string };
        return { content: [{ type: "text", text: `summary: ${content.text} (${answer.result.model})` }] };
      },
    },
    {
      name: "whoami",
      handler: (_args, ctx) => ({ content: [{ type: "text", text: JSON.stringify({ era: ctx.era, auth: ctx.auth ?? null, selection: ctx.selection }) }] }),
    },
  ],
};

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

type Kind = "v2 legacy" | "v2 modern" | "v1";
const KINDS: Kind[] = ["v2 legacy", "v2 modern", "v1"];

interface Asked {
  elicitations: string[];
  samplings: string[];
}

/** A client of `kind` that declares elicitation and sampling (or not) and answers them, recording what it was asked. */
async function connect(kind: Kind, url: URL, options: { capabilities: boolean; headers?: Record<string, string> }) {
  const asked: Asked = { elicitations: [], samplings: [] };
  const capabilities = options.capabilities ? { elicitation: { form: {} }, sampling: {} } : {};
  if (kind === "v1") {
    const { client } = await connectV1(cleanup, url, {
      capabilities,
      ...(options.headers ? { headers: options.headers } : {}),
      setup: (c) => {
        if (!options.capabilities) return;
        c.setRequestHandler(ElicitRequestSchema, async (request) => {
          asked.elicitations.push(request.params.message);
          return { action: "accept", content: { name: "Linus" } };
        });
        c.setRequestHandler(CreateMessageRequestSchema, async (request) => {
          asked.samplings.push(JSON.stringify(request.params.messages));
          return { role: "assistant", content: { type: "text", text: "short" }, model: "fake-model" };
        });
      },
    });
    return { kind, v1: client, asked };
  }
  const era: V2Era = kind === "v2 modern" ? "modern" : "legacy";
  const { client } = await connectV2(cleanup, url, era, {
    ...(options.headers ? { headers: options.headers } : {}),
    clientOptions: { capabilities },
    setup: (c) => {
      if (!options.capabilities) return;
      c.setRequestHandler("elicitation/create", async (request) => {
        asked.elicitations.push(request.params.message);
        return { action: "accept", content: { name: "Ada" } };
      });
      c.setRequestHandler("sampling/createMessage", async (request) => {
        asked.samplings.push(JSON.stringify(request.params.messages));
        return { role: "assistant", content: { type: "text", text: "short" }, model: "fake-model" };
      });
    },
  });
  return { kind, v2: client, asked };
}

type Connected = Awaited<ReturnType<typeof connect>>;
const clientOf = (c: Connected): Client | V1Client => (c.v2 ?? c.v1)!;

describe("tool context over HTTP", { timeout: 30_000 }, () => {
  for (const kind of KINDS) {
    it(`delivers progress to the caller's onprogress (${kind})`, async () => {
      const { at } = await serveHost(cleanup, [kit]);
      const c = await connect(kind, at("only=kit"), { capabilities: false });
      const progress: unknown[] = [];
      const onprogress = (p: unknown) => void progress.push(p);
      const result = c.v2
        ? await c.v2.callTool({ name: "work", arguments: {} }, { onprogress })
        : await c.v1!.callTool({ name: "work", arguments: {} }, undefined, { onprogress });
      assert.deepEqual(result.content, [{ type: "text", text: "worked" }]);
      assert.deepEqual(progress, [
        { progress: 1, total: 2, message: "half way" },
        { progress: 2, total: 2, message: "done" },
      ]);
    });
  }

  for (const kind of ["v2 legacy", "v1"] as const) {
    it(`logs to a legacy client with notifications/message, honouring the level it set (${kind})`, async () => {
      const { at } = await serveHost(cleanup, [kit]);
      const c = await connect(kind, at("only=kit"), { capabilities: false });
      const messages: unknown[] = [];
      if (c.v2) c.v2.setNotificationHandler("notifications/message", (n) => void messages.push(n.params));
      else c.v1!.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params));
      await clientOf(c).setLoggingLevel("warning");
      assert.equal(await callText(clientOf(c), "chatty"), "said it all");
      assert.deepEqual(messages, [
        { level: "warning", logger: "kit", data: "warning line" },
        { level: "error", logger: "kit", data: "error line" },
      ]);
    });
  }

  it("logs to a modern client only at or above the level named in the request's _meta", async () => {
    const { at } = await serveHost(cleanup, [kit]);
    const { client } = await connectV2(cleanup, at("only=kit"), "modern");
    const messages: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => void messages.push({ level: n.params.level, logger: n.params.logger, data: n.params.data }));
    await client.callTool({ name: "chatty", arguments: {} });
    assert.deepEqual(messages, [], "no log level asked for, no notifications/message (2026-07-28)");
    await client.callTool({ name: "chatty", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "notice" } });
    assert.deepEqual(messages, [
      { level: "notice", logger: "kit", data: "notice line" },
      { level: "warning", logger: "kit", data: "warning line" },
      { level: "error", logger: "kit", data: "error line" },
    ]);
  });

  for (const kind of KINDS) {
    it(`asks a client that declared them for elicitation and sampling, and uses the answers (${kind})`, async () => {
      const { at } = await serveHost(cleanup, [kit]);
      const c = await connect(kind, at("only=kit"), { capabilities: true });
      const name = kind === "v1" ? "Linus" : "Ada";
      assert.equal(await callText(clientOf(c), "ask_name"), `hello ${name}`);
      assert.equal(await callText(clientOf(c), "summarise"), "summary: short (fake-model)");
      assert.deepEqual(c.asked, {
        elicitations: ["What is your name?"],
        samplings: [JSON.stringify([{ role: "user", content: { type: "text", text: "Summarise: notes" } }])],
      });
    });
  }

  for (const kind of ["v2 legacy", "v1"] as const) {
    it(`refuses elicitation and sampling with an isError result when a legacy client did not declare them (${kind})`, async () => {
      const { at } = await serveHost(cleanup, [kit]);
      const c = await connect(kind, at("only=kit"), { capabilities: false });
      assert.equal(
        errorText(await clientOf(c).callTool({ name: "ask_name", arguments: {} })),
        "Cannot request input 'who' (elicitation/create): the client on this 2025-era connection did not declare the required capability",
      );
      assert.equal(
        errorText(await clientOf(c).callTool({ name: "summarise", arguments: {} })),
        "Cannot request input 'llm' (sampling/createMessage): the client on this 2025-era connection did not declare the required capability",
      );
      assert.equal(
        await callText(clientOf(c), "whoami"),
        JSON.stringify({ era: "legacy", auth: null, selection: { active: ["kit"], unknown: [] } }),
        "the session still works",
      );
    });
  }

  it("refuses elicitation and sampling with -32021 naming the capability when a modern client did not declare them", async () => {
    const { at } = await serveHost(cleanup, [kit]);
    const { client } = await connectV2(cleanup, at("only=kit"), "modern");
    for (const [tool, key, method] of [
      ["ask_name", "who", "elicitation/create"],
      ["summarise", "llm", "sampling/createMessage"],
    ] as const) {
      const error = await client.callTool({ name: tool, arguments: {} }).then(
        () => assert.fail(`${tool} should have been refused`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${String(error)}`);
      assert.equal(error.code, -32021);
      assert.equal(error.message, `Cannot request input '${key}' (${method}): the request's client capabilities do not declare the required capability`);
    }
  });

  it("gives handlers the caller that a serverFactory middleware verified, as ctx.auth without the raw token, in both eras", async () => {
    const serverFactory: ServerFactory = ({ handler }) =>
      express.Router().use((req, _res, next) => {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
        if (token) (req as { auth?: unknown }).auth = { token, clientId: `client-of-${token}`, scopes: ["notes:read"] };
        next();
      }, handler);
    const { at } = await serveHost(cleanup, [kit], { host: { serverFactory } });
    for (const kind of KINDS) {
      const c = await connect(kind, at("only=kit"), { capabilities: false, headers: { Authorization: `Bearer t-${kind.replace(/ /g, "-")}` } });
      const seen = JSON.parse(await callText(clientOf(c), "whoami")) as { auth: unknown; era: string };
      // The token is emptied before anything behind the selection's guard sees it (no token passthrough).
      assert.deepEqual(seen.auth, { token: "", clientId: `client-of-t-${kind.replace(/ /g, "-")}`, scopes: ["notes:read"] }, kind);
      assert.equal(seen.era, kind === "v2 modern" ? "modern" : "legacy");
    }
    const anonymous = await connect("v2 modern", at("only=kit"), { capabilities: false });
    assert.equal(JSON.parse(await callText(clientOf(anonymous), "whoami")).auth, null);
  });

  for (const kind of KINDS) {
    it(`gives handlers the request's selection: active and unknown toolsets (${kind})`, async () => {
      const { at } = await serveHost(cleanup, [kit]);
      const c = await connect(kind, at("kit&spare&nosuch"), { capabilities: false });
      assert.deepEqual(JSON.parse(await callText(clientOf(c), "whoami")), {
        era: kind === "v2 modern" ? "modern" : "legacy",
        auth: null,
        selection: { active: ["kit", "spare"], unknown: ["nosuch"] },
      });
      const onlyKit = await connect(kind, at("only=kit"), { capabilities: false, headers: {} });
      assert.deepEqual(JSON.parse(await callText(clientOf(onlyKit), "whoami")).selection, { active: ["kit"], unknown: [] });
    });
  }
});
