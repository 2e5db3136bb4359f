/**
 * The loader for `.js`, `.mjs` and `.cjs` config files: imported fresh on every load (a reload must see the edited
 * file, and Node caches modules by URL), its default export taken as the configuration. An import failure is a
 * problem naming the file, line and error type but not the message, which may quote the source and a secret.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { fileProblem } from "./config-file-error.js";
import { refuseImport } from "./refuse-import.js";

const requireCache = createRequire(import.meta.url).cache;
let generation = 0;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function where(file: string, error: unknown): string {
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const at = new RegExp(`(?:${escapeRegExp(pathToFileURL(file).href)}|${escapeRegExp(file)})(?:\\?load=\\d+)?:(\\d+)`).exec(stack);
  return at ? `line ${at[1]}: ` : "";
}

/**
 * Imports a JavaScript config file and returns its default export.
 * @example
 * await loadJsFile("/srv/mcp-host.config.mjs") // { http: { port: 3000 } }
 */
export async function loadJsFile(file: string): Promise<unknown> {
  delete requireCache[file];
  let module: { default?: unknown };
  try {
    module = (await import(`${pathToFileURL(file).href}?load=${++generation}`)) as { default?: unknown };
  } catch (error) {
    // The message is left out on purpose: "sk_live_x is not defined" is what an unquoted secret looks like.
    const name = error instanceof Error ? error.name : "a thrown value";
    const code = (error as { code?: unknown } | null)?.code;
    const detail = typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? `${name} (${code})` : name;
    throw fileProblem(file, `${where(file, error)}could not be imported: ${detail}; run \`node ${file}\` to see the full error`);
  }
  if (module.default === undefined || module.default === null)
    throw fileProblem(file, "has no default export; write `export default { … }` (or `module.exports = { … }`)");
  return refuseImport(file, module.default);
}
