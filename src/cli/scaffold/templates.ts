/**
 * The files `mcp-host init` writes: a stand-alone extension package that builds with its own TypeScript, tests
 * itself through a real MCP client in-process, ships an Agent Skill beside its tool, and declares itself to hosts
 * with `mcpExtensions`. Plain strings,
 * so what a new author gets is readable here in one place.
 */

/** What the templates are filled with. */
export interface ScaffoldNames {
  /** The npm package name. */
  packageName: string;
  /** The extension's and its toolset's name (URL-safe). */
  name: string;
  /** The mcp-host version range a host of this extension must satisfy (the peer dependency). */
  mcpHostRange: string;
  /** The mcp-host the package builds and tests against: the range, or a `file:` spec (mcp-host-dependency.ts). */
  mcpHostDev: string;
}

export function packageJson(n: ScaffoldNames): string {
  const pkg = {
    name: n.packageName,
    version: "0.1.0",
    description: `An mcp-host extension: the ${n.name} toolset.`,
    type: "module",
    license: "MIT",
    keywords: ["mcp", "mcp-host", "mcp-host-extension"],
    engines: { node: ">=20.19" },
    main: "./dist/index.js",
    exports: { ".": "./dist/index.js", "./package.json": "./package.json" },
    mcpExtensions: "./dist/index.js",
    files: ["dist", "skills", "!dist/**/*.test.*"],
    scripts: {
      build: "tsc -p tsconfig.json",
      test: "tsc -p tsconfig.json && node --test dist/",
      dev: "mcp-host dev",
    },
    dependencies: { zod: "^4.2.0" },
    peerDependencies: { "mcp-host": n.mcpHostRange },
    devDependencies: { "mcp-host": n.mcpHostDev, typescript: "5.9.3", "@types/node": "^20.19.0" },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2023"],
      types: ["node"],
      strict: true,
      declaration: true,
      rootDir: "src",
      outDir: "dist",
      skipLibCheck: true,
      verbatimModuleSyntax: true,
      // A build with a type error writes nothing: dist/ keeps the last good build (what mcp-host dev still serves).
      noEmitOnError: true,
    },
    include: ["src"],
  },
  null,
  2,
)}\n`;

export function extensionSource(n: ScaffoldNames): string {
  return `// The ${n.name} extension: one toolset with one tool. Add tools, resources and prompts here (see mcp-host's
// docs/extensions.md); hosts find this module through the "mcpExtensions" field of package.json.
import { defineExtension, defineTool, textResult } from "mcp-host";
import * as z from "zod";

export default defineExtension({
  name: "${n.name}",
  toolsets: [{ name: "${n.name}", title: "${n.name}", description: "Greets people.", instructions: "Greet people by their name." }],
  tools: [
    defineTool({
      name: "greet",
      title: "Greet",
      description: "Says hello to someone by name.",
      inputSchema: z.object({ name: z.string().min(1).describe("Who to greet") }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: ({ name }) => textResult(\`Hello, \${name}!\`),
    }),
  ],
  // Agent Skills served with the toolset (mcp-host's docs/skills.md): the folder beside src/ and dist/.
  skills: [{ path: new URL("../skills/${SKILL}", import.meta.url) }],
});
`;
}

/** The scaffold's skill: its folder's name is its name. */
export const SKILL = "greeting";

export function skillSource(n: ScaffoldNames): string {
  return `---
name: ${SKILL}
description: Greet people in the ${n.name} toolset - ask for a name when none was given, then call greet.
allowed-tools: greet
---
# Greeting

1. If you do not know the person's name, ask for it.
2. Call \`greet\` with the name, once.
`;
}

export function testSource(n: ScaffoldNames): string {
  return `// Runs the extension through a real MCP client, in-process: no server, no port.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildHost, connectInProcess } from "mcp-host/testing";
import extension from "./index.js";

test("greet answers through a real MCP client, and its skill is served", async () => {
  const host = buildHost([extension], { name: "test" });
  await host.start();
  const { client, close } = await connectInProcess(host, "only=${n.name}");
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["greet", "list_server_toolsets"]);
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    assert.deepEqual(result.content, [{ type: "text", text: "Hello, Ada!" }]);
    const invalid = await client.callTool({ name: "greet", arguments: { name: "" } });
    assert.equal(invalid.isError, true);
    const skill = await client.readResource({ uri: "skill://${SKILL}/SKILL.md" });
    assert.match((skill.contents[0] as { text: string }).text, /^---\\nname: ${SKILL}\\n/);
  } finally {
    await close();
    await host.stop();
  }
});
`;
}

export function readme(n: ScaffoldNames): string {
  return `# ${n.packageName}

An [mcp-host](https://www.npmjs.com/package/mcp-host) extension: the \`${n.name}\` toolset.

\`\`\`sh
npm install          # once
npm test             # build, then run the tests (a real MCP client, in-process)
npm run dev          # serve it on http://127.0.0.1:3000/mcp and reload on every change
\`\`\`

To serve it from a deployment, install the package there (\`npm install ${n.packageName}\`) and run
\`mcp-host serve\`; \`/mcp?only=${n.name}\` then serves just this toolset.
`;
}

export const GITIGNORE = "node_modules/\ndist/\n";
