// MCP Server Cards for every named endpoint (SEP-2127, docs/discovery.md), over the real HTTP app: each card is
// served at its MCP URL's path plus /server-card with the endpoint's selection as the query, validates against the
// published JSON schema (vendored from experimental-ext-server-card, test/fixtures/server-card/), and tells the truth
// — a real SDK v2 client that connects to its remote URL gets that endpoint's tools. The catalog at
// /.well-known/mcp/catalog.json (and /.well-known/ai-catalog.json) lists every named endpoint; /toolsets and the
// operator page's data link each to its card; an ETag gives a 304; an unknown selection is a 404.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { describeEndpoint, reverseDns } from "../../src/discovery/server-card.js";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, connectV2, listedTools, raw, serveHost } from "../helpers/http-host.js";
import { assertValidCard, isValidCard } from "../helpers/server-card-schema.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const SPACES: McpExtension = {
  name: "spaces",
  toolsets: [
    { name: "spaces", title: "Spaces", description: "Find and create spaces." },
    { name: "admin", title: "Administration", default: false },
  ],
  tools: [
    { name: "search_spaces", toolset: "spaces", annotations: { readOnlyHint: true }, handler: () => text("none") },
    { name: "create_space", toolset: "spaces", handler: () => text("created") },
    { name: "wipe", toolset: "admin", handler: () => text("wiped") },
  ],
};
const ENDPOINTS = { spaces: "only=spaces", admin: "only=admin", readonly: "all&readonly" };

async function served() {
  return serveHost(cleanup, [SPACES], { host: { name: "tools", version: "2.1.0" }, http: { endpoints: ENDPOINTS } });
}

async function getJson(url: URL, headers: Record<string, string> = {}) {
  const answer = await raw({ url, headers });
  return { ...answer, json: answer.text === "" ? undefined : JSON.parse(answer.text) };
}

describe("server cards", () => {
  it("serves each named endpoint's card, valid against the published schema, and true to what its URL serves", async () => {
    const { url, baseUrl } = await served();
    const answer = await getJson(new URL("/mcp/server-card?only=spaces", baseUrl), { accept: "application/mcp-server-card+json" });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers["content-type"], "application/mcp-server-card+json; charset=utf-8");
    assert.equal(answer.headers["access-control-allow-origin"], "*");
    assertValidCard(answer.json);
    assert.deepEqual(answer.json, {
      $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
      name: "127.0.0.1/spaces",
      title: "tools (spaces)",
      description: "Spaces: Find and create spaces.",
      version: "2.1.0",
      remotes: [
        {
          type: "streamable-http",
          url: `${url.href}?only=spaces`,
          supportedProtocolVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"],
        },
      ],
      _meta: { "mcp-host/endpoint": { name: "spaces", selection: "only=spaces", toolsets: ["spaces"], readonly: false } },
    });
    for (const era of ["legacy", "modern"] as const) {
      const { client } = await connectV2(cleanup, new URL(answer.json.remotes[0].url), era);
      assert.deepEqual(await listedTools(client), ["create_space", "list_server_toolsets", "search_spaces"]);
      assert.equal(client.getServerVersion()?.version, answer.json.version, "the card's version is what the server reports");
    }
    const readonly = await getJson(new URL("/mcp/server-card?all&readonly", baseUrl));
    assertValidCard(readonly.json);
    assert.equal(readonly.json.description, "Administration and Spaces (read-only)");
    const { client } = await connectV2(cleanup, new URL(readonly.json.remotes[0].url), "modern");
    assert.deepEqual(await listedTools(client), ["list_server_toolsets", "search_spaces"]);
  });

  it("lists every named endpoint in the catalog, at both well-known paths, each pointing at its card", async () => {
    const { baseUrl } = await served();
    const catalog = await getJson(new URL("/.well-known/mcp/catalog.json", baseUrl));
    assert.equal(catalog.status, 200);
    assert.deepEqual(catalog.json, {
      specVersion: "draft",
      entries: ["admin", "readonly", "spaces"].map((name) => ({
        identifier: `urn:air:127.0.0.1:mcp:${name}`,
        type: "application/mcp-server-card+json",
        url: new URL(`/mcp/server-card?${ENDPOINTS[name as keyof typeof ENDPOINTS]}`, baseUrl).href,
      })),
    });
    const ai = await getJson(new URL("/.well-known/ai-catalog.json", baseUrl));
    assert.equal(ai.headers["content-type"], "application/ai-catalog+json; charset=utf-8");
    assert.deepEqual(ai.json, { ...catalog.json, specVersion: "1.0" });
    for (const entry of catalog.json.entries) assertValidCard((await getJson(new URL(entry.url))).json);
  });

  it("links each endpoint to its card in /toolsets and in the operator page's data", async () => {
    const { baseUrl } = await served();
    const toolsets = await getJson(new URL("/toolsets", baseUrl));
    assert.deepEqual(toolsets.json.endpoints[2], {
      name: "spaces",
      selection: "only=spaces",
      url: new URL("/mcp?only=spaces", baseUrl).href,
      card: new URL("/mcp/server-card?only=spaces", baseUrl).href,
    });
    const overview = await getJson(new URL("/_ui/overview", baseUrl));
    assert.deepEqual(overview.json.endpoints, toolsets.json.endpoints);
  });

  it("revalidates with the ETag (304), answers a preflight from any origin, and 404s a selection no endpoint has", async () => {
    const { baseUrl } = await served();
    const first = await raw({ url: new URL("/mcp/server-card?only=admin", baseUrl) });
    assert.equal(first.headers["cache-control"], "public, max-age=3600");
    const etag = String(first.headers.etag);
    const again = await raw({ url: new URL("/mcp/server-card?only=admin", baseUrl), headers: { "if-none-match": etag } });
    assert.deepEqual([again.status, again.text], [304, ""]);
    const preflight = await raw({
      url: new URL("/.well-known/mcp/catalog.json", baseUrl),
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers["access-control-allow-origin"], "*");
    const missing = await getJson(new URL("/mcp/server-card?only=nosuch", baseUrl));
    assert.equal(missing.status, 404);
    assert.match(
      missing.json.error.message,
      /^No named endpoint has the selection "only=nosuch"; the cards are http:\/\/127\.0\.0\.1:\d+\/mcp\/server-card\?only=admin, /,
    );
  });

  it("composes names and descriptions within the schema's limits", () => {
    assert.equal(reverseDns("mcp.example.com"), "com.example.mcp");
    assert.equal(reverseDns("[::1]"), "--1");
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `t${i}`, title: `Toolset number ${i}` }));
    const described = describeEndpoint({ toolsets: many, readonly: true });
    assert.ok(described.length <= 100 && described.length > 90, described);
    assert.match(described, /… \(read-only\)$/);
    assert.equal(describeEndpoint({ toolsets: [], readonly: false }, "tools"), "tools: no toolsets");
    // The schema check can fail: a card without a name, or with a description over 100 characters, is refused.
    const card = { $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json", name: "a/b", version: "1", description: "x" };
    assert.equal(isValidCard(card), true);
    assert.equal(isValidCard({ ...card, name: undefined }), false);
    assert.equal(isValidCard({ ...card, description: "x".repeat(101) }), false);
  });
});
