// Prompts and resources can ask the client for input before they answer, as tools can: the same
// inputRequired(...) serves a 2026-07-28 client (multi-round-trip) and a 2025 session (a real elicitation
// request through the SDK's legacy shim).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { acceptedContent, defineExtension, inputRequired, silentLogger } from "../../src/index.js";
import { buildHost, listenHost } from "../../src/entries/host.js";
import type { ListeningHost } from "../../src/entries/host.js";

const Audience = z.object({ audience: z.string() });

const extension = defineExtension({
  name: "asking",
  prompts: [
    {
      name: "pitch",
      description: "A pitch, for an audience the user names",
      get: (_args, ctx) => {
        const answer = acceptedContent(ctx.inputResponses, "audience", Audience);
        if (!answer)
          return inputRequired({
            inputRequests: { audience: inputRequired.elicit({ message: "For whom?", requestedSchema: Audience }) },
            requestState: "pitch-1",
          });
        return { messages: [{ role: "user", content: { type: "text", text: `Pitch to ${answer.audience} (state ${ctx.requestState<string>()})` } }] };
      },
    },
  ],
  resources: [
    {
      uri: "asking://greeting",
      name: "greeting",
      read: (ctx) => {
        const answer = acceptedContent(ctx.inputResponses, "audience", Audience);
        if (!answer) return inputRequired({ inputRequests: { audience: inputRequired.elicit({ message: "Greet whom?", requestedSchema: Audience }) } });
        return { contents: [{ uri: "asking://greeting", text: `Hello, ${answer.audience}!` }] };
      },
    },
  ],
});

for (const era of ["legacy", "modern"] as const) {
  describe(`prompts and resources that ask first (${era} era)`, () => {
    let served: ListeningHost;
    let client: Client;
    let asked: string[];
    before(async () => {
      const host = buildHost([extension], { name: "asking", logger: silentLogger });
      await host.start();
      served = await listenHost(host, { port: 0 });
      asked = [];
      client = new Client(
        { name: "c", version: "1" },
        { capabilities: { elicitation: { form: {} } }, ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}) },
      );
      client.setRequestHandler("elicitation/create", async (request) => {
        asked.push(String((request.params as { message?: unknown }).message));
        return { action: "accept", content: { audience: "engineers" } };
      });
      await client.connect(new StreamableHTTPClientTransport(served.url));
    });
    after(async () => {
      await client.close();
      await served.close();
    });

    it("gets a prompt after the client answered its question, with the prompt's own state back", async () => {
      const prompt = await client.getPrompt({ name: "pitch", arguments: {} });
      assert.deepEqual(asked, ["For whom?"]);
      assert.deepEqual(prompt.messages, [{ role: "user", content: { type: "text", text: "Pitch to engineers (state pitch-1)" } }]);
    });

    it("reads a resource after the client answered its question", async () => {
      const read = await client.readResource({ uri: "asking://greeting" });
      assert.deepEqual(read.contents, [{ uri: "asking://greeting", text: "Hello, engineers!" }]);
      assert.equal(asked.at(-1), "Greet whom?");
    });
  });
}
