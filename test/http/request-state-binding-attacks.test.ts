// Attack (issue 17, class 8): multi-round-trip `requestState` replayed where it does not belong. The state a user's
// call is handed is sealed to that user (the verified subject, not the OAuth client: every user of one app shares a
// client id), the method and the target (the tool, the prompt, the resource URI). Over real HTTP with auth on, user A
// starts a call that asks first; the family replays A's state with B's token of the same client, on another tool,
// another method, another resource URI — and against the gateway, for a call paused on an upstream's question and
// for an approval. Each is refused with -32602 and nothing runs; A's own retry still works.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { acceptedContent, defineExtension, inputRequired } from "../../src/index.js";
import { defaultAuth, authTestFile, bearer, type Runs } from "../helpers/auth-host.js";
import { lastRpcMessage, modernHeaders } from "../helpers/http-host.js";
import { legacyServer, serveGateway, stderrOf } from "../upstream/gateway-kit.js";

const file = authTestFile();

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

/** One 2026-07-28 request as a client would send it (`name` is what Mcp-Name mirrors: a tool or prompt name, a URI). */
async function rpc(url: URL, token: string, method: string, name: string, params: Record<string, unknown>): Promise<any> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...modernHeaders(method, name), ...bearer(token) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: MODERN_META } }),
  });
  assert.equal(response.status, 200, `${method} ${name}: HTTP ${response.status}`);
  return lastRpcMessage(await response.text());
}

const Confirm = z.object({ confirm: z.boolean() });
const subjectOf = (auth: unknown) => String((auth as { extra?: { subject?: unknown } } | undefined)?.extra?.subject ?? "-");
const yes = { confirm: { action: "accept", content: { confirm: true } } };

/** Tools, a prompt and a resource template that each ask once, then record who finished with which state. */
function askingExtension(runs: Runs) {
  const ask = (state: string) =>
    inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: "Sure?", requestedSchema: Confirm }) }, requestState: state });
  const finish = (what: string, ctx: { auth?: unknown; requestState<T>(): T | undefined }) => {
    runs.push(`${what} by ${subjectOf(ctx.auth)} with ${ctx.requestState<string>()}`);
    return `${what} done`;
  };
  return defineExtension({
    name: "asking",
    tools: ["transfer", "close_account"].map((name) => ({
      name,
      handler: (_args: unknown, ctx: Parameters<typeof finish>[1] & { inputResponses?: Record<string, unknown> }) =>
        acceptedContent(ctx.inputResponses, "confirm", Confirm) ? { content: [{ type: "text" as const, text: finish(name, ctx) }] } : ask(`${name}-state`),
    })),
    prompts: [
      {
        name: "draft",
        get: (_args, ctx) =>
          acceptedContent(ctx.inputResponses, "confirm", Confirm)
            ? { messages: [{ role: "user" as const, content: { type: "text" as const, text: finish("draft", ctx) } }] }
            : ask("draft-state"),
      },
    ],
    resourceTemplates: [
      {
        uriTemplate: "account://{id}",
        name: "account",
        read: (uri, _variables, ctx) =>
          acceptedContent(ctx.inputResponses, "confirm", Confirm) ? { contents: [{ uri, text: finish(`read ${uri}`, ctx) }] } : ask(`read-state ${uri}`),
      },
    ],
  });
}

/** A first round's sealed state (asserting the call did ask). */
function stateOf(answer: any): string {
  assert.equal(answer.result?.resultType, "input_required", JSON.stringify(answer));
  assert.match(String(answer.result.requestState), /^v1\./);
  return answer.result.requestState;
}

describe("request state is bound to its caller, method and target", { timeout: 60_000 }, () => {
  it("refuses A's state replayed by B, on another tool, method or resource, before anything runs", async () => {
    const runs: Runs = [];
    const served = await file.serve({ extensions: [askingExtension(runs)], runs, auth: { toolsetScopes: {} } });
    // Two users of one OAuth client: the client id is the same, the subject is not.
    const alice = await served.token({ sub: "alice", client_id: "shared-app" });
    const bob = await served.token({ sub: "bob", client_id: "shared-app" });
    const url = served.url;
    const callTool = (token: string, name: string, extra: Record<string, unknown> = {}) =>
      rpc(url, token, "tools/call", name, { name, arguments: {}, ...extra });
    const getPrompt = (token: string, name: string, extra: Record<string, unknown> = {}) =>
      rpc(url, token, "prompts/get", name, { name, arguments: {}, ...extra });
    const read = (token: string, uri: string, extra: Record<string, unknown> = {}) => rpc(url, token, "resources/read", uri, { uri, ...extra });

    const toolState = stateOf(await callTool(alice, "transfer"));
    const promptState = stateOf(await getPrompt(alice, "draft"));
    const readState = stateOf(await read(alice, "account://1"));
    const replays: Array<[string, () => Promise<any>]> = [
      ["B's token replays A's tool call", () => callTool(bob, "transfer", { requestState: toolState, inputResponses: yes })],
      ["A's tool state on another tool", () => callTool(alice, "close_account", { requestState: toolState, inputResponses: yes })],
      ["A's tools/call state on prompts/get", () => getPrompt(alice, "draft", { requestState: toolState, inputResponses: yes })],
      ["A's prompts/get state on tools/call", () => callTool(alice, "transfer", { requestState: promptState, inputResponses: yes })],
      ["B's token replays A's prompt", () => getPrompt(bob, "draft", { requestState: promptState, inputResponses: yes })],
      ["A's read state on another URI of the template", () => read(alice, "account://2", { requestState: readState, inputResponses: yes })],
      ["B's token replays A's read", () => read(bob, "account://1", { requestState: readState, inputResponses: yes })],
    ];
    const accepted: string[] = [];
    for (const [name, replay] of replays) {
      const answer = await replay();
      if (answer.error?.code !== -32602) accepted.push(`${name}: ${JSON.stringify(answer.result ?? answer.error)}`);
    }
    assert.deepEqual(accepted, [], "every replay is refused with -32602");
    assert.deepEqual(runs, [], "no handler finished with a replayed state");

    // A's own retries are still good: the refusals above neither consumed nor spoiled them.
    assert.equal((await callTool(alice, "transfer", { requestState: toolState, inputResponses: yes })).result?.content?.[0]?.text, "transfer done");
    assert.equal((await getPrompt(alice, "draft", { requestState: promptState, inputResponses: yes })).result?.messages?.[0]?.content?.text, "draft done");
    assert.equal((await read(alice, "account://1", { requestState: readState, inputResponses: yes })).result?.contents?.[0]?.text, "read account://1 done");
    assert.deepEqual(runs, [
      "transfer by alice with transfer-state",
      "draft by alice with draft-state",
      "read account://1 by alice with read-state account://1",
    ]);
  });

  it("never lets B resume A's gateway call paused on an upstream's question, nor use A's approval", async () => {
    const gateway = await serveGateway(
      file.cleanup,
      {
        servers: {
          fx: legacyServer("fx", { tools: ["ask_elicitation"] }),
          guarded: legacyServer("guarded", { tools: [{ name: "wipe", behaviour: "count" }] }, { approval: "always" }),
        },
      },
      { http: { auth: { ...defaultAuth(file.as), toolsetScopes: {} } } },
    );
    const alice = file.watch.track(await file.as.mint({ sub: "alice", client_id: "shared-app" }));
    const bob = file.watch.track(await file.as.mint({ sub: "bob", client_id: "shared-app" }));
    const callTool = (token: string, name: string, extra: Record<string, unknown> = {}) =>
      rpc(gateway.url, token, "tools/call", name, { name, arguments: {}, ...extra });

    // A 2025 upstream asks its question mid-call: A's call pauses, its id inside the sealed state.
    const paused = await callTool(alice, "ask_elicitation");
    const pausedState = stateOf(paused);
    const key = Object.keys(paused.result.inputRequests)[0]!;
    const bobsAnswer = await callTool(bob, "ask_elicitation", {
      requestState: pausedState,
      inputResponses: { [key]: { action: "accept", content: { name: "Mallory" } } },
    });
    // An approval asked of A, answered by B.
    const approvalState = stateOf(await callTool(alice, "wipe"));
    const bobsApproval = await callTool(bob, "wipe", {
      requestState: approvalState,
      inputResponses: { "mcp-host/approve": { action: "accept", content: { approve: true } } },
    });

    assert.deepEqual(
      [bobsAnswer.error?.code ?? JSON.stringify(bobsAnswer.result), bobsApproval.error?.code ?? JSON.stringify(bobsApproval.result)],
      [-32602, -32602],
      "B neither resumes A's paused call nor runs the tool on A's approval",
    );
    assert.equal(gateway.records.filter(stderrOf("guarded", "call:wipe")).length, 0, "the upstream tool never ran");
    // A's paused call is still A's to finish.
    const resumed = await callTool(alice, "ask_elicitation", {
      requestState: pausedState,
      inputResponses: { [key]: { action: "accept", content: { name: "Ada" } } },
    });
    assert.equal(resumed.result?.content?.[0]?.text, 'elicitation:accept:{"name":"Ada"}');
  });
});
