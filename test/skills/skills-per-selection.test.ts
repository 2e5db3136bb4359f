// A selection serves exactly the skills of its active toolsets (docs/skills.md, docs/serving.md), in both protocol
// eras, through a real SDK v2 client and the SDK's own SkillsClient (which checks every file against its digest):
// `readonly` keeps only the skills whose tools it serves, a tool picked with `tools=` brings no skill, a skill name
// two toolsets serve is qualified by toolset, skills/list pages by cursor, and a wrong URI or cursor is -32602.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ProtocolError } from "@modelcontextprotocol/client";
import * as z from "zod";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import type { McpExtension } from "../../src/extension/types.js";
import type { McpHost } from "../../src/host/host.js";
import { paged, pageOf } from "../../src/skills/skill-paging.js";
import { connectInProcess } from "../helpers/in-process.js";
import { startedHost, textTool } from "../helpers/kit.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/skills/", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "mcp-host-skills-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const spaces: McpExtension = {
  name: "spaces",
  toolsets: [{ name: "spaces" }, { name: "admin", default: false }],
  tools: [
    textTool("search_spaces", { toolset: "spaces", annotations: { readOnlyHint: true } }),
    textTool("create_space", { toolset: "spaces", annotations: { readOnlyHint: false } }),
    textTool("sort_queue", { toolset: "admin" }),
  ],
  skills: [
    { toolset: "spaces", path: join(FIXTURES, "space-search") },
    { toolset: "spaces", path: join(FIXTURES, "read-spaces") },
    { toolset: "admin", path: join(FIXTURES, "triage") },
  ],
};

async function withHost(extensions: McpExtension[], run: (host: McpHost) => Promise<void>): Promise<void> {
  const { host } = await startedHost(extensions);
  try {
    await run(host);
  } finally {
    await host.stop();
  }
}

async function listed(host: McpHost, query: string, era: "legacy" | "modern"): Promise<string[]> {
  const { client, close } = await connectInProcess(host, query, { era });
  try {
    return (await new SkillsClient(client).list()).skills.map((s) => s.uri);
  } finally {
    await close();
  }
}

async function rpcError(run: () => Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ProtocolError) return { code: error.code, message: error.message };
    throw error;
  }
  assert.fail("expected a JSON-RPC error");
}

for (const era of ["legacy", "modern"] as const) {
  describe(`skills per selection (${era} era)`, () => {
    it("serves the skills of the active toolsets only, each file verified", async () => {
      await withHost([spaces], async (host) => {
        assert.deepEqual(await listed(host, "only=spaces", era), ["skill://read-spaces/SKILL.md", "skill://space-search/SKILL.md"]);
        assert.deepEqual(await listed(host, "only=admin", era), ["skill://triage/SKILL.md"]);
        const { client, close } = await connectInProcess(host, "only=spaces", { era });
        const skills = new SkillsClient(client);
        const [, search] = (await skills.list()).skills;
        const manifest = await skills.read(search!);
        assert.equal(manifest.frontmatter?.name, "space-search");
        assert.match(manifest.body ?? "", /^# Searching spaces/);
        const logo = await skills.read(search!, "assets/logo.png");
        assert.equal(logo.verified, true);
        assert.equal(logo.text, undefined, "bytes that are not UTF-8 travel as a blob");
        assert.equal(logo.mimeType, "image/png");
        assert.deepEqual((await skills.readDirectory("skill://space-search/references")).resources, [
          { uri: "skill://space-search/references/GUIDE.md", name: "GUIDE.md", mimeType: "text/markdown", size: 86 },
        ]);
        await close();
      });
    });

    it("under readonly serves only the skills whose every tool it serves; a picked tool brings no skill", async () => {
      await withHost([spaces], async (host) => {
        assert.deepEqual(await listed(host, "only=spaces&readonly", era), ["skill://read-spaces/SKILL.md"]);
        assert.deepEqual(await listed(host, "only=admin&readonly", era), [], "a skill that names no tools fails closed");
        assert.deepEqual(await listed(host, "only=admin&tools=search_spaces", era), ["skill://triage/SKILL.md"]);
      });
    });

    it("qualifies a skill name two active toolsets serve with the toolset, so both are listed and verify", async () => {
      const other: McpExtension = { name: "other", toolsets: [{ name: "queue" }], skills: [{ path: join(FIXTURES, "triage") }] };
      await withHost([spaces, other], async (host) => {
        assert.deepEqual(await listed(host, "only=queue", era), ["skill://triage/SKILL.md"]);
        const both = await listed(host, "only=admin,queue", era);
        assert.deepEqual(both, ["skill://admin/triage/SKILL.md", "skill://queue/triage/SKILL.md"]);
        const { client, close } = await connectInProcess(host, "only=admin,queue", { era });
        const skills = new SkillsClient(client);
        for (const entry of (await skills.list()).skills) assert.equal((await skills.read(entry)).frontmatter?.name, "triage");
        await close();
      });
    });

    it("answers -32602 for an unknown skill, a directory read of a file, and a cursor it did not make", async () => {
      await withHost([spaces], async (host) => {
        const { client, close } = await connectInProcess(host, "only=spaces", { era });
        const request = (method: string, params: Record<string, unknown>) => client.request({ method, params } as never, z.looseObject({}));
        assert.deepEqual(await rpcError(() => request("skills/get", { uri: "skill://triage/SKILL.md" })), {
          code: -32602,
          message: "No skill is served at skill://triage/SKILL.md on this selection",
        });
        assert.equal((await rpcError(() => request("resources/directory/read", { uri: "skill://space-search/SKILL.md" }))).code, -32602);
        assert.equal((await rpcError(() => request("skills/list", { cursor: "not-ours" }))).code, -32602);
        const directory = await rpcError(() => client.readResource({ uri: "skill://space-search/references" }));
        assert.match(directory.message, /is a directory; read it with resources\/directory\/read/);
        await close();
      });
    });
  });
}

describe("skills/list pages", () => {
  it("pages 150 skills 100 at a time, each entry whole, and a cursor still works after its skill is gone", async () => {
    const folders = Array.from({ length: 150 }, (_, i) => {
      const name = `skill-${String(i).padStart(3, "0")}`;
      const folder = join(scratch, name);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "SKILL.md"), `---\nname: ${name}\ndescription: Skill number ${i}.\n---\n`);
      return folder;
    });
    await withHost([{ name: "many", toolsets: [{ name: "many" }], skills: folders.map((path) => ({ path })) }], async (host) => {
      const { client, close } = await connectInProcess(host, "", { era: "modern" });
      const page = (cursor?: string) =>
        client.request({ method: "skills/list", params: cursor === undefined ? {} : { cursor } } as never, z.looseObject({})) as Promise<any>;
      const first = await page();
      assert.equal(first.skills.length, 100);
      assert.equal(first.skills[99].uri, "skill://skill-099/SKILL.md");
      assert.equal(typeof first.nextCursor, "string");
      const second = await page(first.nextCursor);
      assert.deepEqual([second.skills.length, second.skills[0].uri, second.nextCursor], [50, "skill://skill-100/SKILL.md", undefined]);
      assert.equal((await new SkillsClient(client).list()).skills.length, 150);
      await close();
    });
    const uris = ["skill://a/SKILL.md", "skill://b/SKILL.md", "skill://c/SKILL.md"];
    const { nextCursor } = pageOf(
      paged(uris, (u) => u),
      undefined,
      2,
    );
    const withoutB = paged([uris[0]!, uris[2]!], (u) => u);
    assert.deepEqual(pageOf(withoutB, nextCursor, 2).items, ["skill://c/SKILL.md"]);
  });
});
