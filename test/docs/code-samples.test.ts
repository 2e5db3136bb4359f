// Every code sample of the README and docs/ is checked against the real package, so none can drift from the API
// (issue 22): each ts/js block is written into a git-ignored scratch folder inside the repository, where `mcp-host/…`
// resolves by the package's self-reference to the built declarations (dist/), and all of them are type-checked in
// one `tsc` program; each config file block (yaml, or json whose keys are the config's) is loaded by `loadConfig`.
// A problem is reported as `docs/page.md:<line of the fence>: …`. How to write a checked sample: CONTRIBUTING.md.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { loadConfig } from "../../src/entries/config.js";
import { deploymentConfigSchema } from "../../src/config/schema.js";
import { type DocBlock, fencedBlocks } from "../helpers/doc-blocks.js";
import { REPO } from "../helpers/cli-process.js";

const SCRATCH = join(REPO, ".scratch", "doc-samples");
const TYPED = new Set(["ts", "typescript", "js", "mjs"]);
const CONFIG_LANGS = new Set(["yaml", "yml", "json"]);

function markdownPages(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? markdownPages(path) : entry.name.endsWith(".md") ? [path] : [];
  });
}

const pages = ["README.md", ...markdownPages("docs").sort()];
const blocks = pages.flatMap((page) => fencedBlocks(readFileSync(join(REPO, page), "utf8"), page));
const where = (b: DocBlock) => `${b.page}:${b.line}`;

/** The entry points a sample may import: `mcp-host` and each `mcp-host/<subpath>` of package.json's exports. */
const entries = Object.keys((JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports)
  .filter((key) => key !== "./package.json")
  .map((key) => (key === "." ? "mcp-host" : `mcp-host/${key.slice(2)}`));

/** The file a typed sample is written to: one folder per page, so a page's samples can import each other. */
function sampleFile(b: DocBlock): string {
  const name = b.file ?? `line-${b.line}.${b.lang === "js" || b.lang === "mjs" ? "mjs" : "ts"}`;
  return join(SCRATCH, b.page.replace(/\.md$/, ""), name);
}

const contextLines = (b: DocBlock) => (b.context === undefined ? 0 : b.context.split("\n").length);

/** A sample that must not compile, checked in the same program: proves that a broken sample is reported. */
const CANARY: DocBlock = { page: "docs/canary.md", line: 7, lang: "ts", code: 'const port: number = "3000";\n', context: "// context" };

/** `tsc`'s errors, each as `page:fence-line: message (page line N)`, for the samples written. */
function typeCheck(samples: readonly DocBlock[]): string[] {
  rmSync(SCRATCH, { recursive: true, force: true });
  const byFile = new Map<string, DocBlock>();
  for (const b of samples) {
    const file = sampleFile(b);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, b.context === undefined ? b.code : `${b.context}\n${b.code}`);
    byFile.set(relative(SCRATCH, file), b);
  }
  const compilerOptions = {
    strict: true,
    target: "ES2022",
    lib: ["ES2023"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    moduleDetection: "force",
    types: ["node"],
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck: true,
  };
  writeFileSync(join(SCRATCH, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["**/*.ts", "**/*.mjs"] }, null, 2));
  const tsc = spawnSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", SCRATCH, "--pretty", "false"], {
    cwd: SCRATCH,
    encoding: "utf8",
  });
  const problems: string[] = [];
  for (const line of tsc.stdout.split("\n")) {
    const error = /^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
    if (!error) {
      if (line.startsWith(" ") && problems.length > 0) problems[problems.length - 1] += ` ${line.trim()}`;
      else if (line.trim() !== "") problems.push(`tsc: ${line}`);
      continue;
    }
    const b = byFile.get(error[1]!.split("\\").join("/"));
    if (!b) {
      problems.push(`tsc: ${line}`);
      continue;
    }
    const at = Number(error[2]) - contextLines(b);
    problems.push(`${where(b)}: ${error[3]} (${at < 1 ? "in its sample-context" : `page line ${b.line + at}`})`);
  }
  if (tsc.status !== 0 && problems.length === 0) problems.push(`tsc exited ${tsc.status}: ${tsc.stderr}`);
  return problems;
}

/** The module specifiers a sample imports, statically or dynamically. */
export function importsOf(code: string): string[] {
  return [...code.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]!);
}

/** What is wrong with one import of a page's sample: a path into the package's files or a name no entry exports. */
export function importProblem(specifier: string, pageFiles: ReadonlySet<string>): string | undefined {
  if (specifier.startsWith(".")) {
    const named = /^\.\/([\w.-]+)\.js$/.exec(specifier)?.[1];
    return named !== undefined && pageFiles.has(`${named}.ts`) ? undefined : `imports "${specifier}", which is no sample-file of its page`;
  }
  if (/(^|\/)(src|dist)(\/|$)/.test(specifier)) return `imports "${specifier}", a path inside a package: import an entry point`;
  if ((specifier === "mcp-host" || specifier.startsWith("mcp-host/")) && !entries.includes(specifier))
    return `imports "${specifier}", which is no entry point (${entries.join(", ")})`;
  return undefined;
}

/** A yaml block, or a json block whose every key is a key of the config file, is a deployment config file. */
export function isConfigBlock(b: DocBlock): boolean {
  if (!CONFIG_LANGS.has(b.lang) || b.notChecked !== undefined) return false;
  if (b.lang !== "json") return true;
  let value: unknown;
  try {
    value = JSON.parse(b.code);
  } catch {
    return false;
  }
  const keys = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
  return keys.length > 0 && keys.every((key) => key in deploymentConfigSchema.shape);
}

/** Loads one config block the way `mcp-host serve` does, its `${env:…}` and `${file:…}` references given values. */
async function configProblem(b: DocBlock, index: number): Promise<string | undefined> {
  const dir = join(SCRATCH, "configs", String(index));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, b.lang === "json" ? "mcp-host.config.json" : "mcp-host.config.yaml"), b.code);
  const env: Record<string, string> = {};
  for (const [, kind, name] of b.code.matchAll(/\$\{(env|file):([^}]+)\}/g)) {
    // A value each reference can stand for: a redis:// URL for a URL, else a secret at least 32 bytes long.
    const value = /url$/i.test(name!) ? "redis://127.0.0.1:6379" : "doc-sample-value-0123456789abcdef0123";
    if (kind === "env") env[name!] = value;
    else {
      mkdirSync(dirname(join(dir, name!)), { recursive: true });
      writeFileSync(join(dir, name!), value);
    }
  }
  try {
    await loadConfig({ cwd: dir, env });
    return undefined;
  } catch (error) {
    return `${where(b)}: ${(error as Error).message.replaceAll(dir, ".")}`;
  }
}

describe("the code samples of the README and docs/", () => {
  const typed = blocks.filter((b) => TYPED.has(b.lang) && b.notChecked === undefined);
  let problems: string[] = [];
  let wallMs = 0;
  before(() => {
    // The samples import the built package: the test command builds first; a lone run builds when dist/ is missing.
    if (!existsSync(join(REPO, "dist", "entries", "testing.d.ts"))) spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: REPO, stdio: "inherit" });
    const started = performance.now();
    problems = typeCheck([...typed, CANARY]);
    wallMs = performance.now() - started;
  });

  it("type-check against the package's built entry points, in one tsc program", (t) => {
    t.diagnostic(`${typed.length} samples of ${pages.length} pages type-checked in ${Math.round(wallMs)} ms`);
    assert.ok(typed.length >= 20, `only ${typed.length} samples found`);
    assert.deepEqual(
      problems.filter((p) => !p.startsWith(where(CANARY))),
      [],
    );
  });

  it("report a sample that does not compile by its page and fence line", () => {
    // tsc reports no type errors while any file has a syntax error (TS1xxx): then those stand for the canary's.
    const syntax = problems.filter((p) => / TS1\d{3}: /.test(p));
    assert.deepEqual(
      problems.filter((p) => p.startsWith(where(CANARY))),
      syntax.length > 0 ? [] : ["docs/canary.md:7: TS2322: Type 'string' is not assignable to type 'number'. (page line 8)"],
    );
  });

  it("import only from the package's entry points", () => {
    const found: string[] = [];
    for (const page of pages) {
      const own = blocks.filter((b) => b.page === page && TYPED.has(b.lang));
      const files = new Set(own.flatMap((b) => (b.file === undefined ? [] : [b.file])));
      for (const b of own)
        for (const specifier of importsOf(`${b.context ?? ""}\n${b.code}`)) {
          const problem = importProblem(specifier, files);
          if (problem) found.push(`${where(b)}: ${problem}`);
        }
    }
    assert.deepEqual(found, []);
  });

  it("give a reason for every block that is deliberately not checked", (t) => {
    const skipped = blocks.filter((b) => b.notChecked !== undefined);
    t.diagnostic(`${skipped.length} blocks not checked: ${skipped.map((b) => `${where(b)} (${b.notChecked})`).join("; ")}`);
    assert.deepEqual(skipped.filter((b) => b.notChecked === "").map(where), []);
  });

  it("load every config file sample with loadConfig, as mcp-host serve does", async (t) => {
    const configs = blocks.filter(isConfigBlock);
    t.diagnostic(`${configs.length} config file samples loaded`);
    assert.ok(configs.length >= 5, `only ${configs.length} config samples found`);
    const found = (await Promise.all(configs.map((b, i) => configProblem(b, i)))).filter((p) => p !== undefined);
    assert.deepEqual(found, []);
  });
});

describe("reading a page's samples", () => {
  it("takes the directives from the comments right above a fence, and a fence nested in a list", () => {
    const page = [
      "Text.",
      '<!-- sample-context: import type { McpHost } from "mcp-host/testing";',
      "declare const host: McpHost; -->",
      "<!-- example: elsewhere -->",
      "```ts",
      "await host.start();",
      "```",
      "",
      "- a list item:",
      "  <!-- sample: not-checked (shape only) -->",
      "  ```ts",
      "  host.stop(…);",
      "  ```",
      "<!-- sample: not-checked -->",
      "",
      "```yaml",
      "name: x",
      "```",
    ].join("\n");
    assert.deepEqual(fencedBlocks(page, "docs/x.md"), [
      {
        page: "docs/x.md",
        line: 5,
        lang: "ts",
        code: "await host.start();\n",
        context: 'import type { McpHost } from "mcp-host/testing";\ndeclare const host: McpHost;',
      },
      { page: "docs/x.md", line: 11, lang: "ts", code: "host.stop(…);\n", notChecked: "shape only" },
      { page: "docs/x.md", line: 16, lang: "yaml", code: "name: x\n" },
    ]);
  });

  it("counts an opt-out without a reason as one with an empty reason", () => {
    assert.equal(fencedBlocks("<!-- sample: not-checked -->\n```ts\nx\n```\n", "docs/x.md")[0]!.notChecked, "");
  });

  it("refuses an import of the package's files, of a subpath that is no entry, or of a file no sample is", () => {
    const files = new Set(["index.ts"]);
    assert.deepEqual(
      ["mcp-host/testing", "zod", "./index.js", "../../src/host/build-host.js", "mcp-host/dist/index.js", "mcp-host/src/errors", "./other.js"].map((s) =>
        importProblem(s, files),
      ),
      [
        undefined,
        undefined,
        undefined,
        'imports "../../src/host/build-host.js", which is no sample-file of its page',
        'imports "mcp-host/dist/index.js", a path inside a package: import an entry point',
        'imports "mcp-host/src/errors", a path inside a package: import an entry point',
        'imports "./other.js", which is no sample-file of its page',
      ],
    );
    assert.deepEqual(importsOf('import a from "a";\nimport "b";\nconst c = await import("c");\nexport { d } from "d";'), ["a", "b", "c", "d"]);
  });

  it("takes a yaml block, and a json block with only config keys, as a config file", () => {
    const block = (lang: string, code: string): DocBlock => ({ page: "docs/x.md", line: 1, lang, code });
    assert.equal(isConfigBlock(block("yaml", "servers: {}\n")), true);
    assert.equal(isConfigBlock(block("json", '{ "servers": {}, "auth": { "issuer": "x" } }\n')), true);
    assert.equal(isConfigBlock(block("json", '{ "mcpServers": {} }\n')), false);
    assert.equal(isConfigBlock(block("json", "{ not json }\n")), false);
  });
});
