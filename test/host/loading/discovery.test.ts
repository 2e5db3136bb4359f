// Discovery (docs/design.md §5): which extension modules a project declares — its own mcpExtensions field in every
// form, its dependencies' and optional dependencies', its workspaces' — in a deterministic order, with malformed
// declarations reported (never a crash) and nothing imported. Fixtures: test/fixtures/packages/<scenario>.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { discoverExtensions, discoverExtensionsDetailed } from "../../../src/host/loading/discover.js";
import type { DiscoveredExtension } from "../../../src/host/loading/discover.js";

const PACKAGES = realpathSync(fileURLToPath(new URL("../../fixtures/packages/", import.meta.url)));
const fixture = (scenario: string) => join(PACKAGES, scenario);

function sources(found: readonly DiscoveredExtension[]): string[] {
  return found.map((f) => f.source);
}

describe("discovery reads the project's own mcpExtensions field", () => {
  it("as a path string", async () => {
    const dir = fixture("root-string");
    assert.deepEqual(await discoverExtensions({ cwd: dir }), {
      found: [
        {
          packageName: "fixture-root-string",
          packageVersion: "1.0.0",
          packageDir: dir,
          entry: join(dir, "extension.js"),
          source: 'package "fixture-root-string" (./extension.js)',
        },
      ],
      problems: [],
    });
  });
  it("as a list of paths, sorted by path whatever the list order", async () => {
    const dir = fixture("root-list");
    const { found, problems } = await discoverExtensions({ cwd: dir });
    assert.deepEqual(problems, []);
    assert.deepEqual(
      found.map((f) => f.entry),
      [join(dir, "first.js"), join(dir, "second.js")],
    );
    assert.deepEqual(sources(found), ['package "fixture-root-list" (./first.js)', 'package "fixture-root-list" (./second.js)']);
  });
  it("as an object of name → path, keeping each name as the declared name", async () => {
    const dir = fixture("root-object");
    const { found, problems } = await discoverExtensions({ cwd: dir });
    assert.deepEqual(problems, []);
    assert.deepEqual(found, [
      {
        packageName: "fixture-root-object",
        packageVersion: "2.0.0",
        packageDir: dir,
        entry: join(dir, "lib/alpha.js"),
        declaredName: "alpha",
        source: 'package "fixture-root-object" (alpha: ./lib/alpha.js)',
      },
      {
        packageName: "fixture-root-object",
        packageVersion: "2.0.0",
        packageDir: dir,
        entry: join(dir, "zeta.js"),
        declaredName: "zeta",
        source: 'package "fixture-root-object" (zeta: ./zeta.js)',
      },
    ]);
  });
  it("finds nothing and reports nothing in a folder without package.json", async () => {
    assert.deepEqual(await discoverExtensions({ cwd: fixture("no-package-json") }), { found: [], problems: [] });
  });
  it("reports a cwd that is not a folder", async () => {
    const missing = fixture("does-not-exist");
    const { found, problems } = await discoverExtensions({ cwd: missing });
    assert.deepEqual(found, []);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.code, "EXTENSION_LOAD_FAILED");
    assert.equal(problems[0]?.message, `cannot discover extensions: ${missing} is not a folder; pass the project folder that holds package.json as cwd.`);
  });
  it("imports nothing", async () => {
    await discoverExtensions({ cwd: fixture("root-string") });
    await discoverExtensions({ cwd: fixture("names") });
    assert.equal((globalThis as { mcpHostFixtureImports?: unknown }).mcpHostFixtureImports, undefined);
  });
});

describe("discovery reads dependencies and optional dependencies", () => {
  const dir = fixture("dependencies");
  it("finds each dependency's declared extensions, sorted by package name, skipping packages without the field", async () => {
    const { found } = await discoverExtensions({ cwd: dir });
    assert.deepEqual(sources(found), [
      'package "@fixture/scoped" (./ext.js)',
      'package "fixture-dep-a" (./ext.js)',
      'package "fixture-dep-b" (./ext.js)',
      'package "fixture-dep-optional" (./ext.js)',
      'package "fixture-hidden-exports" (./ext.js)',
    ]);
    const depB = found.find((f) => f.packageName === "fixture-dep-b");
    assert.deepEqual(depB, {
      packageName: "fixture-dep-b",
      packageVersion: "3.1.0",
      packageDir: join(dir, "node_modules/fixture-dep-b"),
      entry: join(dir, "node_modules/fixture-dep-b/ext.js"),
      source: 'package "fixture-dep-b" (./ext.js)',
    });
  });
  it("finds a package whose exports hide its package.json", async () => {
    const { found } = await discoverExtensions({ cwd: dir });
    assert.equal(found.find((f) => f.packageName === "fixture-hidden-exports")?.entry, join(dir, "node_modules/fixture-hidden-exports/ext.js"));
  });
  it("skips a missing optional dependency silently and reports a missing regular one", async () => {
    const { problems } = await discoverExtensions({ cwd: dir });
    assert.deepEqual(
      problems.map((p) => [p.code, p.extension, p.message]),
      [
        [
          "EXTENSION_LOAD_FAILED",
          "fixture-missing-regular",
          `package "fixture-deps" dependency "fixture-missing-regular" is not installed (looked from ${dir}); run npm install, or remove it from the dependencies.`,
        ],
      ],
    );
  });
  it("resolves dependencies the way Node does, from a node_modules above the project", async () => {
    const { found, problems } = await discoverExtensions({ cwd: fixture("order/forward") });
    assert.deepEqual(problems, []);
    assert.equal(found.find((f) => f.packageName === "fixture-order-a")?.entry, join(PACKAGES, "order/node_modules/fixture-order-a/ext.js"));
  });
});

describe("discovery reads dev dependencies", () => {
  it("finds an extension installed with npm install -D, and skips a dev dependency a production install left out", async () => {
    const dir = fixture("dev-dependencies");
    const { found, problems } = await discoverExtensions({ cwd: dir });
    assert.deepEqual(sources(found), ['package "fixture-dev-ext" (./ext.js)']);
    assert.deepEqual(problems, []);
  });
});

describe("discovery reads npm workspaces", () => {
  it("follows globs and literal paths, honours !exclusions, skips folders without package.json, visits each package once", async () => {
    const dir = fixture("workspaces");
    const { found, problems } = await discoverExtensions({ cwd: dir });
    assert.deepEqual(problems, []);
    assert.deepEqual(sources(found), [
      'package "fixture-ws-alpha" (./ext.js)',
      'package "fixture-ws-beta" (beta-one: ./one.js)',
      'package "fixture-ws-tool" (./ext.js)',
    ]);
    // fixture-ws-beta is both a dependency (linked in node_modules) and a workspace: one entry, at its real path.
    assert.equal(found[1]?.packageDir, join(dir, "plugins/beta"));
  });
  it("reads the { packages: [...] } form", async () => {
    const { found, problems } = await discoverExtensions({ cwd: fixture("workspaces-object") });
    assert.deepEqual(problems, []);
    assert.deepEqual(sources(found), ['package "fixture-wso-only" (./ext.js)']);
  });
});

describe("discovery reports malformed declarations without crashing", () => {
  const dir = fixture("malformed");
  const pkgJson = (name: string) => join(dir, "node_modules", name, "package.json");
  const fix = "Fix the field in that package.json.";
  it("keeps the well-formed entries of every package", async () => {
    const { found } = await discoverExtensions({ cwd: dir });
    assert.deepEqual(sources(found), [
      'package "fixture-bad-list" (./ok.js)',
      'package "fixture-bad-object" (good: ./good.js)',
      'package "fixture-good" (./ext.js)',
    ]);
  });
  it("reports each malformed field, entry, package.json and workspace pattern as EXTENSION_INVALID naming package and field", async () => {
    const { problems } = await discoverExtensions({ cwd: dir });
    // The JSON parser's own wording varies between Node versions; the rest of the message is ours.
    const normalise = (message: string) => message.replace(/is not valid JSON \([^)]*\)/, "is not valid JSON (…)");
    assert.deepEqual(
      problems.map((p) => [p.code, p.extension, normalise(p.message)]),
      [
        [
          "EXTENSION_INVALID",
          "fixture-malformed",
          `package "fixture-malformed" (${join(dir, "package.json")}): mcpExtensions is the number 42; expected a path like "./dist/extension.js", a list of paths, or an object of name → path. ${fix}`,
        ],
        [
          "EXTENSION_INVALID",
          "fixture-absolute",
          `package "fixture-absolute" (${pkgJson("fixture-absolute")}): mcpExtensions is the string "/etc/hostname", which is not inside the package; use a relative path to a file in the package folder. ${fix}`,
        ],
        ["EXTENSION_INVALID", "fixture-bad-json", `package "fixture-bad-json": ${pkgJson("fixture-bad-json")} is not valid JSON (…); fix the file.`],
        [
          "EXTENSION_INVALID",
          "fixture-bad-list",
          `package "fixture-bad-list" (${pkgJson("fixture-bad-list")}): mcpExtensions[1] is the number 3; expected a path relative to the package, like "./dist/extension.js". ${fix}`,
        ],
        [
          "EXTENSION_INVALID",
          "fixture-bad-list",
          `package "fixture-bad-list" (${pkgJson("fixture-bad-list")}): mcpExtensions[2] is an empty string; expected a path relative to the package, like "./dist/extension.js". ${fix}`,
        ],
        [
          "EXTENSION_INVALID",
          "fixture-bad-object",
          `package "fixture-bad-object" (${pkgJson("fixture-bad-object")}): mcpExtensions has the key " ", but each key is the extension's name; give it a name. ${fix}`,
        ],
        [
          "EXTENSION_INVALID",
          "bad",
          `package "fixture-bad-object" (${pkgJson("fixture-bad-object")}): mcpExtensions.bad is the number 7; expected a path relative to the package, like "./dist/extension.js". ${fix}`,
        ],
        [
          "EXTENSION_INVALID",
          "fixture-empty-string",
          `package "fixture-empty-string" (${pkgJson("fixture-empty-string")}): mcpExtensions is an empty string; expected a path relative to the package, like "./dist/extension.js". ${fix}`,
        ],
        [
          "EXTENSION_INVALID",
          "fixture-escapes",
          `package "fixture-escapes" (${pkgJson("fixture-escapes")}): mcpExtensions is the string "../outside.js", which is not inside the package; use a relative path to a file in the package folder. ${fix}`,
        ],
        [
          "EXTENSION_INVALID",
          "fixture-malformed",
          `package "fixture-malformed" (workspaces): workspace "missing/literal" has no package.json (looked in ${join(dir, "missing/literal")}); fix the pattern or add the package.`,
        ],
        [
          "EXTENSION_INVALID",
          "fixture-malformed",
          `package "fixture-malformed" (workspaces): workspace pattern "deep/**" uses "**", which discovery does not follow; list the folders, or use one "*" per level like "plugins/*".`,
        ],
      ],
    );
  });
  it("gives each problem a best-guess name and a source (the detailed form loadExtensions reports)", async () => {
    const { failures } = await discoverExtensionsDetailed({ cwd: dir });
    assert.deepEqual(
      failures.slice(0, 2).map((f) => [f.name, f.source]),
      [
        ["fixture-malformed", 'package "fixture-malformed" (mcpExtensions)'],
        ["fixture-absolute", 'package "fixture-absolute" (mcpExtensions)'],
      ],
    );
    assert.deepEqual(failures.find((f) => f.name === "bad")?.source, 'package "fixture-bad-object" (mcpExtensions.bad)');
  });
});

describe("discovery order", () => {
  it("does not depend on the order of dependencies, list entries or object keys", async () => {
    const forward = await discoverExtensions({ cwd: fixture("order/forward") });
    const reverse = await discoverExtensions({ cwd: fixture("order/reverse") });
    const expected = [
      'package "fixture-order" (./x.js)',
      'package "fixture-order" (./y.js)',
      'package "fixture-order-a" (./ext.js)',
      'package "fixture-order-b" (aa: ./a.js)',
      'package "fixture-order-b" (zz: ./z.js)',
      'package "fixture-order-c" (./ext.js)',
    ];
    assert.deepEqual(sources(forward.found), expected);
    assert.deepEqual(sources(reverse.found), expected);
  });
});
