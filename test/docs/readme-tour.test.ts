// The README's tour stays true: its first commands run from this folder exactly as written and say what the tour
// says they say.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { REPO, assertBuilt, runCli } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The commands of the tour's first shell block, as argument lists for the built command. */
function tourCommands(): string[][] {
  const tour = readme.slice(readme.indexOf("## A five-minute tour"));
  const block = /```sh\n([\s\S]*?)```/.exec(tour)![1]!;
  return block
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line.startsWith("node dist/cli/main.js "))
    .map((line) => [...line.slice("node dist/cli/main.js ".length).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!));
}

describe("README tour", { timeout: 90_000 }, () => {
  it("lists the default selection, a units-only selection, the read-only and search forms and a clean check", async () => {
    const commands = tourCommands();
    assert.deepEqual(commands, [["toolsets"], ["toolsets", "only=units"], ["toolsets", "all&readonly"], ["toolsets", "all&search"], ["check"]]);
    const [table, units, readonly, search, check] = await Promise.all(commands.map((args) => runCli(cleanup, args, { cwd: REPO })));
    assert.equal(readonly!.code, 0, readonly!.stderr);
    assert.match(readonly!.stdout, /^modifiers: readonly \(only tools annotated readOnlyHint\)$/m);
    assert.match(readonly!.stdout, /^tools \(21\): add_duration, .*, trigger-long-running-operation$/m, "of the 49 tools, those annotated read-only");
    assert.doesNotMatch(readonly!.stdout, /^tools .*\btest_sampling\b/m);
    assert.equal(search!.code, 0, search!.stderr);
    assert.match(search!.stdout, /^tools \(2\): call_tool, find_tools$/m);
    assert.match(search!.stdout, /^modifiers: search \(find_tools and call_tool over \d+ tools\)$/m);
    assert.equal(table!.code, 0, table!.stderr);
    assert.match(table!.stdout, /^active: everything, text, time$/m);
    assert.equal(units!.code, 0, units!.stderr);
    assert.match(units!.stdout, /^tools \(3\): convert_units, list_server_toolsets, list_units$/m);
    assert.equal(check!.code, 0, check!.stderr);
    assert.match(check!.stdout, /^upstream everything: up \(\d+ tools\)$/m);
    assert.match(check!.stdout, /^check: ok$/m);
  });
});
