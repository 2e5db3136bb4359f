// The config search reads the project folder (--cwd) and nothing else, whatever the folder the command is started
// in holds (docs/config.md). Desktop clients start `mcp-host stdio --cwd /the/project` from a folder of their own
// choosing; cosmiconfig 9 reads its "meta configuration" from process.cwd() whenever an explorer is made — a
// `.config/config.{json,yaml,js,…}` or package.json there could supply the whole configuration or add search places,
// its JavaScript would run, and its YAML errors would reach stderr quoting the text. mcp-host makes its explorer with
// the project folder as the working folder cosmiconfig sees (config-explorer.ts). Each case is a working folder
// holding one such file, and the real command (dist/) must report the project's own config file, exit 0, and print
// nothing of what the working folder holds. (The project folder's own meta configuration is followed since issue 26:
// config-search-cosmiconfig.test.ts and config-search-boundary-attack.test.ts.)
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { assertBuilt, runCli } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

let root = "";
after(() => rm(root, { recursive: true, force: true }));

async function folder(path: string, files: Record<string, string>): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(path, name)), { recursive: true });
    await writeFile(join(path, name), content);
  }
  return path;
}

describe("the config search and the working folder", { timeout: 60_000 }, () => {
  it("reads the project's own file, whatever the working folder holds", async () => {
    root = await mkdtemp(join(tmpdir(), "mcp-host-workdir-"));
    const project = await folder(join(root, "project"), {
      "package.json": JSON.stringify({ name: "project", version: "1.0.0" }),
      ".mcp-hostrc.yaml": "http:\n  port: 4000\n",
    });
    const launchedFrom = (name: string) => join(root, `from-${name}`);
    const cases: Record<string, Record<string, string>> = {
      "a YAML meta config with an mcp-host key": { ".config/config.yaml": "mcp-host:\n  http:\n    port: 5555\n" },
      "a JSON meta config with an mcp-host key": { ".config/config.json": JSON.stringify({ "mcp-host": { http: { port: 5555 } } }) },
      "a meta config adding a search place": {
        ".config/config.yml": `cosmiconfig:\n  searchPlaces: [${JSON.stringify(relative(project, join(launchedFrom("search-place"), "extra.yaml")))}]\n`,
        "extra.yaml": "http:\n  port: 5556\n",
      },
      "a broken YAML meta config holding a secret": { ".config/config.yaml": "a: [1\n token: sk_live_META_SECRET\n" },
      "a JavaScript meta config": { ".config/config.js": 'process.stderr.write("meta config ran\\n");\nmodule.exports = {};\n' },
    };
    const names = Object.keys(cases);
    const dirs = await Promise.all(names.map((name, i) => folder(launchedFrom(i === 2 ? "search-place" : String(i)), cases[name]!)));
    const runs = await Promise.all(dirs.map((cwd) => runCli(cleanup, ["check", "--json", "--cwd", project], { cwd })));
    const seen = names.map((name, i) => {
      const run = runs[i]!;
      const output = `${run.stdout}${run.stderr}`;
      const config = run.code === 0 ? (JSON.parse(run.stdout) as { config?: string }).config : run.stderr.trim().split("\n")[0];
      return { name, code: run.code, config, leaked: ["sk_live_META_SECRET", "meta config ran"].filter((leak) => output.includes(leak)) };
    });
    assert.deepEqual(
      seen,
      names.map((name) => ({ name, code: 0, config: join(project, ".mcp-hostrc.yaml"), leaked: [] })),
    );
  });
});
