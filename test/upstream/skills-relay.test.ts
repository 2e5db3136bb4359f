// Through the gateway (docs/gateway.md, docs/skills.md): an upstream server that declares the skills extension has its
// skills mounted with its toolset — entries and digests relayed as it publishes them, every file read from it and
// checked against them; a skill name an extension's toolset also serves is qualified as tools are; a file whose bytes
// do not match its digest is refused (SKILL_DIGEST_MISMATCH), never served. MCP Apps pass through unchanged: a tool
// whose _meta.ui points at a ui:// resource, and that resource, from an extension and from an upstream.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, connectV2 } from "../helpers/http-host.js";
import { FIXTURES } from "../helpers/registry/harness.js";
import { serveGateway } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const SKILL_FIXTURES = fileURLToPath(new URL("../fixtures/skills/", import.meta.url));

function skillsServer(config: { tamper?: string } = {}) {
  return { command: process.execPath, args: [join(FIXTURES, "skills-stdio.mjs"), JSON.stringify({ name: "runbooks-upstream", ...config })] };
}

/** An extension whose toolset serves a skill named `triage` too, and an MCP App of its own. */
const local: McpExtension = {
  name: "local",
  toolsets: [{ name: "queue" }],
  tools: [
    {
      name: "open_board",
      meta: { ui: { resourceUri: "ui://queue/board" } },
      annotations: { readOnlyHint: true },
      handler: () => ({ content: [{ type: "text", text: "board" }] }),
    },
  ],
  resources: [
    {
      uri: "ui://queue/board",
      name: "board",
      mimeType: "text/html;profile=mcp-app",
      meta: { ui: { prefersBorder: false } },
      read: () => ({ contents: [{ uri: "ui://queue/board", mimeType: "text/html;profile=mcp-app", text: "<p>board</p>", _meta: { ui: { csp: {} } } }] }),
    },
  ],
  skills: [{ path: join(SKILL_FIXTURES, "triage") }],
};

describe("upstream skills through the gateway", { timeout: 90_000 }, () => {
  it("mounts an upstream's skills with its toolset, digests relayed and every file verified, in both eras", async () => {
    const { at } = await serveGateway(cleanup, { servers: { runbooks: skillsServer() } }, { extensions: [local] });
    for (const era of ["modern", "legacy"] as const) {
      const { client } = await connectV2(cleanup, at("only=runbooks"), era);
      const skills = new SkillsClient(client);
      const { skills: entries } = await skills.list();
      assert.deepEqual(
        entries.map((e) => e.uri),
        ["skill://runbook-search/SKILL.md", "skill://triage/SKILL.md"],
      );
      const search = entries[0]!;
      for (const file of search.resources === "dynamic" ? [] : search.resources) assert.equal((await skills.read(search, file.uri)).verified, true);
      assert.deepEqual(
        (await client.listResources()).resources.filter((r) => r.uri.startsWith("skill://")).map((r) => r.uri),
        ["skill://runbook-search/SKILL.md", "skill://triage/SKILL.md"],
        "each SKILL.md listed once, as a skill",
      );
      assert.deepEqual(await new SkillsClient((await connectV2(cleanup, at("only=queue"), era)).client).list().then((l) => l.skills.map((s) => s.uri)), [
        "skill://triage/SKILL.md",
      ]);
    }
  });

  it("qualifies a skill name the upstream and an extension both serve, as tool names are, and both verify", async () => {
    const { at } = await serveGateway(cleanup, { servers: { runbooks: skillsServer() } }, { extensions: [local] });
    const { client } = await connectV2(cleanup, at("only=runbooks,queue"), "modern");
    const skills = new SkillsClient(client);
    const { skills: entries } = await skills.list();
    assert.deepEqual(
      entries.map((e) => e.uri),
      ["skill://queue/triage/SKILL.md", "skill://runbook-search/SKILL.md", "skill://runbooks/triage/SKILL.md"],
    );
    const bodies = await Promise.all(entries.filter((e) => e.frontmatter.name === "triage").map(async (e) => (await skills.read(e)).body));
    assert.deepEqual(bodies, ["Read each new issue, give it a severity, and move it to the admin queue.\n", "Look at the newest alerts first.\n"]);
  });

  it("refuses a file whose bytes do not match the digest the upstream published: the client gets an error, not the bytes", async () => {
    const { at, logged } = await serveGateway(cleanup, { servers: { runbooks: skillsServer({ tamper: "references/GUIDE.md" }) } });
    const { client } = await connectV2(cleanup, at("only=runbooks"), "modern");
    const read = client.readResource({ uri: "skill://runbook-search/references/GUIDE.md" });
    await assert.rejects(read, (error: Error) => {
      assert.doesNotMatch(error.message, /page everyone/);
      assert.match(error.message, /Internal error in extension "gateway" while reading skill:\/\/runbook-search\/references\/GUIDE\.md/);
      return true;
    });
    const record = await logged((r) => r.data?.code === "SKILL_DIGEST_MISMATCH", "the refused file");
    assert.match(
      record.message,
      /server "runbooks": skill file skill:\/\/runbook-search\/references\/GUIDE\.md failed its check against the skill's entry \((size|digest)\); it was refused, not relayed/,
    );
    const manifest = await client.readResource({ uri: "skill://runbook-search/SKILL.md" });
    assert.match((manifest.contents[0] as { text: string }).text, /^---\nname: runbook-search/, "the files that match still serve");
  });
});

describe("MCP Apps pass through", { timeout: 90_000 }, () => {
  it("serves an extension's and an upstream's app tool and ui:// resource unchanged, in both eras", async () => {
    const { at } = await serveGateway(cleanup, { servers: { runbooks: skillsServer() } }, { extensions: [local] });
    for (const era of ["modern", "legacy"] as const) {
      const { client } = await connectV2(cleanup, at("only=runbooks,queue"), era);
      const tools = (await client.listTools()).tools;
      assert.deepEqual(tools.find((t) => t.name === "open_board")?._meta, { ui: { resourceUri: "ui://queue/board" } });
      assert.deepEqual(tools.find((t) => t.name === "show_dashboard")?._meta, { ui: { resourceUri: "ui://runbooks/dashboard", visibility: ["model", "app"] } });
      const resources = (await client.listResources()).resources.filter((r) => r.uri.startsWith("ui://"));
      assert.deepEqual(
        resources.map((r) => [r.uri, r.mimeType, r._meta]),
        [
          ["ui://queue/board", "text/html;profile=mcp-app", { ui: { prefersBorder: false } }],
          ["ui://runbooks/dashboard", "text/html;profile=mcp-app", { ui: { prefersBorder: true } }],
        ],
      );
      assert.deepEqual((await client.readResource({ uri: "ui://queue/board" })).contents, [
        { uri: "ui://queue/board", mimeType: "text/html;profile=mcp-app", text: "<p>board</p>", _meta: { ui: { csp: {} } } },
      ]);
      assert.deepEqual((await client.readResource({ uri: "ui://runbooks/dashboard" })).contents, [
        {
          uri: "ui://runbooks/dashboard",
          mimeType: "text/html;profile=mcp-app",
          text: "<!doctype html><p>3 alerts</p>",
          _meta: { ui: { csp: { connectDomains: [] } } },
        },
      ]);
      const called = await client.callTool({ name: "show_dashboard", arguments: {} });
      assert.deepEqual(called.structuredContent, { alerts: 3 });
    }
  });
});
