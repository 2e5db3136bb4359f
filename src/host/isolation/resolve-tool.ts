/**
 * How a worker finds an isolated tool's handler: it imports the extension's module itself (a function cannot be
 * sent to another thread), finds the extension by name among what the module exports — the default export, else
 * the named `extension` / `extensions` exports; an object or an array, never a factory, which the worker could not
 * call as the host did — and the tool by the name its extension gave it. Found handlers are kept per worker.
 */
import type { McpExtension, ToolHandler } from "../../extension/types.js";

const found = new Map<string, Promise<ToolHandler>>();

/**
 * A tool the worker could not find, with a sentence saying what to fix.
 * @example
 * throw new UnresolvedTool(`${url} exports no extension named "notes"; …`);
 */
export class UnresolvedTool extends Error {}

function exported(module: Record<string, unknown>): unknown[] {
  if (module.default !== undefined) return [module.default];
  return [module.extension, module.extensions].filter((value) => value !== undefined);
}

function extensionIn(module: Record<string, unknown>, url: string, name: string): McpExtension {
  const values = exported(module).flatMap((value) => (Array.isArray(value) ? value : [value]));
  if (values.some((value) => typeof value === "function")) {
    throw new UnresolvedTool(
      `${url} exports a factory, which a worker cannot call as the host did; export the extension object, or point isolation.module at a module that does`,
    );
  }
  const extensions = values.filter((value): value is McpExtension => typeof value === "object" && value !== null);
  const named = extensions.find((extension) => extension.name === name);
  // A single nameless export took its name from its package when the host loaded it.
  const only = extensions.length === 1 && extensions[0]!.name === undefined ? extensions[0] : undefined;
  const extension = named ?? only;
  if (extension === undefined) {
    throw new UnresolvedTool(`${url} exports no extension named "${name}"; isolation.module must be the module whose export is this extension`);
  }
  return extension;
}

async function resolve(url: string, extensionName: string, toolName: string): Promise<ToolHandler> {
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new UnresolvedTool(`importing ${url} in a worker failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const tool = extensionIn(module, url, extensionName).tools?.find((spec) => spec.name === toolName);
  if (tool === undefined || typeof tool.handler !== "function") {
    throw new UnresolvedTool(
      `extension "${extensionName}" in ${url} lists no tool "${toolName}"; a worker runs only the tools an extension lists in its module's export (a tool added in setup runs on the main thread)`,
    );
  }
  return tool.handler as ToolHandler;
}

/**
 * The handler of `toolName` in extension `extensionName` exported by `url`; throws UnresolvedTool saying why not.
 * @example
 * const handler = await resolveTool("file:///app/node_modules/my-ext/dist/index.js", "my-ext", "search");
 */
export function resolveTool(url: string, extensionName: string, toolName: string): Promise<ToolHandler> {
  const key = `${url}\u0000${extensionName}\u0000${toolName}`;
  let pending = found.get(key);
  if (pending === undefined) {
    pending = resolve(url, extensionName, toolName);
    // A failure is not kept: the module may be fixed (rebuilt) while the host runs.
    pending.catch(() => found.delete(key));
    found.set(key, pending);
  }
  return pending;
}
