// What the config search must never do (issue 26 part 1, docs/security.md): read a configuration from outside the
// project folder — a parent folder, the home folder (its ~/.config/mcp-host, its .config/config.*, its rc files) — or
// follow a meta configuration of the project folder that points outside it: a search place that climbs out, $import,
// an option that names another file. The real command (dist/) is run from a folder of its own, as a desktop client
// runs it; every outside file holds a secret it must never print, and the JavaScript ones leave a mark when run,
// which must never appear. A meta configuration whose JavaScript fails is reported, never a crash.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { assertBuilt, runCli } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

let root = "";
after(() => rm(root, { recursive: true, force: true }));

const SECRET = "sk_live_OUTSIDE_SECRET";

async function folder(path: string, files: Record<string, string>): Promise<string> {
  await mkdir(path, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(path, name)), { recursive: true });
    await writeFile(join(path, name), content);
  }
  return path;
}

/** A YAML configuration that would show if read: another port, and the secret in a header. */
const outsideYaml = (port: number) => `http:\n  port: ${port}\nname: "${SECRET}"\n`;
/** A CommonJS configuration that leaves `mark` behind when it runs. */
const outsideJs = (mark: string) =>
  `require("node:fs").writeFileSync(${JSON.stringify(mark)}, "ran");\nmodule.exports = { http: { port: 5999 }, name: "${SECRET}" };\n`;

interface Seen {
  code: number | null;
  config: string | null;
  leaked: boolean;
  first: string;
}

async function check(project: string, options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Seen> {
  const run = await runCli(cleanup, ["check", "--json", "--cwd", project], options);
  const output = `${run.stdout}${run.stderr}`;
  const config = run.code === 0 ? ((JSON.parse(run.stdout) as { config: string | null }).config ?? null) : null;
  const first = run.stderr.split("\n").find((l) => l.startsWith("CONFIG_INVALID")) ?? "";
  return { code: run.code, config, leaked: output.includes(SECRET), first };
}

describe("the config search stays inside the project folder", { timeout: 120_000 }, () => {
  it("never reads a parent folder's or the home folder's configuration", async () => {
    root = await mkdtemp(join(tmpdir(), "mcp-host-boundary-"));
    const home = await folder(join(root, "home"), {
      ".mcp-hostrc.yaml": outsideYaml(5101),
      "package.json": JSON.stringify({ name: "home", "mcp-host": { http: { port: 5102 }, name: SECRET } }),
      ".config/config.yaml": `mcp-host:\n${outsideYaml(5103).replace(/^/gm, "  ")}`,
      ".config/mcp-host/config.yaml": outsideYaml(5104),
      ".config/mcp-hostrc.yaml": outsideYaml(5105),
    });
    // The project lies inside the home folder, one level down, and has no configuration of its own.
    const project = await folder(join(home, "work", "project"), { "package.json": JSON.stringify({ name: "project", version: "1.0.0" }) });
    await folder(join(home, "work"), {
      ".mcp-hostrc.yaml": outsideYaml(5106),
      ".config/config.yaml": "cosmiconfig:\n  searchPlaces: ['../.mcp-hostrc.yaml']\n",
    });
    // A second project, beside it, has a configuration of its own: the search runs through cosmiconfig there.
    const own = await folder(join(home, "work", "own"), { "package.json": JSON.stringify({ name: "own" }), ".config/mcp-hostrc.yml": "http:\n  port: 4000\n" });
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
    const seen: Seen[] = [];
    for (const cwd of [home, join(home, "work"), project]) seen.push(await check(project, { cwd, env }), await check(own, { cwd, env }));
    assert.deepEqual(
      seen,
      seen.map((_, i) => ({ code: 0, config: i % 2 === 0 ? null : join(own, ".config/mcp-hostrc.yml"), leaked: false, first: "" })),
    );
  });

  it("refuses a meta configuration of the project folder that points outside it, and reads nothing there", async () => {
    root ||= await mkdtemp(join(tmpdir(), "mcp-host-boundary-"));
    const base = join(root, "meta");
    const mark = join(base, "outside-ran");
    await folder(base, { "outside.yaml": outsideYaml(5201), "outside.cjs": outsideJs(mark) });
    const cases: Record<string, [Record<string, string>, RegExp]> = {
      "a search place climbing out": [
        { ".config/config.yaml": "cosmiconfig:\n  searchPlaces: ['../outside.yaml', '../outside.cjs']\n" },
        /cosmiconfig\.searchPlaces: the search place "\.\.\/outside\.(yaml|cjs)" lies outside the project folder/,
      ],
      "a search place climbing out through {name}": [
        { ".config/config.json": JSON.stringify({ cosmiconfig: { searchPlaces: ["{name}/../../outside.cjs"] } }) },
        /cosmiconfig\.searchPlaces: the search place "\{name\}\/\.\.\/\.\.\/outside\.cjs" lies outside the project folder/,
      ],
      $import: [{ ".config/config.yaml": "$import: ../outside.yaml\n" }, /\$import is not supported/],
      "another meta file named": [
        { ".config/config.json": JSON.stringify({ cosmiconfig: { metaConfigFilePath: join(base, "outside.yaml") } }) },
        /cosmiconfig\.metaConfigFilePath: is not followed/,
      ],
      "a package.json key naming other places": [
        { "package.json": JSON.stringify({ name: "p", cosmiconfig: { searchPlaces: ["../outside.cjs"], stopDir: "/" } }) },
        /cosmiconfig\.searchPlaces: the search place "\.\.\/outside\.cjs" lies outside the project folder/,
      ],
      "a JavaScript meta configuration that throws": [
        { ".config/config.cjs": `throw new Error("${SECRET}");\n` },
        /config\.cjs: line 1: could not be imported: Error/,
      ],
    };
    const names = Object.keys(cases);
    const seen: Record<string, unknown> = {};
    for (const [i, name] of names.entries()) {
      const project = await folder(join(base, `p${i}`), { ...cases[name]![0], ".mcp-hostrc.yaml": "http:\n  port: 4000\n" });
      const run = await check(project, { cwd: root });
      seen[name] = { code: run.code, leaked: run.leaked, refused: cases[name]![1].test(run.first) || run.first };
    }
    assert.deepEqual(seen, Object.fromEntries(names.map((name) => [name, { code: 2, leaked: false, refused: true }])));
    assert.equal(existsSync(mark), false, "no file outside the project folder was run");
  });
});
