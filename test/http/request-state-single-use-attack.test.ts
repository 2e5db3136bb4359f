// Attack (issue 30 finding 5): one approval, or any sealed round, run many times. A `requestState` the host sealed is
// accepted once: the same caller resending it — the approval of a destructive upstream tool, an extension's
// confirmation, a prompt's or a resource's round, through `call_tool` in search mode — gets the -32602 a forged state
// gets, and nothing runs again. Before the fix the state carried no single-use id and verified for ten minutes. A
// state refused for another binding is not used up (request-state-binding-attacks.test.ts keeps the owner's retry).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { acceptedContent, defineExtension, inputRequired } from "../../src/index.js";
import { defaultAuth, authTestFile, bearer, type Runs } from "../helpers/auth-host.js";
import { lastRpcMessage, modernHeaders, serveHost } from "../helpers/http-host.js";
import { legacyServer, serveGateway, stderrOf } from "../upstream/gateway-kit.js";

const file = authTestFile();

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

/** One 2026-07-28 request as a client would send it, with or without a token. */
async function rpc(url: URL, token: string | undefined, method: string, name: string, params: Record<string, unknown>): Promise<any> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...modernHeaders(method, name), ...(token === undefined ? {} : bearer(token)) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: MODERN_META } }),
  });
  assert.equal(response.status, 200, `${method} ${name}: HTTP ${response.status}`);
  return lastRpcMessage(await response.text());
}

const Confirm = z.object({ confirm: z.boolean() });
const yes = { confirm: { action: "accept", content: { confirm: true } } };

/** A tool, a prompt and a resource template that each ask once, then record that they finished. */
function askingExtension(runs: Runs) {
  const ask = () => inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: "Sure?", requestedSchema: Confirm }) }, requestState: "asked" });
  const confirmed = (ctx: { inputResponses?: Record<string, unknown> }) => acceptedContent(ctx.inputResponses, "confirm", Confirm) !== undefined;
  return defineExtension({
    name: "asking",
    tools: [
      {
        name: "transfer",
        handler: (_args, ctx) => {
          if (!confirmed(ctx)) return ask();
          runs.push("transfer");
          return { content: [{ type: "text" as const, text: "transferred" }] };
        },
      },
    ],
    prompts: [
      {
        name: "draft",
        get: (_args, ctx) => {
          if (!confirmed(ctx)) return ask();
          runs.push("draft");
          return { messages: [{ role: "user" as const, content: { type: "text" as const, text: "drafted" } }] };
        },
      },
    ],
    resourceTemplates: [
      {
        uriTemplate: "account://{id}",
        name: "account",
        read: (uri, _variables, ctx) => {
          if (!confirmed(ctx)) return ask();
          runs.push(`read ${uri}`);
          return { contents: [{ uri, text: "balance" }] };
        },
      },
    ],
  });
}

function stateOf(answer: any): string {
  assert.equal(answer.result?.resultType, "input_required", JSON.stringify(answer));
  return answer.result.requestState;
}

/** Runs each round once with its state, then replays it `times` times; returns what each replay was answered. */
async function replays(url: URL, token: string | undefined, times: number, search = false): Promise<unknown[]> {
  const tool = (extra: Record<string, unknown> = {}) =>
    search
      ? rpc(url, token, "tools/call", "call_tool", { name: "call_tool", arguments: { name: "transfer", arguments: {} }, ...extra })
      : rpc(url, token, "tools/call", "transfer", { name: "transfer", arguments: {}, ...extra });
  const prompt = (extra: Record<string, unknown> = {}) => rpc(url, token, "prompts/get", "draft", { name: "draft", arguments: {}, ...extra });
  const read = (extra: Record<string, unknown> = {}) => rpc(url, token, "resources/read", "account://1", { uri: "account://1", ...extra });
  const answers: unknown[] = [];
  for (const round of search ? [tool] : [tool, prompt, read]) {
    const retry = { requestState: stateOf(await round()), inputResponses: yes };
    const first = await round(retry);
    assert.equal(first.error, undefined, `the first retry runs: ${JSON.stringify(first)}`);
    for (let i = 0; i < times; i++) answers.push((await round(retry)).error?.code ?? "ran again");
  }
  return answers;
}

describe("a sealed request state is accepted once", { timeout: 90_000 }, () => {
  it("refuses the same state sent again by the same caller, for a tool, a prompt and a resource, and nothing runs again", async () => {
    const runs: Runs = [];
    const served = await file.serve({ extensions: [askingExtension(runs)], runs, auth: { toolsetScopes: {} } });
    const alice = await served.token({ sub: "alice" });
    assert.deepEqual(await replays(served.url, alice, 3), Array(9).fill(-32602));
    assert.deepEqual(runs, ["transfer", "draft", "read account://1"]);
  });

  it("refuses it through call_tool in search mode, and without auth", async () => {
    const runs: Runs = [];
    const { url, at } = await serveHost(file.cleanup, [askingExtension(runs)]);
    assert.deepEqual(await replays(url, undefined, 2), Array(6).fill(-32602));
    assert.deepEqual(await replays(at("search"), undefined, 2, true), Array(2).fill(-32602));
    assert.deepEqual(runs, ["transfer", "draft", "read account://1", "transfer"]);
  });

  it("runs a destructive upstream tool once per approval: the approval sent again is refused", async () => {
    const gateway = await serveGateway(
      file.cleanup,
      { servers: { guarded: legacyServer("guarded", { tools: [{ name: "wipe", behaviour: "count" }] }, { approval: "always" }) } },
      { http: { auth: { ...defaultAuth(file.as), toolsetScopes: {} } } },
    );
    const alice = file.watch.track(await file.as.mint({ sub: "alice" }));
    const approve = { "mcp-host/approve": { action: "accept", content: { approve: true } } };
    const wipe = (extra: Record<string, unknown> = {}) => rpc(gateway.url, alice, "tools/call", "wipe", { name: "wipe", arguments: {}, ...extra });
    const approval = { requestState: stateOf(await wipe()), inputResponses: approve };
    const approved = await wipe(approval);
    assert.equal(approved.result?.isError, undefined, JSON.stringify(approved));
    const again: unknown[] = [];
    for (let i = 0; i < 4; i++) again.push((await wipe(approval)).error?.code ?? "ran again");
    assert.deepEqual(again, Array(4).fill(-32602));
    assert.equal(gateway.records.filter(stderrOf("guarded", "call:wipe")).length, 1, "the upstream tool ran once");
  });
});
