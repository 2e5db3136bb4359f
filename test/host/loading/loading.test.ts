// Loading (docs/design.md §5): every shape a module may export (extension, array, factory given its options, named
// exports), the defaults a loaded extension gets (name, version), every way an entry can fail — each reported with
// its package and path, logged, and costing only itself — and the `names` limit. Fixtures: test/fixtures/packages.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { memoryLogger } from "../../../src/logger.js";
import { discoverExtensions } from "../../../src/host/loading/discover.js";
import { loadDiscovered } from "../../../src/host/loading/load.js";
import type { LoadResult } from "../../../src/host/loading/load.js";
import { extensionNamesFromEnv, loadExtensions } from "../../../src/host/loading/load-extensions.js";

const PACKAGES = realpathSync(fileURLToPath(new URL("../../fixtures/packages/", import.meta.url)));
const fixture = (scenario: string) => join(PACKAGES, scenario);

function imported(): string[] {
  return [...((globalThis as { mcpHostFixtureImports?: string[] }).mcpHostFixtureImports ?? [])].sort();
}
function names(result: LoadResult): string[] {
  return result.extensions.map((loaded) => loaded.extension.name);
}
function failures(result: LoadResult): Array<[string, string, string]> {
  return result.failures.map((f) => [f.name, f.error.code, f.error.message]);
}

// These run first: they check what a names limit imports, and a module is imported once per process.
describe("loadExtensions with names", () => {
  const cwd = fixture("names");
  it("keeps entries whose package name or declared name is listed; the others are imported for their names, their failures kept back", async () => {
    const { logger, records } = memoryLogger();
    const result = await loadExtensions({ cwd, names: ["fixture-names-pair", "math"], logger });
    assert.deepEqual(names(result), ["math", "pair-a", "pair-b"]);
    assert.deepEqual(result.failures, []);
    assert.deepEqual(
      records.filter((r) => r.level === "error"),
      [],
    );
    // Every entry is read (an extension's own name is known only once imported): a twin of a listed name is found.
    assert.deepEqual(imported(), ["clock", "math", "pair", "text"]);
  });
  it("finds a name that is only an extension's own name by importing the remaining entries, reporting their failures", async () => {
    const result = await loadExtensions({ cwd, names: ["clock"], logger: memoryLogger().logger });
    assert.deepEqual(names(result), ["clock"]);
    assert.deepEqual(
      result.failures.map((f) => [f.name, f.error.code]),
      [["fixture-names-throws", "EXTENSION_LOAD_FAILED"]],
    );
  });
  it("reports a name that matched nothing, listing what was discovered", async () => {
    const { logger, records } = memoryLogger();
    const result = await loadExtensions({ cwd, names: ["nosuch", "text"], logger });
    assert.deepEqual(names(result), ["text"]);
    const unmatched = result.failures.find((f) => f.name === "nosuch");
    assert.deepEqual(unmatched?.source, "the extension names asked for");
    assert.equal(unmatched?.error.code, "EXTENSION_LOAD_FAILED");
    assert.equal(unmatched?.error.extension, "nosuch");
    assert.equal(
      unmatched?.error.message,
      'no discovered extension is named "nosuch" (packages: "fixture-names-clock", "fixture-names-multi", "fixture-names-pair", "fixture-names-throws"; ' +
        'extensions: "clock", "math", "pair-a", "pair-b", "text"); check the spelling in --extension / MCP_HOST_EXTENSIONS, or install the package and list it in package.json dependencies.',
    );
    assert.ok(records.some((r) => r.level === "error" && r.message === unmatched?.error.message));
  });
  it("accepts comma-separated names inside one element, and loads everything when names is empty", async () => {
    assert.deepEqual(names(await loadExtensions({ cwd, names: ["math,text"], logger: memoryLogger().logger })), ["math", "text"]);
    const all = await loadExtensions({ cwd, names: [], logger: memoryLogger().logger });
    assert.deepEqual(names(all), ["clock", "math", "pair-a", "pair-b", "text"]);
    assert.deepEqual(
      all.failures.map((f) => f.name),
      ["fixture-names-throws"],
    );
  });
});

describe("extensionNamesFromEnv", () => {
  it("splits MCP_HOST_EXTENSIONS on commas and whitespace", () => {
    assert.deepEqual(extensionNamesFromEnv({ MCP_HOST_EXTENSIONS: " clock, math  text,," }), ["clock", "math", "text"]);
  });
  it("gives undefined (no limit) when the variable is unset or blank", () => {
    assert.equal(extensionNamesFromEnv({}), undefined);
    assert.equal(extensionNamesFromEnv({ MCP_HOST_EXTENSIONS: " , " }), undefined);
  });
});

describe("loading every export shape", () => {
  const cwd = fixture("loading");
  const options = {
    "fixture-load-factory": { greeting: "hi" },
    "async-declared": { mood: "calm" },
    "fixture-load-async-factory": { mood: "by package name: not used, the declared name wins" },
  };
  const load = () => loadExtensions({ cwd, options, logger: memoryLogger().logger });

  it("loads objects, arrays, factories (sync and async) and named exports, sorted by name, with versions filled in", async () => {
    const result = await load();
    assert.deepEqual(
      result.extensions.map((l) => [l.extension.name, l.extension.version, l.packageName, l.packageVersion, l.source]),
      [
        ["arr-a", "9.9.9", "fixture-load-array", "1.0.0", 'package "fixture-load-array" (./ext.js)'],
        ["arr-b", "1.0.0", "fixture-load-array", "1.0.0", 'package "fixture-load-array" (./ext.js)'],
        ["async-a", "1.0.0", "fixture-load-async-factory", "1.0.0", 'package "fixture-load-async-factory" (async-declared: ./ext.js)'],
        ["async-b", "1.0.0", "fixture-load-async-factory", "1.0.0", 'package "fixture-load-async-factory" (async-declared: ./ext.js)'],
        ["default-wins", "1.0.0", "fixture-load-default-wins", "1.0.0", 'package "fixture-load-default-wins" (./ext.js)'],
        ["factory", "1.0.0", "fixture-load-factory", "1.0.0", 'package "fixture-load-factory" (./ext.js)'],
        ["fixture-load-class", "2.2.0", "fixture-load-class", "2.2.0", 'package "fixture-load-class" (./ext.js)'],
        ["fixture-load-unnamed", "0.7.0", "fixture-load-unnamed", "0.7.0", 'package "fixture-load-unnamed" (./ext.js)'],
        ["kept", "1.0.0", "fixture-load-array-unnamed", "1.0.0", 'package "fixture-load-array-unnamed" (./ext.js)'],
        ["named-one", "1.0.0", "fixture-load-named-extension", "1.0.0", 'package "fixture-load-named-extension" (./ext.js)'],
        ["named-three", "1.0.0", "fixture-load-named-extensions", "1.0.0", 'package "fixture-load-named-extensions" (./ext.js)'],
        ["named-two", "1.0.0", "fixture-load-named-extensions", "1.0.0", 'package "fixture-load-named-extensions" (./ext.js)'],
        ["obj", "1.4.0", "fixture-load-object", "1.4.0", 'package "fixture-load-object" (./ext.js)'],
      ],
    );
  });
  it("hands a factory the options under its declared name, else under its package name", async () => {
    const result = await load();
    const description = (name: string) => result.extensions.find((l) => l.extension.name === name)?.extension.description;
    assert.equal(description("factory"), "greeting=hi");
    assert.equal(description("async-a"), "calm");
    const fromPackage = await loadExtensions({
      cwd: fixture("root-object"),
      options: { "fixture-root-object": { greeting: "pkg" } },
      logger: memoryLogger().logger,
    });
    assert.equal(fromPackage.extensions.find((l) => l.extension.name === "zeta")?.extension.description, "greeting=pkg");
    const fromDeclared = await loadExtensions({
      cwd: fixture("root-object"),
      options: { zeta: { greeting: "z" }, "fixture-root-object": { greeting: "pkg" } },
      logger: memoryLogger().logger,
    });
    assert.equal(fromDeclared.extensions.find((l) => l.extension.name === "zeta")?.extension.description, "greeting=z");
  });
  it("names a nameless extension after its declared name, else its package", async () => {
    const { extensions } = await loadExtensions({ cwd: fixture("root-object"), logger: memoryLogger().logger });
    assert.deepEqual(
      extensions.map((l) => [l.extension.name, l.extension.description]),
      [
        ["alpha", undefined],
        ["zeta", "greeting=none"],
      ],
    );
  });
  it("returns a complete export as it is, and never changes an export it completes", async () => {
    const result = await load();
    const arrayModule = (await import(pathToFileURL(join(cwd, "node_modules/fixture-load-array/ext.js")).href)) as { default: object[] };
    assert.equal(result.extensions.find((l) => l.extension.name === "arr-a")?.extension, arrayModule.default[1]);
    const unnamedModule = (await import(pathToFileURL(join(cwd, "node_modules/fixture-load-unnamed/ext.js")).href)) as {
      default: { name?: string; tools: unknown[] };
    };
    const unnamed = result.extensions.find((l) => l.extension.name === "fixture-load-unnamed")?.extension;
    assert.equal(unnamedModule.default.name, undefined);
    assert.equal(unnamed?.tools, unnamedModule.default.tools);
  });
  it("keeps the prototype (and so the hooks) of an extension made by a class", async () => {
    const result = await load();
    const counter = result.extensions.find((l) => l.extension.name === "fixture-load-class")?.extension as unknown as {
      setup(): Promise<void>;
      started: number;
    };
    await counter.setup();
    assert.equal(counter.started, 1);
  });
  it("does not depend on the order of the entries", async () => {
    const { found } = await discoverExtensions({ cwd });
    const quiet = { options, logger: memoryLogger().logger };
    const forward = await loadDiscovered(found, quiet);
    const backward = await loadDiscovered([...found].reverse(), quiet);
    assert.deepEqual(names(backward), names(forward));
    assert.deepEqual(failures(backward), failures(forward));
  });
});

describe("loading failures cost only their entry", () => {
  const cwd = fixture("loading");
  const pkg = (name: string) => join(cwd, "node_modules", name);
  it("reports every failing entry with its code, package and path, and how to fix it", async () => {
    const result = await loadExtensions({ cwd, logger: memoryLogger().logger });
    assert.deepEqual(failures(result), [
      [
        "fixture-load-array-unnamed",
        "EXTENSION_INVALID",
        'package "fixture-load-array-unnamed" (./ext.js), default export[1]: has no name; every extension in an array needs its own name (only a single exported extension takes its default name from the package). Add name: "…".',
      ],
      [
        "fixture-load-factory-returns-function",
        "EXTENSION_INVALID",
        'package "fixture-load-factory-returns-function" (./ext.js): default export (factory result) is a function; a factory must return an extension or an array of extensions.',
      ],
      [
        "fixture-load-factory-throws",
        "EXTENSION_LOAD_FAILED",
        '[extension fixture-load-factory-throws] package "fixture-load-factory-throws" (./ext.js): the factory (default export) threw: factory boom; fix the factory, or check the options given to this extension.',
      ],
      [
        "fixture-load-missing-file",
        "EXTENSION_LOAD_FAILED",
        `package "fixture-load-missing-file" (./dist/extension.js): the file ${pkg("fixture-load-missing-file")}/dist/extension.js does not exist; build the package (e.g. npm run build), or fix the path in its mcpExtensions field.`,
      ],
      [
        "fixture-load-no-export",
        "EXTENSION_INVALID",
        'package "fixture-load-no-export" (./ext.js): the module exports no extension; give it a default export (export default defineExtension({ name: "…", … })), or a named export "extension" or "extensions".',
      ],
      [
        "fixture-load-not-extension",
        "EXTENSION_INVALID",
        'package "fixture-load-not-extension" (./ext.js), default export: is an object with none of the extension fields (name, toolsets, tools, resources, prompts, toolExtensions, setup…); export an extension made with defineExtension({ name: "…", … }).',
      ],
      [
        "fixture-load-throws",
        "EXTENSION_LOAD_FAILED",
        `[extension fixture-load-throws] package "fixture-load-throws" (./ext.js): importing ${pkg("fixture-load-throws")}/ext.js failed: boom at import; fix the module (the error's cause has the stack), or remove it from the package's mcpExtensions field.`,
      ],
      [
        "wrong",
        "EXTENSION_INVALID",
        'package "fixture-load-wrong-shape" (./dist/ext.js), default export: extension "wrong" has 2 problems: tools must be an array when present (got the string "nope"); write tools: [ … ] or leave it out; prompts[0] ("p"): get must be a function (got undefined); e.g. get: (args, ctx) => ({ messages: [...] }).',
      ],
    ]);
    assert.deepEqual(
      result.failures.map((f) => f.error.extension),
      result.failures.map((f) => f.name),
    );
    assert.equal(result.failures.find((f) => f.name === "wrong")?.source, 'package "fixture-load-wrong-shape" (./dist/ext.js)');
  });
  it("keeps what a module or factory threw as the cause", async () => {
    const result = await loadExtensions({ cwd, logger: memoryLogger().logger });
    const cause = (name: string) => (result.failures.find((f) => f.name === name)?.error.cause as Error | undefined)?.message;
    assert.equal(cause("fixture-load-throws"), "boom at import");
    assert.equal(cause("fixture-load-factory-throws"), "factory boom");
  });
  it("logs every failure at error level with its code and source", async () => {
    const { logger, records } = memoryLogger();
    const result = await loadExtensions({ cwd, logger });
    const logged = records.filter((r) => r.level === "error").map((r) => [r.message, r.data?.code, r.data?.source]);
    const expected = result.failures.map((f) => [f.error.message, f.error.code, f.source]);
    assert.deepEqual(logged.sort(), expected.sort());
  });
  it("returns discovery problems as failures, and still loads the well-formed neighbours", async () => {
    const result = await loadExtensions({ cwd: fixture("malformed"), logger: memoryLogger().logger });
    assert.deepEqual(names(result), ["bad-list-ok", "bad-object-good", "good"]);
    assert.deepEqual(
      result.failures.map((f) => [f.name, f.source]),
      [
        ["bad", 'package "fixture-bad-object" (mcpExtensions.bad)'],
        ["fixture-absolute", 'package "fixture-absolute" (mcpExtensions)'],
        ["fixture-bad-json", 'package "fixture-bad-json"'],
        ["fixture-bad-list", 'package "fixture-bad-list" (mcpExtensions[1])'],
        ["fixture-bad-list", 'package "fixture-bad-list" (mcpExtensions[2])'],
        ["fixture-bad-object", 'package "fixture-bad-object" (mcpExtensions)'],
        ["fixture-empty-string", 'package "fixture-empty-string" (mcpExtensions)'],
        ["fixture-escapes", 'package "fixture-escapes" (mcpExtensions)'],
        ["fixture-malformed", 'package "fixture-malformed" (mcpExtensions)'],
        ["fixture-malformed", 'package "fixture-malformed" (workspaces)'],
        ["fixture-malformed", 'package "fixture-malformed" (workspaces)'],
      ],
    );
  });
  it("reports a missing regular dependency as a failure next to the extensions that loaded", async () => {
    const result = await loadExtensions({ cwd: fixture("dependencies"), logger: memoryLogger().logger });
    assert.deepEqual(names(result), ["dep-a", "dep-b", "dep-optional", "hidden", "scoped"]);
    assert.deepEqual(
      result.failures.map((f) => [f.name, f.error.code]),
      [["fixture-missing-regular", "EXTENSION_LOAD_FAILED"]],
    );
  });
  it("loads workspace packages", async () => {
    const result = await loadExtensions({ cwd: fixture("workspaces"), logger: memoryLogger().logger });
    assert.deepEqual(names(result), ["beta-one", "ws-alpha", "ws-tool"]);
    assert.deepEqual(result.failures, []);
  });
  it("loads the same extensions whatever order a project declares them in", async () => {
    const forward = await loadExtensions({ cwd: fixture("order/forward"), logger: memoryLogger().logger });
    const reverse = await loadExtensions({ cwd: fixture("order/reverse"), logger: memoryLogger().logger });
    const expected = ["order-a", "order-b-aa", "order-b-zz", "order-c", "order-x", "order-y"];
    assert.deepEqual(names(forward), expected);
    assert.deepEqual(names(reverse), expected);
    assert.deepEqual(
      forward.extensions.map((l) => l.source),
      reverse.extensions.map((l) => l.source),
    );
  });
});
