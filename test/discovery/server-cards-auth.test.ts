// With auth on (docs/discovery.md), the catalog lists only the named endpoints a caller may reach, and a card of
// one it may not is as absent as one that does not exist: without a valid token, the endpoints whose toolsets no
// scope guards; with a token, those all of whose toolsets its scopes reach. A card says how to authenticate — the
// Authorization header it needs, the endpoint's RFC 9728 metadata URL and every scope its toolsets need — still
// valid against the published schema; answers are private to the caller (Vary: Authorization).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { authTestFile, bearer } from "../helpers/auth-host.js";
import { connectV2, listedTools, raw } from "../helpers/http-host.js";
import { assertValidCard } from "../helpers/server-card-schema.js";

const file = authTestFile();
const ENDPOINTS = { notes: "only=notes", admin: "only=admin", everything: "all" };

async function catalogOf(baseUrl: URL, token?: string): Promise<string[]> {
  const answer = await raw({ url: new URL("/.well-known/mcp/catalog.json", baseUrl), headers: token === undefined ? {} : bearer(token) });
  assert.equal(answer.status, 200, answer.text);
  return (JSON.parse(answer.text) as { entries: Array<{ identifier: string }> }).entries.map((e) => e.identifier.split(":").at(-1)!);
}

describe("server cards with auth on", { timeout: 60_000 }, () => {
  it("lists only the endpoints the caller may reach: none guarded without a token, all with the admin scope", async () => {
    const served = await file.serve({ http: { endpoints: ENDPOINTS } });
    const reader = await served.token({ sub: "reader", scope: "mcp:read" });
    const admin = await served.token({ sub: "root", scope: "mcp:read mcp:admin" });
    assert.deepEqual(await catalogOf(served.baseUrl), ["notes"]);
    assert.deepEqual(await catalogOf(served.baseUrl, "not-a-token"), ["notes"], "a token that does not verify is no token");
    assert.deepEqual(await catalogOf(served.baseUrl, reader), ["notes"]);
    assert.deepEqual(await catalogOf(served.baseUrl, admin), ["admin", "everything", "notes"]);
    const toolsets = await raw({ url: new URL("/toolsets", served.baseUrl), headers: bearer(reader) });
    assert.deepEqual(
      (JSON.parse(toolsets.text) as { endpoints: Array<{ name: string }> }).endpoints.map((e) => e.name),
      ["notes"],
    );
  });

  it("hides a guarded endpoint's card from a caller who may not reach it, and tells one who may how to authenticate", async () => {
    const served = await file.serve({ http: { endpoints: ENDPOINTS } });
    const cardUrl = new URL("/mcp/server-card?only=admin", served.baseUrl);
    assert.equal((await raw({ url: cardUrl })).status, 404);
    assert.equal((await raw({ url: cardUrl, headers: bearer(await served.token({ sub: "reader", scope: "mcp:read" })) })).status, 404);
    const admin = await served.token({ sub: "root", scope: "mcp:read mcp:admin" });
    const answer = await raw({ url: cardUrl, headers: bearer(admin) });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers["cache-control"], "private, max-age=300");
    assert.equal(answer.headers.vary, "Authorization");
    const card = JSON.parse(answer.text);
    assertValidCard(card);
    const metadata = new URL("/.well-known/oauth-protected-resource/mcp?only=admin", served.baseUrl).href;
    assert.deepEqual(card.remotes[0].headers, [
      {
        name: "Authorization",
        description: `Bearer <access token>; get one as its protected-resource metadata says: ${metadata}`,
        isRequired: true,
        isSecret: true,
      },
    ]);
    assert.deepEqual(card._meta["mcp-host/auth"], { protectedResourceMetadata: metadata, scopes: ["mcp:read", "mcp:admin"] });
    const prm = await raw({ url: new URL(metadata) });
    assert.equal(prm.status, 200, "the metadata the card points at exists");
    const { client } = await connectV2(file.cleanup, new URL(card.remotes[0].url), "modern", { headers: bearer(admin) });
    assert.deepEqual(await listedTools(client), ["list_server_toolsets", "wipe"]);
  });

  it("names the card and its URLs after the public resource behind a proxy (auth.resource), not the Host it was asked on", async () => {
    const served = await file.serve({ http: { endpoints: ENDPOINTS }, auth: { resource: "https://mcp.example.com/mcp" } });
    const answer = await raw({ url: new URL("/mcp/server-card?only=notes", served.baseUrl) });
    const card = JSON.parse(answer.text);
    assertValidCard(card);
    assert.equal(card.name, "com.example.mcp/notes");
    assert.equal(card.remotes[0].url, "https://mcp.example.com/mcp?only=notes");
    const catalog = JSON.parse((await raw({ url: new URL("/.well-known/mcp/catalog.json", served.baseUrl) })).text);
    assert.deepEqual(catalog.entries, [
      { identifier: "urn:air:mcp.example.com:mcp:notes", type: "application/mcp-server-card+json", url: "https://mcp.example.com/mcp/server-card?only=notes" },
    ]);
  });
});
