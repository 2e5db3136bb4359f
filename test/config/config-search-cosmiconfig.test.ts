// The configuration is found by cosmiconfig 9 (issue 26 part 1, docs/config.md "Where the file is looked for"): every
// search place docs/config.md lists — cosmiconfig's own order, less TypeScript, then mcp-host.config.{json,yaml,yml} —
// is found, alone in a real project folder; the project folder's meta configuration is followed (its `mcp-host` key,
// its search places, mergeSearchPlaces); errors keep their positions through cosmiconfig, the meta configuration's
// too; a reload sees an edited meta configuration. The list in the docs is the list in the code.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { loadConfig } from "../../src/config/index.js";
import { configSearchPlaces } from "../../src/config/config-explorer.js";
import { META_SEARCH_PLACES } from "../../src/config/meta-config.js";
import { project, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const env = {};
const doc = readFileSync(new URL("../../docs/config.md", import.meta.url), "utf8");

/** The search places docs/config.md lists, in its order. */
function documentedPlaces(): string[] {
  const start = doc.indexOf("<!-- search places -->\n");
  assert.notEqual(start, -1);
  const lines = doc.slice(start).split("\n").slice(1);
  return lines
    .slice(
      0,
      lines.findIndex((l) => !l.startsWith("- ")),
    )
    .map((l) => /`([^`]+)`/.exec(l)![1]!);
}

/** A file for `place` whose configuration sets `port`. */
function contentFor(place: string, port: number): string {
  if (place === "package.json") return JSON.stringify({ name: "app", "mcp-host": { http: { port } } });
  if (place.endsWith(".json")) return JSON.stringify({ http: { port } });
  if (place.endsWith(".mjs")) return `export default { http: { port: ${port} } };\n`;
  if (place.endsWith(".js") || place.endsWith(".cjs")) return `module.exports = { http: { port: ${port} } };\n`;
  return `http:\n  port: ${port}\n`;
}

describe("the search, through cosmiconfig", () => {
  it("lists in docs/config.md exactly the places it searches, in cosmiconfig's order", () => {
    const ownOrder = createRequire(import.meta.url)("cosmiconfig").getDefaultSearchPlaces("mcp-host") as string[];
    const places = configSearchPlaces();
    assert.deepEqual(documentedPlaces(), places);
    assert.deepEqual(
      places.slice(0, -3),
      ownOrder.filter((p) => !p.endsWith(".ts")),
    );
    assert.deepEqual(places.slice(-3), ["mcp-host.config.json", "mcp-host.config.yaml", "mcp-host.config.yml"]);
    assert.deepEqual(META_SEARCH_PLACES, createRequire(import.meta.url)("cosmiconfig/dist/defaults.js").metaSearchPlaces);
  });

  it("finds each search place alone in the project folder", async () => {
    const places = configSearchPlaces();
    for (const [i, place] of places.entries()) {
      const cwd = await project({ [place]: contentFor(place, 5000 + i) });
      const loaded = await loadConfig({ cwd, env });
      assert.deepEqual([loaded.source, loaded.config.http.port], [join(cwd, place), 5000 + i], place);
    }
  });

  it("keeps line and column in a YAML or JSON error found through cosmiconfig", async () => {
    const yaml = await project({ ".config/mcp-hostrc.yaml": "http:\n  port: [1\n  token: sk_live_SECRET\n" });
    const r1 = await refused(loadConfig({ cwd: yaml, env }), [["CONFIG_INVALID", "(root)"]], ["sk_live_SECRET"]);
    assert.match(r1.problems[0]!.message, new RegExp(`^${join(yaml, ".config/mcp-hostrc.yaml")}: line \\d+, column \\d+: not valid YAML: `));
    const json = await project({ ".mcp-hostrc.json": '{ "http": { "port": 1, } }' });
    const r2 = await refused(loadConfig({ cwd: json, env }), [["CONFIG_INVALID", "(root)"]]);
    assert.match(r2.problems[0]!.message, new RegExp(`^${join(json, ".mcp-hostrc.json")}: line 1, column \\d+: not valid JSON: `));
  });
});

describe("the project folder's meta configuration", () => {
  it("takes the configuration from its mcp-host key, beside other tools' keys", async () => {
    const cwd = await project({
      ".config/config.yaml": "prettier:\n  semi: true\nmcp-host:\n  http:\n    port: 4601\n",
      ".mcp-hostrc.yaml": "http: { port: 4602 }\n",
    });
    const loaded = await loadConfig({ cwd, env });
    assert.deepEqual([loaded.source, loaded.config.http.port], [join(cwd, ".config/config.yaml"), 4601]);
  });

  it("follows the search places it adds, first; with mergeSearchPlaces false, only them", async () => {
    const added = await project({
      ".config/config.yml": 'cosmiconfig:\n  searchPlaces: ["config/{name}.yaml"]\n',
      "config/mcp-host.yaml": "http: { port: 4611 }\n",
      ".mcp-hostrc.yaml": "http: { port: 4612 }\n",
    });
    assert.equal((await loadConfig({ cwd: added, env })).config.http.port, 4611);
    // cosmiconfig 9.0.2 itself applies no option of package.json's "cosmiconfig" key (it takes the key twice over),
    // and looks no further for a meta configuration: pinned, so an upgrade that changes it is noticed.
    const inPackage = await project({
      "package.json": JSON.stringify({ name: "app", cosmiconfig: { searchPlaces: ["config/{name}.yaml"] } }),
      "config/mcp-host.yaml": "http: { port: 4615 }\n",
      ".mcp-hostrc.yaml": "http: { port: 4616 }\n",
    });
    assert.equal((await loadConfig({ cwd: inPackage, env })).config.http.port, 4616);
    const only = await project({
      ".config/config.json": JSON.stringify({ cosmiconfig: { searchPlaces: ["tools/mcp-host.json"], mergeSearchPlaces: false } }),
      ".mcp-hostrc.yaml": "http: { port: 4613 }\n",
    });
    assert.equal((await loadConfig({ cwd: only, env })).source, undefined, "the default places are not searched");
    await writeFile(join(only, "tools-mcp-host.json"), "{}");
    await writeFile(join(only, ".config", "config.json"), JSON.stringify({ cosmiconfig: { searchPlaces: ["tools-mcp-host.json"], mergeSearchPlaces: false } }));
    await writeFile(join(only, "tools-mcp-host.json"), JSON.stringify({ http: { port: 4614 } }));
    // A reload reads the edited meta configuration (a new explorer each load, no cache).
    assert.equal((await loadConfig({ cwd: only, env })).config.http.port, 4614);
  });

  it("reports its syntax errors with their position and never their text", async () => {
    const cwd = await project({ ".config/config.yaml": "cosmiconfig:\n  searchPlaces: [a\n  token: sk_live_META_SECRET\n", ".mcp-hostrc.yaml": "http: {}\n" });
    const r = await refused(loadConfig({ cwd, env }), [["CONFIG_INVALID", "(root)"]], ["sk_live_META_SECRET"]);
    assert.match(r.problems[0]!.message, new RegExp(`^${join(cwd, ".config/config.yaml")}: line \\d+, column \\d+: not valid YAML: `));
  });
});
