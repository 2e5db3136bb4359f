// Bundles the `mcp-host` command (issue 28: the stdio cold start). tsc emits ~200 ES modules; Node loads each one on
// its own, and that loading was most of what `mcp-host stdio` cost on top of the raw SDK. After tsc, esbuild writes
// dist/cli/main.js (the package's `bin`) as one ESM entry with code splitting: what `stdio` needs is in the entry and
// its chunk; what only `serve`, `dev` or `init` need stays behind the same dynamic imports as in the source, in
// chunks loaded on demand. Chunks are written next to the entry (dist/cli/main.*.js), at the depth of src/cli/, so a
// path a CLI module resolves from import.meta.url (`../../package.json`) means the same thing bundled or not.
//
// What stays out of the bundle:
// - Third-party packages (imported from node_modules as before): bundling them was measured no faster, and it would
//   split identities an extension shares with the host (zod, the SDK's error classes) and the lazy createRequire
//   loads (yaml, cosmiconfig, prom-client).
// - The root entry's modules (src/index.ts and what it imports: McpHostError, the result helpers, the logger): an
//   extension's `import "mcp-host"` loads them from dist/, and the bundle imports those very files instead of a copy,
//   so `instanceof McpHostError` and every mark they keep hold on both sides.
// Code that resolves a file of the tsc layout from a bundled module asks `import.meta.mcpHostBundle` (true only here).
// The unbundled entry is written too, as dist/cli/main.unbundled.js (not packed), for the bench's before/after.
import { readdirSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src") + sep;
const outdir = join(root, "dist", "cli");
const CHUNK_PREFIX = "main.";

/** The source files an `import "mcp-host"` loads: the bundle imports them from dist/ rather than inlining copies. */
async function sharedModules(esbuild) {
  const result = await esbuild.build({
    entryPoints: [join(src, "index.ts")],
    bundle: true,
    write: false,
    packages: "external",
    platform: "node",
    format: "esm",
    metafile: true,
    logLevel: "silent",
  });
  return new Set(Object.keys(result.metafile.inputs).map((input) => join(root, input)));
}

/** Resolves mcp-host's own imports: a shared module becomes an import of its tsc output; the rest is inlined. */
function sharedAsExternal(shared) {
  return {
    name: "mcp-host-shared-modules",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === "inner") return undefined;
        const resolved = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: "inner" });
        if (resolved.errors.length > 0 || !shared.has(resolved.path)) return resolved;
        const built = join(root, "dist", relative(src, resolved.path)).replace(/\.ts$/, ".js");
        return { path: relative(outdir, built).split(sep).join("/"), external: true };
      });
    },
  };
}

/** Writes dist/cli/main.js (the bundle), its chunks and dist/cli/main.unbundled.js; returns the files written. */
export async function bundleCli() {
  const esbuild = await import("esbuild");
  for (const name of readdirSync(outdir)) if (name.startsWith(CHUNK_PREFIX) && name !== "main.unbundled.js") rmSync(join(outdir, name));
  const result = await esbuild.build({
    entryPoints: [join(src, "cli", "main.ts")],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    chunkNames: `${CHUNK_PREFIX}[name]-[hash]`,
    sourcemap: true,
    sourcesContent: false,
    define: { "import.meta.mcpHostBundle": "true" },
    plugins: [sharedAsExternal(await sharedModules(esbuild))],
    metafile: true,
    logLevel: "warning",
  });
  await esbuild.build({
    entryPoints: [join(src, "cli", "main.ts")],
    outfile: join(outdir, "main.unbundled.js"),
    bundle: false,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  return Object.keys(result.metafile.outputs);
}
