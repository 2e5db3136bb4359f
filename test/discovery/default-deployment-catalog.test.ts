// The repository's default deployment (what `npm start` serves, mcp-host.config.yaml) names its endpoints, so the
// real command publishes a catalog at /.well-known/mcp/catalog.json whose every entry is a card valid against the
// published schema, and whose remote URL a real client can use.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { REPO, assertBuilt, startCli } from "../helpers/cli-process.js";
import { Cleanup, connectV2, listedTools, raw } from "../helpers/http-host.js";
import { assertValidCard } from "../helpers/server-card-schema.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

describe("npm start's catalog", { timeout: 90_000 }, () => {
  it("lists the default deployment's named endpoints, each card valid and its URL served", async () => {
    const cli = startCli(cleanup, ["serve", "--port", "0"], { cwd: REPO });
    const first = await cli.line(/^mcp-host is serving /);
    const url = new URL(/(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first)![1]!);
    await cli.line(/^ {2}upstream everything: up/);
    const catalog = await raw({ url: new URL("/.well-known/mcp/catalog.json", url) });
    assert.equal(catalog.status, 200, catalog.text);
    const entries = (JSON.parse(catalog.text) as { entries: Array<{ identifier: string; url: string }> }).entries;
    assert.deepEqual(
      entries.map((e) => e.identifier),
      ["urn:air:127.0.0.1:mcp:everything", "urn:air:127.0.0.1:mcp:plugins", "urn:air:127.0.0.1:mcp:readonly"],
    );
    const cards = await Promise.all(entries.map(async (e) => JSON.parse((await raw({ url: new URL(e.url) })).text)));
    for (const card of cards) assertValidCard(card);
    assert.equal(cards[1].description, "Text utilities, Time and dates and Unit conversion");
    const { client } = await connectV2(cleanup, new URL(cards[1].remotes[0].url), "modern");
    const tools = await listedTools(client);
    assert.ok(tools.includes("current_time") && tools.includes("text_stats") && !tools.includes("echo"), tools.join(", "));
  });
});
