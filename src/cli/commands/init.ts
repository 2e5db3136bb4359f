/**
 * `mcp-host init [DIR]`: scaffolds a stand-alone extension package (templates in ../scaffold/templates.ts) that
 * builds and passes its test with its own commands, depending on an mcp-host that installs where it is made (the
 * registry's, else this very one: ../scaffold/mcp-host-dependency.ts). It never overwrites: a folder that already
 * holds files is refused.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { McpHostError } from "../../errors.js";
import { toolsetNameProblem } from "../../extension/toolset-name.js";
import type { CliSettings } from "../args.js";
import { mcpHostVersion } from "../version.js";
import { mcpHostDependency, runningPackageDir } from "../scaffold/mcp-host-dependency.js";
import { extensionSource, GITIGNORE, packageJson, readme, type ScaffoldNames, SKILL, skillSource, TSCONFIG, testSource } from "../scaffold/templates.js";

/** A package and extension name made from a folder's name. */
export function namesFor(folder: string): ScaffoldNames {
  const cleaned = basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|[-]+$/g, "");
  const name = cleaned.length > 0 && toolsetNameProblem(cleaned) === undefined ? cleaned : "my-extension";
  return { packageName: name, name, mcpHostRange: `^${mcpHostVersion()}`, mcpHostDev: `^${mcpHostVersion()}` };
}

/**
 * @example
 * await initCommand(parseCli(["init", "greeter"], process.cwd()), console.log);
 */
export async function initCommand(settings: CliSettings, out: (line: string) => void): Promise<number> {
  const dir = resolve(settings.cwd, settings.argument ?? ".");
  if (existsSync(dir) && readdirSync(dir).some((entry) => entry !== ".git")) {
    throw new McpHostError(
      "CLI_USAGE",
      `${dir} is not empty; mcp-host init writes a new package and never overwrites files — give it a new folder, e.g. mcp-host init my-extension`,
    );
  }
  const dependency = mcpHostDependency(runningPackageDir(), mcpHostVersion());
  const names = { ...namesFor(dir), mcpHostDev: dependency.spec };
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "skills", SKILL), { recursive: true });
  const files: Array<[string, string]> = [
    ["package.json", packageJson(names)],
    ["tsconfig.json", TSCONFIG],
    ["src/index.ts", extensionSource(names)],
    ["src/index.test.ts", testSource(names)],
    [`skills/${SKILL}/SKILL.md`, skillSource(names)],
    ["README.md", readme(names)],
    [".gitignore", GITIGNORE],
  ];
  for (const [file, text] of files) writeFileSync(join(dir, file), text);
  const inside = relative(process.cwd(), dir);
  const shown = inside === "" ? "." : inside.startsWith("..") ? dir : inside;
  out(`Created the extension package "${names.packageName}" in ${shown}:`);
  for (const [file] of files) out(`  ${file}`);
  out("");
  if (dependency.from !== "registry") {
    out(`It builds and tests against this mcp-host (not from the npm registry): "mcp-host": "${dependency.spec}" in devDependencies.`);
    out(`Once mcp-host is installed from the registry, "^${mcpHostVersion()}" there works too.`);
    out("");
  }
  out("Next:");
  if (shown !== ".") out(`  cd ${shown}`);
  out("  npm install      # once");
  out("  npm test         # builds it and runs its test through a real MCP client");
  out(`  npm run dev      # serves it at http://127.0.0.1:3000/mcp?only=${names.name} and reloads on change`);
  return 0;
}
